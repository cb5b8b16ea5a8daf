//! `crossboard serve`: the desk's event and its boards on the network. An HTTP server (axum on
//! tokio) with server-rendered pages, live PDN, a read-only JSON API and Server-Sent Events,
//! all derived from the desk's database and the match files (what is kept between requests,
//! the event and the match files as read, the live pages' renderings and the round's PDN, is
//! made again when a file it was made from changes); and the desk's side of boards reporting
//! their match files ([`desk`]).
//!
//! Beside the terminal UI: it reads the layers below it, and the command line starts it.

mod addresses;
mod delay;
mod descriptors;
mod desk;
mod desk_files;
mod director;
mod floor;
mod guesses;
mod hall;
mod join;
mod listen;
mod live;
mod log;
mod overrule;
mod pages;
mod report;
mod rounds;
mod routes;
mod site;
mod site_bench;
mod view;
mod watcher;

pub use crate::store::copy_path;
pub use addresses::hall_addresses;
pub use delay::Delay;
pub use descriptors::HEADROOM;
pub use desk::MAX_LINES;
pub use join::fetch_pairing;
pub use listen::{Limits, Log};
pub use report::{LinkState, Refusal, RefusalKind, Reporter, report};
pub use site::{SiteError, SiteReport, publish_site};
pub use site_bench::bench_publish;
pub use view::Source;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The async runtime could not be made.
    #[error("cannot start the server: {0}")]
    Runtime(std::io::Error),
    /// The desk's files are not what serve may read and write.
    #[error("{0}")]
    Files(String),
    /// Nothing to serve.
    #[error("nothing to serve: give --db (an event database) and/or --match FILE")]
    Nothing,
}

/// What to serve and where.
#[derive(Clone, Debug)]
pub struct Options {
    /// The data.
    pub source: Source,
    /// The address to listen on (port 0: any free port).
    pub bind: SocketAddr,
    /// The limits on each client.
    pub limits: Limits,
    /// Write what is refused to the standard error too (it is kept in [`Running::log`]).
    pub echo: bool,
    /// How far behind the files every public address is (`--delay`); the director's page and
    /// the boards' pushes are not delayed.
    pub delay: Delay,
}

impl Options {
    /// Serve `source` on `bind` with the default limits, logging to memory only.
    pub fn new(source: Source, bind: SocketAddr) -> Options {
        Options {
            source,
            bind,
            limits: Limits::default(),
            echo: false,
            delay: Delay::default(),
        }
    }
}

/// A server running on a thread of its own; dropping it stops it.
pub struct Running {
    addr: SocketAddr,
    /// Listening on IPv6's every address, and IPv4's too.
    dual_stack: bool,
    feeds: Arc<AtomicUsize>,
    log: Arc<Log>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Whether a client at `ip` can reach the server: the address it listens on, or any of
    /// its family for an unspecified address (IPv4's too for `[::]` where the system lets one
    /// socket take both, see [`Running::dual_stack`]).
    pub fn takes(&self, ip: IpAddr) -> bool {
        let own = self.addr.ip();
        if !own.is_unspecified() {
            return ip == own;
        }
        own.is_ipv6() == ip.is_ipv6() || self.dual_stack
    }

    /// Whether it listens on every IPv6 address and every IPv4 address both (asked for `[::]`,
    /// where the system allows it; else IPv6 alone).
    pub fn dual_stack(&self) -> bool {
        self.dual_stack
    }

    /// The live feeds open now (pages kept live).
    pub fn feeds(&self) -> usize {
        self.feeds.load(Ordering::Relaxed)
    }

    /// What the server refused (requests, connections, slow clients), with when and to whom.
    pub fn log(&self) -> Vec<String> {
        self.log.lines()
    }

    /// The address to give spectators: `http://ADDR/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stop serving and wait for the server's thread.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Serve until the process is interrupted (Ctrl-C), then stop.
    pub fn wait_for_interrupt(mut self) -> Result<(), ServeError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ServeError::Runtime)?;
        let _ = rt.block_on(tokio::signal::ctrl_c());
        self.halt();
        Ok(())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.halt();
    }
}

