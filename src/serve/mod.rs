//! `crossboard serve`: the desk's event and its boards on the network. An HTTP server (axum on
//! tokio) with server-rendered pages, live PDN, a read-only JSON API and Server-Sent Events,
//! all derived from the desk's database and the match files (what is kept between requests,
//! the event and the match files as read, the live pages' renderings and the round's PDN, is
//! made again when a file it was made from changes); and the desk's side of boards reporting
//! their match files ([`desk`]).
//!
//! Beside the terminal UI: it reads the layers below it, and the command line starts it.

mod addresses;
mod desk;
mod join;
mod listen;
mod live;
mod pages;
mod report;
mod rounds;
mod routes;
mod view;
mod watcher;

pub use crate::store::copy_path;
pub use addresses::hall_addresses;
pub use desk::MAX_LINES;
pub use join::{Pairing, fetch_pairing};
pub use listen::{Limits, Log};
pub use report::{LinkState, Refusal, RefusalKind, Reporter, report};
pub use view::Source;

use std::net::SocketAddr;
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
}

impl Options {
    /// Serve `source` on `bind` with the default limits, logging to memory only.
    pub fn new(source: Source, bind: SocketAddr) -> Options {
        Options {
            source,
            bind,
            limits: Limits::default(),
            echo: false,
        }
    }
}

/// A server running on a thread of its own; dropping it stops it.
pub struct Running {
    addr: SocketAddr,
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
/// enough for the pages being made at once and a push, few enough that their allocator
/// arenas (glibc gives each thread its own, up to 8 a core) stay few and small.
const BLOCKING_THREADS: usize = 4;

/// Listen on `options.bind` and serve on a thread of its own.
pub fn start(options: Options) -> Result<Running, ServeError> {
    let s = &options.source;
    if s.db.is_none() && s.match_file.is_none() {
        return Err(ServeError::Nothing);
    }
    let bind = options.bind;
    let listener = std::net::TcpListener::bind(bind)
        .map_err(|source| ServeError::Bind { addr: bind, source })?;
    let addr = listener.local_addr().map_err(ServeError::Runtime)?;
    listener
        .set_nonblocking(true)
        .map_err(ServeError::Runtime)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(BLOCKING_THREADS)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let feeds = Arc::new(AtomicUsize::new(0));
    let log = Arc::new(Log::new(options.echo));
    if let Some(db) = &options.source.db {
        desk::catch_up_all(db, &log);
    }
    let app = routes::router(
        options.source,
        Arc::clone(&feeds),
        Arc::clone(&log),
        &options.limits,
    );
    let (limits, kept) = (options.limits, Arc::clone(&log));
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
        feeds,
        log,
        stop: Some(stop),
        thread: Some(thread),
    })
}
