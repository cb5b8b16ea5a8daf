//! The accept loop: hyper's HTTP/1 connection on each accepted socket, with the limits that
//! keep clients from starving the others. A client has [`Limits::header_timeout`] to send a
//! request's head (hyper's header-read timeout, which also closes a connection left idle
//! between requests) and [`Limits::body_timeout`] more for its body ([`whole_body`]); one
//! address may hold at most [`Limits::per_address`] connections at once, and the server at
//! most [`Limits::total`] in all ([`Table`]): when that many are open, a new connection takes
//! the place of the oldest of the address that holds the most, so that clients holding many
//! cannot keep out one that holds few. Every refusal, here and of a request (any answer of 400
//! or more), goes to the server's [`Log`].

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tower::ServiceExt;

pub use super::log::Log;
pub(super) use super::log::Reason;

/// The limits on each client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections one address may hold at once.
    pub per_address: usize,
    /// Connections the server holds at once, all addresses together (less when the process
    /// may not open that many files: see [`super::descriptors`]).
    pub total: usize,
    /// How long a client may take to send a request's head (and how long a connection is
    /// kept idle between requests).
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body once its head is in.
    pub body_timeout: Duration,
    /// The least time between two lines of the log about one address: what is refused
    /// meanwhile is counted, and the count logged.
    pub log_every: Duration,
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
            total: 4096,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            log_every: Duration::from_secs(1),
            feed_lifetime: Duration::from_secs(300),
            look: Duration::from_millis(100),
            update_every: Duration::from_millis(150),
        }
    }
}

/// One open connection in the [`Table`]: its number, its client, and the way to close it.
struct Held {
    id: u64,
    peer: SocketAddr,
    close: tokio::sync::oneshot::Sender<()>,
}

/// The connections open, by address, oldest first.
#[derive(Default)]
struct Open {
    by_address: HashMap<IpAddr, VecDeque<Held>>,
    total: usize,
    next: u64,
}

/// The connections open, shared by the accept loop and the connections' slots.
#[derive(Default)]
struct Table(Mutex<Open>);

/// Why a connection was not taken.
enum Refused {
    /// Its address holds as many as it may.
    PerAddress,
    /// The server holds as many as it may, and no address holds more than this one.
    Full,
}

/// One connection counted while it lives.
struct Slot {
    table: Arc<Table>,
    ip: IpAddr,
    id: u64,
}

/// A connection taken: its slot, the signal that closes it to make room for another, and the
/// connection closed for it (the client, and how many its address held).
type Admitted = (
    Slot,
    tokio::sync::oneshot::Receiver<()>,
    Option<(SocketAddr, usize)>,
);

impl Table {
    /// Take a connection from `peer`, within `limits`; when the server is full, close the
    /// oldest connection of the address holding the most, if it holds more than `peer`'s
    /// would.
    fn admit(self: &Arc<Table>, peer: SocketAddr, limits: &Limits) -> Result<Admitted, Refused> {
        let mut open = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let ip = peer.ip();
        let mine = open.by_address.get(&ip).map_or(0, VecDeque::len);
        if mine >= limits.per_address {
            return Err(Refused::PerAddress);
        }
        let mut evicted = None;
        if open.total >= limits.total {
            let most = open
                .by_address
                .iter()
                .max_by_key(|(_, held)| held.len())
                .map(|(ip, held)| (*ip, held.len()));
            let Some((victim, n)) = most.filter(|&(_, n)| n > mine + 1) else {
                return Err(Refused::Full);
            };
            if let Some(held) = open
                .by_address
                .get_mut(&victim)
                .and_then(VecDeque::pop_front)
            {
                let _ = held.close.send(());
                evicted = Some((held.peer, n));
                open.total -= 1;
            }
            if open.by_address.get(&victim).is_some_and(VecDeque::is_empty) {
                open.by_address.remove(&victim);
            }
        }
        let (close, closed) = tokio::sync::oneshot::channel();
        let id = open.next;
        open.next += 1;
        open.total += 1;
        open.by_address
            .entry(ip)
            .or_default()
            .push_back(Held { id, peer, close });
        let slot = Slot {
            table: Arc::clone(self),
            ip,
            id,
        };
        Ok((slot, closed, evicted))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.table.0.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(held) = open.by_address.get_mut(&self.ip) else {
            return;
        };
        let before = held.len();
        held.retain(|h| h.id != self.id);
        let gone = before - held.len();
        if held.is_empty() {
            open.by_address.remove(&self.ip);
        }
        open.total -= gone;
    }
}

