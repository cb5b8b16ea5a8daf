//! The accept loop: hyper's HTTP/1 connection on each accepted socket, with the limits that
//! keep one client from starving the others. A client has [`Limits::header_timeout`] to send a
//! request's head (hyper's header-read timeout: a client trickling its headers a byte at a
//! time, or holding an idle connection open, is cut off), and one address may hold at most
//! [`Limits::per_address`] connections at once (more are closed at once). Every refusal, here
//! and of a request (any answer of 400 or more), goes to the server's [`Log`].

use axum::Router;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tower::ServiceExt;

/// The limits on each client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections one address may hold at once.
    pub per_address: usize,
    /// How long a client may take to send a request's head (and how long an idle connection
    /// is kept).
    pub header_timeout: Duration,
    /// How long one live stream lasts: then it ends and the browser opens it again, so no
    /// stream is held for ever by a client that has gone.
    pub feed_lifetime: Duration,
    /// How often the served files are looked at for changes (files written by other
    /// processes: the desk screen, a board's match screen on this machine).
    pub look: Duration,
    /// The least time between two updates of a live page: the changes that come within it go
    /// out together, in one event.
    pub update_every: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            per_address: 64,
            header_timeout: Duration::from_secs(10),
            feed_lifetime: Duration::from_secs(300),
            look: Duration::from_millis(100),
            update_every: Duration::from_millis(150),
        }
    }
}

/// The lines the server keeps of what it refused, the last [`Log::KEEP`]; written to the
/// standard error too when `echo`.
#[derive(Debug, Default)]
pub struct Log {
    echo: bool,
    lines: Mutex<VecDeque<String>>,
}

impl Log {
    /// How many lines are kept.
    pub const KEEP: usize = 1000;

    pub(super) fn new(echo: bool) -> Log {
        Log {
            echo,
            lines: Mutex::default(),
        }
    }

    /// Log `what` about the client at `peer`, with the time.
    pub(super) fn note(&self, peer: Option<SocketAddr>, what: &str) {
        let at = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ");
        let peer = peer.map_or_else(|| "-".to_string(), |p| p.to_string());
        let line = format!("{at} {peer} {what}");
        if self.echo {
            eprintln!("{line}");
        }
        let mut lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        if lines.len() == Log::KEEP {
            lines.pop_front();
        }
        lines.push_back(line);
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> Vec<String> {
        let lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
        lines.iter().cloned().collect()
    }
}

/// Why a request was refused, for the log: set on the answer by the handler that knows.
#[derive(Clone, Debug)]
pub(super) struct Reason(pub String);

/// The connections open from each address.
#[derive(Default)]
struct Counts(Mutex<HashMap<IpAddr, usize>>);

/// One connection counted against its address while it lives.
struct Slot {
    counts: Arc<Counts>,
    ip: IpAddr,
}

impl Counts {
    fn admit(self: &Arc<Counts>, ip: IpAddr, most: usize) -> Option<Slot> {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let n = map.entry(ip).or_default();
        if *n >= most {
            return None;
        }
        *n += 1;
        Some(Slot {
            counts: Arc::clone(self),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut map = self.counts.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

/// Log every answer of 400 or more, with its reason when the handler gave one.
pub(super) async fn log_refusals(
    axum::extract::State(log): axum::extract::State<Arc<Log>>,
    request: Request,
    next: Next,
) -> Response {
    let peer = request.extensions().get::<SocketAddr>().copied();
    let what = format!("{} {}", request.method(), request.uri());
    let response = next.run(request).await;
    let status = response.status();
    if status.as_u16() >= 400 {
        let reason = response
            .extensions()
            .get::<Reason>()
            .map_or(String::new(), |r| format!(": {}", r.0));
        log.note(peer, &format!("refused {what}: {status}{reason}"));
    }
    response
}

/// Accept connections until `stopped`, each served on a task of its own.
pub(super) async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: Limits,
    log: Arc<Log>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let counts = Arc::new(Counts::default());
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = &mut stopped => return,
        };
        let Ok((socket, peer)) = accepted else {
            // Out of file descriptors, say: wait a little rather than spin.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Some(slot) = counts.admit(peer.ip(), limits.per_address) else {
            log.note(
                Some(peer),
                &format!(
                    "refused a connection: {} open from this address already",
                    limits.per_address
                ),
            );
            drop(socket);
            continue;
        };
        tokio::spawn(connection(
            socket,
            peer,
            app.clone(),
            limits,
            Arc::clone(&log),
            slot,
        ));
    }
}

/// Serve one connection until it closes or is cut off.
async fn connection(
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
    log: Arc<Log>,
    slot: Slot,
) {
    let _ = socket.set_nodelay(true);
    let service = app.map_request(move |mut r: Request<hyper::body::Incoming>| {
        r.extensions_mut().insert(peer);
        r.map(axum::body::Body::new)
    });
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .serve_connection(TokioIo::new(socket), TowerToHyperService::new(service))
        .with_upgrades()
        .await;
    if let Err(e) = served
        && e.is_timeout()
    {
        log.note(
            Some(peer),
            &format!(
                "cut off: no complete request head within {} s",
                limits.header_timeout.as_secs_f32()
            ),
        );
    }
    drop(slot);
}
