//! Pictures on the command line: `show --format svg` (one position as
//! SVG) and `replay --html` (the replay page). Both draw the game's
//! [`Game::picture`] of the position; with `--key`, of the key holder's
//! view, else of what everyone sees, so that no hidden identity appears
//! without the key.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;

use super::args::{Format, ReplayArgs};
use super::context::{compose_failure, read_wallet, replay_all, Ctx, RecordCommand};
use super::files;
use super::out;
use super::report::{Exit, Failure};
use super::stream::Streamed;
use crate::game::Game;
use crate::picture::html::{self, Frame};
use crate::picture::{svg, Picture};
use crate::record::stream::{Reader, Stop};
use crate::record::LineKind;
use crate::referee::{Keep, Keys, PlayedTurn, Referee, Reread, Shown};
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
#[derive(Clone)]
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

/// The pictures of a replay's positions as frames of the page: each
/// picture after the first outlines what its line changed (the marks are
/// not compared: the next picture is marked against this one's pieces
/// and edges).
struct Frames<G: Game> {
    /// The picture of the last position drawn.
    last: Option<Picture>,
    /// The last turn played (set-up lines stand at turn 0).
    turns: u32,
    game: std::marker::PhantomData<G>,
}

impl<G: Game> Frames<G> {
    /// The first frame, of `seen` (the position before the first line,
    /// as the page's viewer sees it).
    fn start(seen: &G::State) -> (Self, Frame) {
        let last = G::picture(seen);
        let svg = last
            .as_ref()
            .map_or_else(String::new, |p| svg::document(p, &heading::<G>(0)));
        let frame = Frame {
            turn: 0,
            label: "Start".into(),
            line: String::new(),
            comment: String::new(),
            svg,
        };
        let frames = Frames {
            last,
            turns: 0,
            game: std::marker::PhantomData,
        };
        (frames, frame)
    }

    /// The frame of the line `played` (`referee` after it), of `seen`
    /// (the position after it as the viewer sees it).
    fn after(&mut self, played: &PlayedTurn<G>, referee: &Referee<G>, seen: &G::State) -> Frame {
        if played.kind == LineKind::Turn {
            self.turns = played.number;
        }
        let mut now = G::picture(seen);
        if let (Some(now), Some(before), LineKind::Turn) =
            (now.as_mut(), self.last.as_ref(), played.kind)
        {
            now.mark_changes(before);
        }
        let svg = now
            .as_ref()
            .map_or_else(String::new, |p| svg::document(p, &heading::<G>(self.turns)));
        self.last = now;
        Frame {
            turn: self.turns,
            label: label(played),
            line: line_text(played),
            comment: super::commands::line_comment(referee, played),
            svg,
        }
    }
}

/// What the page's replay keeps: the position before each line too, for
/// its annotation.
const PAGE_KEEP: Keep = Keep {
    before: true,
    ..Keep::RULES
};

/// The view of the page without a key file.
const EVERYONE: &str = "Everyone's view: only what the record has opened is shown";

/// A page's pieces in unnamed temporary files, so that the page is never
/// held whole ([`html::Store`]): a long record's page takes some
/// megabytes.
struct Spooled([std::io::BufWriter<std::fs::File>; 4]);

impl Spooled {
    fn new() -> Result<Self, Failure> {
        let file = || {
            tempfile::tempfile()
                .map(std::io::BufWriter::new)
                .map_err(super::commands::spool_failure)
        };
        Ok(Spooled([file()?, file()?, file()?, file()?]))
    }
}

impl html::Store for Spooled {
    type Reader = std::io::BufReader<std::fs::File>;

    fn write(&mut self, piece: html::Piece, bytes: &[u8]) -> std::io::Result<()> {
        self.0[piece as usize].write_all(bytes)
    }

    fn read_parts(&mut self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let parts = &mut self.0[html::Piece::Parts as usize];
        parts.flush()?;
        let file = parts.get_mut();
        file.seek(SeekFrom::Start(at))?;
        let read = file.read_exact(buf);
        file.seek(SeekFrom::End(0))?;
        read
    }