/// Log every answer of 400 or more, with its reason when the handler gave one.
pub(super) async fn log_refusals(
    State(log): State<Arc<Log>>,
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

/// The whole body of every request, read within [`Limits::body_timeout`] of its head and at
/// most [`super::desk::MAX_BODY`] bytes, before the request goes on: a client trickling its
/// body is answered `408` and its connection closed, one sending too much `413`.
pub(super) async fn whole_body(
    State((limits, log)): State<(Limits, Arc<Log>)>,
    request: Request,
    next: Next,
) -> Response {
    let peer = request.extensions().get::<SocketAddr>().copied();
    let what = format!("{} {}", request.method(), request.uri());
    let (head, body) = request.into_parts();
    let refuse = |status: StatusCode, why: String| {
        log.note(peer, &format!("refused {what}: {status}: {why}"));
        (status, [(header::CONNECTION, "close")], why).into_response()
    };
    match tokio::time::timeout(limits.body_timeout, read_body(body)).await {
        Ok(Ok(bytes)) => next.run(Request::from_parts(head, Body::from(bytes))).await,
        Ok(Err(BodyError::TooLarge)) => refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a body is at most {} bytes", super::desk::MAX_BODY),
        ),
        Ok(Err(BodyError::Broken(e))) => refuse(
            StatusCode::BAD_REQUEST,
            format!("the body did not arrive: {e}"),
        ),
        Err(_) => refuse(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "cut off: the body not complete within {} s of the head",
                limits.body_timeout.as_secs_f32()
            ),
        ),
    }
}

enum BodyError {
    TooLarge,
    Broken(axum::Error),
}

/// The body's bytes, at most [`super::desk::MAX_BODY`] of them.
async fn read_body(body: Body) -> Result<Vec<u8>, BodyError> {
    let mut stream = body.into_data_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(BodyError::Broken)?;
        if bytes.len() + chunk.len() > super::desk::MAX_BODY {
            return Err(BodyError::TooLarge);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// Accept connections until `stopped`, each served on a task of its own.
pub(super) async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: Limits,
    log: Arc<Log>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let table = Arc::new(Table::default());
    let mut flush = tokio::time::interval(limits.log_every.max(Duration::from_millis(100)));
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = flush.tick() => {
                log.flush();
                continue;
            }
            _ = &mut stopped => return,
        };
        let Ok((socket, peer)) = accepted else {
            // Out of file descriptors, say: wait a little rather than spin.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let (slot, closed, evicted) = match table.admit(peer, &limits) {
            Ok(admitted) => admitted,
            Err(why) => {
                let why = match why {
                    Refused::PerAddress => {
                        format!("{} open from this address already", limits.per_address)
                    }
                    Refused::Full => format!("{} open in all already", limits.total),
                };
                log.note(Some(peer), &format!("refused a connection: {why}"));
                drop(socket);
                continue;
            }
        };
        if let Some((victim, n)) = evicted {
            let why = format!(
                "closed a connection to make room: {} open in all, {n} of them from this address",
                limits.total
            );
            log.note(Some(victim), &why);
        }
        tokio::spawn(connection(
            socket,
            peer,
            app.clone(),
            limits,
            Arc::clone(&log),
            (slot, closed),
        ));
    }
}

/// Serve one connection until it closes, is cut off, or is closed to make room.
async fn connection(
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
    log: Arc<Log>,
    (slot, closed): (Slot, tokio::sync::oneshot::Receiver<()>),
) {
    let _ = socket.set_nodelay(true);
    let service = app.map_request(move |mut r: Request<hyper::body::Incoming>| {
        r.extensions_mut().insert(peer);
        r.map(Body::new)
    });
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .serve_connection(TokioIo::new(socket), TowerToHyperService::new(service))
        .with_upgrades();
    let served = tokio::select! {
        s = served => s,
        // Closed to make room for another: dropping the connection closes the socket.
        _ = closed => Ok(()),
    };
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
