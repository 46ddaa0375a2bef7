//! The command line's part in email: reading records out of messages and
//! mailboxes (`check --all`, `extract`) and writing a reply message
//! (`move --reply`). The decoding itself is the record layer's
//! (`record::mail`, `record::find`); this module reads and writes files.

use std::path::Path;

use serde::Serialize;

use super::args::{Format, Input};
use super::commands::{print_json, replay_all, side_to_move, Ctx, SCHEMA_VERSION};
use super::files;
use super::out;
use super::report::{Exit, Failure, JsonError, Problem};
use crate::game::Game;
use crate::games::{self, GameVisitor};
use crate::record::{self, Found};
use crate::referee::{self, result_text};

/// Writers rewrite a record file as it stands; a record read out of an
/// email message is not such a file.
pub(super) fn refuse_message(ctx: &Ctx<'_>) -> Result<(), Failure> {
    if ctx.source.from_message() {
        return Err(Failure::usage(format!(
            "{} is an email message: herald does not rewrite messages; write your turn as a reply (herald move {} \"...\" --key KEY --reply -o reply.eml), or take the record out first (herald extract {} -o game.pbem)",
            ctx.origin,
            ctx.path.display(),
            ctx.path.display()
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------- check --all

/// One record's verdict, for `check --all`.
#[derive(Serialize)]
struct JsonVerdict {
    message: Option<usize>,
    part: Option<String>,
    line: usize,
    ok: bool,
    game: Option<&'static str>,
    turns: Option<u32>,
    result: Option<String>,
    to_move: Option<String>,
    error: Option<JsonError>,
    /// The game's title, for the text output.
    #[serde(skip)]
    title: &'static str,
    /// The text form of the error, for the text output.
    #[serde(skip)]
    rendered: Option<String>,
}

#[derive(Serialize)]
struct JsonAll {
    schema: u32,
    ok: bool,
    records: Vec<JsonVerdict>,
    /// Which record (from 1, in `records`) a reader reads, if one.
    newest: Option<usize>,
    /// Why no record would be read, when they disagree.
    newest_error: Option<String>,
}

/// Replays one record for `check --all`.
struct Verdict<'a> {
    ctx: &'a Ctx<'a>,
}

impl GameVisitor for Verdict<'_> {
    type Output = Result<([&'static str; 2], u32, String, Option<String>), Failure>;
    fn visit<G: Game>(self) -> Self::Output {
        let referee = replay_all::<G>(self.ctx, |_, _| {})?;
        Ok((
            [G::ID, G::TITLE],
            referee.turns(),
            result_text::<G>(referee.outcome()),
            side_to_move(&referee),
        ))
    }
}

/// The verdict on one record found in `path`.
fn verdict(path: &Path, found: &Found) -> JsonVerdict {
    let origin = files::found_origin(path, found);
    let mut v = JsonVerdict {
        message: found.message,
        part: found.source.part().map(str::to_owned),
        line: found.source.position(0).line,
        ok: false,
        game: None,
        turns: None,
        result: None,
        to_move: None,
        error: None,
        title: "",
        rendered: None,
    };
    let outcome = (|| {
        let record = record::parse(&found.source)
            .map_err(|e| Failure::invalid(Problem::from_parse(&e, &found.source), &origin))?;
        let ctx = Ctx {
            origin: origin.clone(),
            path,
            source: &found.source,
            record: &record,
        };
        let id = referee::game_tag(&record).map_err(|e| ctx.problem(&e))?;
        games::dispatch(id, Verdict { ctx: &ctx })
            .unwrap_or_else(|| Err(Failure::usage(format!("unknown game `{id}`"))))
    })();
    match outcome {
        Ok(([game, title], turns, result, to_move)) => {
            v.ok = true;
            v.game = Some(game);
            v.title = title;
            v.turns = Some(turns);
            v.result = Some(result);
            v.to_move = to_move;
        }
        Err(Failure::Invalid(problem, origin)) => {
            v.error = Some(problem.json());
            v.rendered = Some(problem.render(&origin));
        }
        Err(Failure::Usage(message)) => {
            v.error = Some(JsonError::usage(&message));
            v.rendered = Some(message);
        }
    }
    v
}

/// `herald check --all`: every record in the input with its verdict, and
/// which one the readers read.
pub(super) fn check_all(input: &Input) -> Result<Exit, Failure> {
    let path = input.record.as_path();
    let all = files::load_all(path)?;
    let records: Vec<JsonVerdict> = all.iter().map(|f| verdict(path, f)).collect();
    let (newest, newest_error) = match record::newest(all.clone(), input.message) {
        Ok(found) => (
            all.iter()
                .position(|f| f.message == found.message && f.source.text() == found.source.text())
                .map(|k| k + 1),
            None,
        ),
        Err(e) => (None, Some(e.message)),
    };
    let ok = records.iter().all(|r| r.ok) && newest_error.is_none();
    match input.format {
        Format::Json => print_json(&JsonAll {
            schema: SCHEMA_VERSION,
            ok,
            records,
            newest,
            newest_error,
        })?,
        Format::Text => out(&all_text(path, &all, &records, newest, newest_error))?,
    }
    Ok(if ok { Exit::Ok } else { Exit::Invalid })
}

fn all_text(
    path: &Path,
    all: &[Found],
    records: &[JsonVerdict],
    newest: Option<usize>,
    newest_error: Option<String>,
) -> String {
    let mut text = String::new();
    for (k, (found, v)) in all.iter().zip(records).enumerate() {
        let place = format!("{}, {}", files::origin(path), found.place());
        let mark = if newest == Some(k + 1) {
            "  (newest: read)"
        } else {
            ""
        };
        match (&v.rendered, &v.turns, &v.result) {
            (None, Some(turns), Some(result)) => text.push_str(&format!(
                "{place}: OK: {}, {turns} turn{}, result {result}{mark}\n",
                v.title,
                if *turns == 1 { "" } else { "s" }
            )),
            (Some(rendered), _, _) => {
                text.push_str(&format!("{place}: invalid{mark}\n{rendered}\n"))
            }
            _ => {}
        }
    }
    let n = records.len();
    let good = records.iter().filter(|r| r.ok).count();
    text.push_str(&format!(
        "{n} record{} found, {good} valid\n",
        if n == 1 { "" } else { "s" }
    ));
    if let Some(e) = newest_error {
        text.push_str(&format!("No record is read by default: {e}\n"));
    }
    text
}
