//! Pictures on the command line: `show --format svg` (one position as
//! SVG) and `replay --html` (the replay page). Both draw the game's
//! [`Game::picture`] of the position; with `--key`, of the key holder's
//! view, else of what everyone sees, so that no hidden identity appears
//! without the key.

use std::path::PathBuf;

use super::args::{Format, ReplayArgs};
use super::context::{compose_failure, read_wallet, replay_all, Ctx, RecordCommand};
use super::files;
use super::out;
use super::report::{Exit, Failure};
use crate::game::Game;
use crate::picture::html::{self, Frame};
use crate::picture::{svg, Picture};
use crate::record::LineKind;
use crate::referee::{Keep, Keys, PlayedTurn, Referee, Shown};
use crate::wallet::Wallet;

/// The picture of `state`, or the refusal of a game without pictures.
fn picture_of<G: Game>(state: &G::State) -> Result<Picture, Failure> {
    G::picture(state).ok_or_else(|| {
        Failure::usage(format!(
            "{} has no picture yet: use the text diagram (herald show)",
            G::TITLE
        ))
    })
}

/// `show --format svg`: the SVG of `state` (the position after turn
/// `turn`, as the viewer sees it) on standard output, what the last line
/// changed from `before` (the position it started from) outlined, and
/// with `--key` the lines of the key's side's look (`look`) in the caption.
pub(super) fn show_svg<G: Game>(
    state: &G::State,
    before: Option<&G::State>,
    turn: u32,
    look: &[String],
) -> Result<(), Failure> {
    let mut pic = picture_of::<G>(state)?;
    // `show --key`: the hand, the roll and the step due under the board.
    pic.caption.extend(look.iter().cloned());
    if let Some(before) = before.and_then(G::picture) {
        pic.mark_changes(&before);
    }
    out(&svg::document(&pic, &heading::<G>(turn)))
}

/// Under `show`'s text diagram: what the last turn (its line's
/// [`line_label`], `label`) changed, from the position `before` it to
/// `after`, as the picture marks it (every game alike): `Changed by 18.
/// North: g1, d12, d9, South's Keep`, wrapped at 78 columns; nothing when
/// the game draws no picture or nothing changed.
pub(super) fn changed_text<G: Game>(before: &G::State, after: &G::State, label: &str) -> String {
    let (Some(mut now), Some(was)) = (G::picture(after), G::picture(before)) else {
        return String::new();
    };
    now.mark_changes(&was);
    let names = now.changed_names();
    if names.is_empty() {
        return String::new();
    }
    let mut text = String::new();
    let mut row = format!("Changed by {label}:");
    for (i, name) in names.iter().enumerate() {
        let word = if i + 1 < names.len() {
            format!(" {name},")
        } else {
            format!(" {name}")
        };
        if row.len() + word.len() > 78 {
            text.push_str(&row);
            text.push('\n');
            row = format!("  {}", word.trim_start());
        } else {
            row.push_str(&word);
        }
    }
    text.push_str(&row);
    text.push('\n');
    text
}

/// `replay --html` writes a page: a `--format` with it is refused. (The
/// other formats a command does not write are refused by clap: each
/// command offers only its own, `args::FormatParser`.)
pub(super) fn refuse_format_with_html(args: &ReplayArgs) -> Result<(), Failure> {
    if args.html && args.input.format != Format::Text {
        return Err(Failure::usage(
            "replay --html writes a page: it takes no --format",
        ));
    }
    Ok(())
}

/// `Castle Danger, after turn 6`.
fn heading<G: Game>(turn: u32) -> String {
    format!("{}, after turn {turn}", G::TITLE)
}

/// `replay --html [-o FILE] [--key K]`.
pub(super) struct ReplayPage {
    pub(super) key: Option<PathBuf>,
    pub(super) output: Option<PathBuf>,
}

