//! The match on the network, from the match screen: served live to browsers (`S`: this
//! machine only, or the hall), and reported to the desk (the set-up's desk and token, or
//! `--desk`). Both run on threads of their own, started through the [`Network`] the command
//! line gave; the screen only starts them, reads their state and drops them (which stops
//! them) when the match screen is left.

use super::keys::{SERVE_KEYS, SERVING_KEYS, ServeAct, ServingAct};
use super::{MatchScreen, Popup};
use crate::tui::keys::lookup;
use crate::tui::match_flow::network::{Link, Network, Reporting, Serving};
use crate::tui::screens::Ctx;
use crate::tui::theme::Appearance;
use crate::tui::widgets::{StatusKind, render_popup};
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::text::{Line, Span};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The match's server and reporter, while they run.
#[derive(Default)]
pub(crate) struct Live {
    /// The server of the match, and the addresses to give spectators.
    serving: Option<(Box<dyn Serving>, Vec<String>)>,
    /// The reporter to the desk.
    reporting: Option<Box<dyn Reporting>>,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("serving", &self.serving.as_ref().map(|s| s.0.addr()))
            .field("reporting", &self.reporting.as_ref().map(|r| r.link()))
            .finish()
    }
}

/// The addresses to give for a server listening on `addr`: itself, or when it listens on
/// every interface, each of `hall` (this machine's addresses, loopback left out), else
/// 127.0.0.1.
fn urls(addr: SocketAddr, hall: &[IpAddr]) -> Vec<String> {
    if !addr.ip().is_unspecified() {
        return vec![format!("http://{addr}/")];
    }
    let mut out: Vec<String> = hall
        .iter()
        .filter(|ip| !ip.is_loopback())
        .map(|&ip| format!("http://{}/", SocketAddr::new(ip, addr.port())))
        .collect();
    if out.is_empty() {
        out.push(format!("http://127.0.0.1:{}/", addr.port()));
    }
    out
}

impl MatchScreen {
    /// The key `S`: ask whom to serve to, or show where the match is served.
    pub(super) fn serve_key(&mut self) {
        let p = if self.live.serving.is_some() {
            Popup::Serving
        } else {
            Popup::Serve
        };
        self.open(p);
    }

    /// The address the match is served at (the first to give), while it is.
    pub fn served_at(&self) -> Option<SocketAddr> {
        self.live.serving.as_ref().map(|s| s.0.addr())
    }

    /// The state of the link to the desk, while the match reports to one.
    pub fn desk_link(&self) -> Option<Link> {
        self.live.reporting.as_ref().map(|r| r.link())
    }

    /// Report the match file to the desk at `desk` with `token`, through `network`.
    pub(crate) fn report_to(&mut self, network: &dyn Network, desk: &str, token: &str) {
        match self.session.saver.path() {
            Some(file) => self.live.reporting = Some(network.report(desk, token, file)),
            None => self.say(
                "not reported to the desk: this match is not saved",
                StatusKind::Error,
            ),
        }
    }

    /// Report to the desk the set-up form gave, through `network` when there is one.
    pub(crate) fn report_from_setup(
        &mut self,
        network: Option<&dyn Network>,
        desk: &str,
        token: &str,
    ) {
        match network {
            Some(n) => self.report_to(n, desk, token),
            None => self.say(
                "not reported to the desk: reporting is not available here",
                StatusKind::Error,
            ),
        }
    }

    /// A key of the serve popups; the popup stays open when the key is not theirs.
    pub(super) fn serve_popup_key(&mut self, popup: Popup, key: &KeyEvent, ctx: &Ctx) {
        match popup {
            Popup::Serve => match lookup(SERVE_KEYS, key) {
                Some(ServeAct::Here) => self.start_serving(Ipv4Addr::LOCALHOST, ctx),
                Some(ServeAct::Hall) => self.start_serving(Ipv4Addr::UNSPECIFIED, ctx),
                Some(ServeAct::Cancel) => {}
                None => {
                    self.popup = Some(popup);
                    self.stray_key(key);
                }
            },
            _ => match lookup(SERVING_KEYS, key) {
                Some(ServingAct::Stop) => {
                    self.live.serving = None;
                    self.say_done("the match is no longer served");
                }
                Some(ServingAct::Close) => {}
                None => {
                    self.popup = Some(popup);
                    self.stray_key(key);
                }
            },
        }
    }

