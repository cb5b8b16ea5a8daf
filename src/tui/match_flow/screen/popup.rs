//! The match screen's popups: a confirmation, a form answered (the director's command, the
//! export), and how they are drawn.

use super::keys::{RESIGN_KEYS, ResignAct};
use super::{MatchScreen, Pending, Popup};
use crate::director::Command;
use crate::engine::Color;
use crate::tui::keys::lookup;
use crate::tui::match_flow::director_menu::{DirectorOutcome, DirectorPopup};
use crate::tui::match_flow::log_view::LogOutcome;
use crate::tui::match_flow::stages;
use crate::tui::screens::{Ctx, Nav};
use crate::tui::theme::Appearance;
use crate::tui::widgets::{ConfirmOutcome, StatusKind, render_popup};
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::text::{Line, Span};

impl MatchScreen {
    pub(super) fn popup_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Option<Nav> {
        let popup = self.popup.take()?;
        match popup {
            Popup::Confirm(c, then) => match c.key(key) {
                ConfirmOutcome::Pending => {
                    self.popup = Some(Popup::Confirm(c, then));
                    self.stray_key(key);
                }
                ConfirmOutcome::No => {
                    self.dialog_note = None;
                    if matches!(then, Pending::Director(..)) {
                        self.after_menu();
                    }
                }
                ConfirmOutcome::Yes => {
                    self.dialog_note = None;
                    return Some(self.confirmed(then, ctx));
                }
            },
            Popup::ResignWho => match lookup(RESIGN_KEYS, key) {
                Some(ResignAct::Red) | Some(ResignAct::White) => {
                    let c = if lookup(RESIGN_KEYS, key) == Some(ResignAct::Red) {
                        Color::Red
                    } else {
                        Color::White
                    };
                    let name = stages::colour_name(&self.session.m, c);
                    self.confirm(
                        "Resign",
                        vec![format!("{name} ({c}) resigns this game?")],
                        Pending::Resign(c),
                    );
                }
                Some(ResignAct::Nobody) => self.dialog_note = None,
                None => {
                    self.popup = Some(Popup::ResignWho);
                    self.stray_key(key);
                }
            },
            Popup::Director(mut d) => {
                let typing = d.typing();
                match d.key(key) {
                    DirectorOutcome::Open => {
                        self.popup = Some(Popup::Director(d));
                        if !typing {
                            self.stray_key(key);
                        }
                    }
                    DirectorOutcome::Closed => {
                        self.dialog_note = None;
                        self.after_menu();
                    }
                    DirectorOutcome::Submit(cmd, text) => self.submit(cmd, text),
                }
            }
            Popup::Log(mut l) => match l.key(key, self.session.m.log().len()) {
                LogOutcome::Open => self.popup = Some(Popup::Log(l)),
                LogOutcome::Ignored => {
                    self.popup = Some(Popup::Log(l));
                    self.stray_key(key);
                }
                LogOutcome::Closed => {}
            },
            p @ (Popup::Serve | Popup::Serving) => {
                self.dialog_note = None;
                self.serve_popup_key(p, key, ctx);
            }
        }
        Some(Nav::Stay)
    }

    /// A director form was submitted: confirm it first.
    pub(super) fn submit(&mut self, cmd: Command, text: String) {
        let (cmd, text) = match cmd {
            // The menu already paused them: keeping them paused is a note for the record.
            Command::PauseClocks { reason } if self.paused_for_menu => (
                Command::Note {
                    text: format!("the clocks stay paused: {reason}"),
                },
                format!("Keep both clocks paused ({reason})"),
            ),
            cmd => (cmd, text),
        };
        self.confirm("Director", question(&text), Pending::Director(cmd, text));
    }

    /// A deliberate leave or quit during a running game: the clocks are paused first, so the
    /// side to move is charged the time it has thought (a reopened match resumes from there).
    fn charge_thinking_time(&mut self, ctx: &mut Ctx) {
        if self.clocks_running() {
            self.command(
                Command::PauseClocks {
                    reason: "the match was left".into(),
                },
                ctx,
            );
        }
    }

    /// A confirmed question.
    pub(super) fn confirmed(&mut self, then: Pending, ctx: &mut Ctx) -> Nav {
        match then {
            Pending::Resign(colour) => {
                self.command(Command::Resign { colour }, ctx);
            }
            Pending::OpenDirector => {
                if self.clocks_running()
                    && self.command(
                        Command::PauseClocks {
                            reason: "director menu open".into(),
                        },
                        ctx,
                    )
                {
                    self.paused_for_menu = true;
                }
                self.open(Popup::Director(DirectorPopup::menu()));
            }
            Pending::Director(cmd, text) => {
                let keep = matches!(cmd, Command::Note { .. })
                    && text.starts_with("Keep both clocks paused");
                let resume = matches!(cmd, Command::ResumeClocks);
                let before = self.stage.kind();
                let done = self.command(cmd, ctx);
                if done && keep {
                    let reason = text.trim_start_matches("Keep both clocks paused ");
                    self.say(
                        format!(
                            "Both clocks stay paused {reason}: Enter resumes them (asks first)"
                        ),
                        StatusKind::Warn,
                    );
                } else if done && self.stage.kind() == before && !resume {
                    self.say_done(format!("{text}: done"));
                }
                if keep || resume {
                    self.paused_for_menu = false;
                }
                self.after_menu();
            }
            Pending::Leave => {
                self.charge_thinking_time(ctx);
                self.stop_live();
                return self.leave();
            }
            Pending::Quit => {
                self.charge_thinking_time(ctx);
                return Nav::Quit;
            }
        }
        Nav::Stay
    }

    pub(super) fn render_popup(&self, frame: &mut Frame, look: &Appearance) {
        match &self.popup {
            Some(Popup::Confirm(c, _)) => c.render(frame, look),
            Some(Popup::ResignWho) => render_popup(
                frame,
                "Resign",
                vec![
                    Line::from("Who resigns this game?"),
                    Line::from(format!(
                        "  r  Red ({})",
                        stages::colour_name(&self.session.m, Color::Red)
                    )),
                    Line::from(format!(
                        "  w  White ({})",
                        stages::colour_name(&self.session.m, Color::White)
                    )),
                    Line::from(Span::styled("Esc: nobody", look.dim())),
                ],
                look,
            ),
            Some(Popup::Director(d)) => d.render(frame, look),
            Some(Popup::Log(l)) => l.render(frame, &self.session.m, look),
            Some(Popup::Serve | Popup::Serving) => self.render_serve_popup(frame, look),
            None => {}
        }
        let note = match (&self.popup, &self.dialog_note) {
            (Some(_), Some(n)) => Some((n.clone(), look.alert())),
            (Some(Popup::Director(_)), None) if self.paused_for_menu => Some((
                "Both clocks are paused while the director menu is open.".to_string(),
                look.accent(),
            )),
            _ => None,
        };
        if let Some((text, style)) = note {
            let area = frame.area();
            let buf = frame.buffer_mut();
            let y = area.bottom() - 1;
            for x in area.x..area.right() {
                buf[(x, y)].reset();
            }
            buf.set_line(
                area.x,
                y,
                &Line::from(Span::styled(format!(" {text}"), style)),
                area.width,
            );
        }
    }
}

/// The confirmation's question for a summary: "...?" unless the summary already ends a
/// sentence (a note typed with its full stop), which is then asked on a line of its own.
fn question(summary: &str) -> Vec<String> {
    if summary.ends_with(['.', '!', '?']) {
        vec![summary.to_string(), "Confirm?".to_string()]
    } else {
        vec![format!("{summary}?")]
    }
}