/// The most threads the server reads files and writes pushes on (tokio's default is 512):
/// enough for the pages being made at once and a push, few enough that the server's own
/// threads stay few.
const BLOCKING_THREADS: usize = 4;

/// One allocator arena for the whole process (glibc; other allocators need nothing).
/// glibc's allocator gives a thread that finds the arenas busy one of its own (up to 8 a core),
/// and a block freed goes back to the arena it came from, taken again only by the threads
/// using that arena. A connection's buffers come from the arena of the worker that runs its
/// task then, so as live streams closed and reopened, what was in use moved from one arena to
/// the other, the first keeping its freed memory and the second growing: the process grew
/// each time the streams reopened with no more in use (BENCHMARKS.md, "The hall on the
/// network"). With one arena what one thread frees, any thread takes again; the threads share
/// its lock, which glibc's per-thread caches of small blocks mostly spare them.
fn one_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets one of the allocator's tunables; it may be called at any time.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// A listening socket on `addr`, and whether it takes IPv4 as well as IPv6: asked for IPv6's
/// unspecified address (`[::]`), it is made dual-stack where the system allows (so that one
/// address takes every client, as `0.0.0.0` does for IPv4 alone).
fn listen_on(addr: SocketAddr) -> std::io::Result<(std::net::TcpListener, bool)> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))?;
    let dual = addr.is_ipv6() && addr.ip().is_unspecified() && socket.set_only_v6(false).is_ok();
    // As the standard library does on Unix: a restarted server gets its port back at once.
    #[cfg(unix)]
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(1024)?;
    Ok((socket.into(), dual))
}

/// Listen on `options.bind` and serve on a thread of its own.
pub fn start(options: Options) -> Result<Running, ServeError> {
    let s = &options.source;
    if s.db.is_none() && s.match_file.is_none() {
        return Err(ServeError::Nothing);
    }
    if let Some(db) = &s.db {
        desk_files::check_database(db).map_err(ServeError::Files)?;
        desk_files::check_boards_folder(db).map_err(ServeError::Files)?;
    }
    let bind = options.bind;
    let (listener, dual_stack) =
        listen_on(bind).map_err(|source| ServeError::Bind { addr: bind, source })?;
    let addr = listener.local_addr().map_err(ServeError::Runtime)?;
    listener
        .set_nonblocking(true)
        .map_err(ServeError::Runtime)?;
    one_arena();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(BLOCKING_THREADS)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let feeds = Arc::new(AtomicUsize::new(0));
    let log = Arc::new(Log::new(options.echo, options.limits.log_every));
    if let Some(db) = &options.source.db {
        let removed = desk_files::remove_leftovers(db);
        if removed > 0 {
            let dir = desk_files::boards_folder(db);
            let what = format!(
                "removed {removed} temporary files left in {} by a server stopped while writing",
                dir.display()
            );
            log.note(None, &what);
        }
        desk::catch_up_all(db, &log);
    }
    let limits = Limits {
        total: descriptors::connections(options.limits.total),
        ..options.limits
    };
    let app = routes::router(
        options.source,
        options.delay,
        Arc::clone(&feeds),
        Arc::clone(&log),
        &limits,
    )
    .layer(axum::middleware::from_fn_with_state(
        (limits, Arc::clone(&log)),
        listen::whole_body,
    ));
    let kept = Arc::clone(&log);
    let thread = std::thread::spawn(move || {
        rt.block_on(async move {
            let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                return;
            };
            listen::serve(listener, app, limits, kept, stopped).await;
        });
        // Streams still open (live feeds) end with the runtime.
        rt.shutdown_timeout(std::time::Duration::from_millis(200));
    });
    Ok(Running {
        addr,
        dual_stack,
        feeds,
        log,
        stop: Some(stop),
        thread: Some(thread),
    })
}