    fn into_pieces(self) -> std::io::Result<[Self::Reader; 4]> {
        let [a, b, c, d] = self.0;
        let back = |w: std::io::BufWriter<std::fs::File>| {
            let mut file = w.into_inner().map_err(|e| e.into_error())?;
            file.rewind()?;
            Ok::<_, std::io::Error>(std::io::BufReader::with_capacity(16 * 1024, file))
        };
        Ok([back(a)?, back(b)?, back(c)?, back(d)?])
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

    /// Print the page of the record read from `origin`, or write it to
    /// `-o`, a buffer at a time.
    fn write<G: Game>(
        &self,
        page: html::Page<Spooled>,
        view: &str,
        origin: &str,
    ) -> Result<(), Failure> {
        let count = page.len();
        let title = format!("{}: {origin}", G::TITLE);
        let mut read = page
            .into_page(&title, view)
            .map_err(super::commands::spool_failure)?;
        match &self.output {
            Some(path) if path.as_os_str() != "-" => {
                files::write_new_from(path, &mut read)?;
                out(&format!(
                    "wrote the replay page of {origin} to {} ({count} positions)\n",
                    path.display()
                ))
            }
            _ => {
                let mut buffer = vec![0; 16 * 1024];
                loop {
                    let n = read
                        .read(&mut buffer)
                        .map_err(super::commands::spool_failure)?;
                    if n == 0 {
                        return Ok(());
                    }
                    super::out_bytes(&buffer[..n])
                        .map_err(|e| Failure::usage(format!("cannot write the output: {e}")))?;
                }
            }
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
        let seen = |referee: &Referee<G>| {
            wallet
                .as_ref()
                .and_then(|w| referee.view(Keys::as_shown(w)).ok())
        };
        let mut page = html::Page::new(Spooled::new()?);
        let (mut frames, first) =
            Frames::<G>::start(seen(&start).as_ref().unwrap_or(start.state()));
        let mut written = page.push(&first);
        replay_all::<G>(ctx, PAGE_KEEP, |played, referee| {
            if written.is_ok() {
                let frame = frames.after(
                    played,
                    referee,
                    seen(referee).as_ref().unwrap_or(referee.state()),
                );
                written = page.push(&frame);
            }
        })?;
        written.map_err(super::commands::spool_failure)?;
        let view = match &wallet {
            Some(w) => format!(
                "{}'s view: your own hidden values are marked (dashed ring); keep this page to yourself",
                w.side()
            ),
            None => EVERYONE.to_string(),
        };
        self.write::<G>(page, &view, &ctx.origin)?;
        Ok(Exit::Ok)
    }
}

/// `replay --html` of a plain record read a part at a time (without a
/// key file): each position's frame written to the page's temporary
/// files as it is played ([`Spooled`]), the page written once the record
/// replayed to its end; the same page as [`ReplayPage::run`] of the
/// record read whole, and the same problems in the same order.
impl Streamed for ReplayPage {
    type Output = Exit;

    fn replay<G: Game, R: std::io::BufRead>(
        self,
        reader: Reader<R>,
        origin: &str,
        again: Option<Arc<dyn Reread>>,
    ) -> Result<Option<Exit>, Failure> {
        let mut page = html::Page::new(Spooled::new()?);
        let mut frames = None;
        // A game without pictures is refused once the header is known
        // good, before any line is (as read whole); a failure to write
        // the page's files, once the record is known good.
        let mut refused = None;
        let mut written = Ok(());
        let keep = PAGE_KEEP.on(super::context::reader_today());
        let replayed =
            crate::referee::Replay::<G>::check_each(reader, keep, again, |played, referee| {
                if refused.is_some() || written.is_err() {
                    return;
                }
                match (played, frames.as_mut()) {
                    (None, _) => match picture_of::<G>(referee.state()) {
                        Ok(_) => {
                            let (start, first) = Frames::<G>::start(referee.state());
                            frames = Some(start);
                            written = page.push(&first);
                        }
                        Err(failure) => refused = Some(failure),
                    },
                    (Some(played), Some(frames)) => {
                        written = page.push(&frames.after(played, referee, referee.state()));
                    }
                    (Some(_), None) => {}
                }
            });
        let referee = match replayed {
            Ok(referee) => referee,
            Err(stop) => {
                return match (*stop, refused) {
                    (stop @ Stop::Read(_), _) | (stop, None) => {
                        super::stream::stopped(stop, origin)
                    }
                    (_, Some(failure)) => Err(failure),
                };
            }
        };
        if let Some(failure) = refused {
            return Err(failure);
        }
        drop(referee);
        written.map_err(super::commands::spool_failure)?;
        self.write::<G>(page, EVERYONE, origin)?;
        Ok(Some(Exit::Ok))
    }
}