    /// Serve the match on `ip` and the configured port (any free one when it is taken).
    fn start_serving(&mut self, ip: Ipv4Addr, ctx: &Ctx) {
        let Some(network) = ctx.matches.net.network.clone() else {
            let text = "serving live is not available here: crossboard serve --match FILE does it";
            self.say(text, StatusKind::Error);
            return;
        };
        let Some(file) = self.session.saver.path().map(std::path::Path::to_path_buf) else {
            self.say(
                "this match is not saved: there is nothing to serve",
                StatusKind::Error,
            );
            return;
        };
        let port = ctx.matches.net.port;
        let bind = |port| SocketAddr::new(IpAddr::V4(ip), port);
        let started = network.serve_match(&file, bind(port)).or_else(|e| {
            if port == 0 {
                Err(e)
            } else {
                network.serve_match(&file, bind(0))
            }
        });
        match started {
            Ok(s) => {
                let hall = if ip.is_unspecified() {
                    network.hall_addresses()
                } else {
                    Vec::new()
                };
                let given = urls(s.addr(), &hall);
                self.say_done(format!("served live at {}", given.join(" ")));
                self.live.serving = Some((s, given));
                self.open(Popup::Serving);
            }
            Err(e) => self.say(format!("cannot serve the match: {e}"), StatusKind::Error),
        }
    }

    /// Stop serving and reporting (the match screen is left).
    pub(super) fn stop_live(&mut self) {
        self.live = Live::default();
    }

    /// The link's words for the status line, while the match reports to a desk.
    pub(super) fn link_words(&self) -> Option<(String, StatusKind)> {
        let link = self.desk_link()?;
        Some((link.words(), link.kind()))
    }

    /// True while the match reports to a desk: the status line then shows the link as it
    /// changes, without a key pressed.
    pub(super) fn reporting(&self) -> bool {
        self.live.reporting.is_some()
    }

    /// Draw the serve popups.
    pub(super) fn render_serve_popup(&self, frame: &mut Frame, look: &Appearance) {
        match (&self.popup, &self.live.serving) {
            (Some(Popup::Serve), _) => render_popup(
                frame,
                "Serve this match live",
                vec![
                    Line::from("Spectators follow the board in a browser."),
                    Line::from("Who may watch?"),
                    Line::from("  l  this machine only (127.0.0.1)"),
                    Line::from("  h  the hall: every network of this machine (0.0.0.0)"),
                    Line::from(Span::styled("Esc: not now", look.dim())),
                ],
                look,
            ),
            (Some(Popup::Serving), Some((s, given))) => {
                let whom = if s.addr().ip().is_unspecified() {
                    "The hall watches at:"
                } else {
                    "This machine watches at:"
                };
                let mut lines = vec![Line::from(whom)];
                lines.extend(
                    given
                        .iter()
                        .map(|u| Line::from(Span::styled(format!("  {u}"), look.accent()))),
                );
                lines.push(Line::from("Leaving the match stops it."));
                lines.push(Line::from(Span::styled(
                    "s: stop serving · Esc: close",
                    look.dim(),
                )));
                render_popup(frame, "Served live", lines, look);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hall_is_given_every_address_but_loopback() {
        let hall: Vec<IpAddr> = vec![
            "127.0.0.1".parse().unwrap(),
            "192.168.1.5".parse().unwrap(),
            "10.0.0.2".parse().unwrap(),
        ];
        let all = "0.0.0.0:8080".parse().unwrap();
        assert_eq!(
            urls(all, &hall),
            ["http://192.168.1.5:8080/", "http://10.0.0.2:8080/"]
        );
        assert_eq!(urls(all, &[]), ["http://127.0.0.1:8080/"]);
        let here = "127.0.0.1:9000".parse().unwrap();
        assert_eq!(urls(here, &hall), ["http://127.0.0.1:9000/"]);
    }
}