/// What a line did, for the list of turns: its actions and chance, or
/// what a line without them carried.
fn line_text<G: Game>(played: &PlayedTurn<G>) -> String {
    let body = played.body();
    if !body.is_empty() {
        return body;
    }
    let commits = played
        .shown
        .iter()
        .filter(|s| matches!(s, Shown::Commit { .. }))
        .count();
    let opens = played.shown.len() - commits;
    match (commits, opens) {
        (0, 0) => "pass".into(),
        (c, 0) => format!("commits to {c} hidden values"),
        (0, o) => format!("opens {o} hidden values"),
        (c, o) => format!("commits to {c} and opens {o} hidden values"),
    }
}

fn label<G: Game>(played: &PlayedTurn<G>) -> String {
    line_label(played.kind, played.number, played.side.name::<G>())
}

/// How a line is named: `S1. Blue`, `6. Red`.
pub(super) fn line_label(kind: LineKind, number: u32, side: &str) -> String {
    match kind {
        LineKind::Setup => format!("S{number}. {side}"),
        LineKind::Turn => format!("{number}. {side}"),
    }
}

impl ReplayPage {
    /// The wallet of `--key`, checked against the game.
    fn wallet<G: Game>(
        &self,
        start: &Referee<G>,
        ctx: &Ctx<'_>,
    ) -> Result<Option<Wallet>, Failure> {
        let Some(path) = self.key.as_deref() else {
            return Ok(None);
        };
        let wallet = read_wallet(path)?;
        start
            .view(Keys::as_shown(&wallet))
            .map_err(|e| compose_failure(e, Some(path), ctx))?;
        Ok(Some(wallet))
    }

    fn write(&self, page: &str, count: usize, ctx: &Ctx<'_>) -> Result<(), Failure> {
        match &self.output {
            Some(path) if path.as_os_str() == "-" => out(page),
            Some(path) => {
                files::write_new(path, page.as_bytes())?;
                out(&format!(
                    "wrote the replay page of {} to {} ({count} positions)\n",
                    ctx.origin,
                    path.display()
                ))
            }
            None => out(page),
        }
    }
}

impl RecordCommand for ReplayPage {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let start = Referee::<G>::start(ctx.record).map_err(|e| ctx.problem(&e))?;
        let wallet = self.wallet(&start, ctx)?;
        picture_of::<G>(start.state())?;
        // The position as the key's holder sees it (the wallet was checked
        // above), else as everyone does.
        let picture = |referee: &Referee<G>| {
            let seen = wallet
                .as_ref()
                .and_then(|w| referee.view(Keys::as_shown(w)).ok());
            G::picture(seen.as_ref().unwrap_or(referee.state()))
        };
        // Each picture after the first outlines what its line changed
        // (the marks are not compared: the next picture is marked against
        // this one's pieces and edges).
        let mut last = picture(&start);
        let first = last
            .as_ref()
            .map_or_else(String::new, |p| svg::document(p, &heading::<G>(0)));
        let mut draw = |referee: &Referee<G>, turn: u32, kind: LineKind| {
            let mut now = picture(referee);
            if let (Some(now), Some(before), LineKind::Turn) = (now.as_mut(), last.as_ref(), kind) {
                now.mark_changes(before);
            }
            let svg = now
                .as_ref()
                .map_or_else(String::new, |p| svg::document(p, &heading::<G>(turn)));
            last = now;
            svg
        };
        let mut frames = vec![Frame {
            turn: 0,
            label: "Start".into(),
            line: String::new(),
            comment: String::new(),
            svg: first,
        }];
        let mut turns = 0;
        let keep = Keep {
            before: true,
            ..Keep::RULES
        };
        replay_all::<G>(ctx, keep, |played, referee| {
            if played.kind == LineKind::Turn {
                turns = played.number;
            }
            frames.push(Frame {
                turn: turns,
                label: label(played),
                line: line_text(played),
                comment: super::commands::line_comment(referee, played),
                svg: draw(referee, turns, played.kind),
            });
        })?;
        let view = match &wallet {
            Some(w) => format!(
                "{}'s view: your own hidden values are marked (dashed ring); keep this page to yourself",
                w.side()
            ),
            None => "Everyone's view: only what the record has opened is shown".to_string(),
        };
        let title = format!("{}: {}", G::TITLE, ctx.origin);
        let page = html::page(&title, &view, &frames);
        self.write(&page, frames.len(), ctx)?;
        Ok(Exit::Ok)
    }
}
