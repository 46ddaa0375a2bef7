//! `herald check` of many records at once: several files, or a folder of
//! `.pbem` files. Each record is read and replayed on its own, on every
//! core (`std::thread::scope`); one verdict line each, in the order
//! given, and the exit code of the worst.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;

use super::args::Format;
use super::context::{dispatch_record, replay_all, Ctx, SCHEMA_VERSION};
use super::files::{self, Stamping};
use super::out;
use super::report::{Exit, Failure, JsonError, Problem};
use super::stream::{self, AfterCheck, Checked};
use crate::game::Game;
use crate::games::GameVisitor;
use crate::record::{self, Source};
use crate::referee::Keep;
use crate::referee::Referee;

/// Replays one record for `check --all` and `check` of many records:
/// its game's id and title, turns, result and side to move.
pub(super) struct Verdict<'a> {
    pub(super) ctx: &'a Ctx<'a>,
}

impl GameVisitor for Verdict<'_> {
    type Output = Result<([&'static str; 2], u32, String, Option<String>), Failure>;
    fn visit<G: Game>(self) -> Self::Output {
        let referee = replay_all::<G>(self.ctx, Keep::RULES, |_, _| {})?;
        Ok((
            [G::ID, G::TITLE],
            referee.turns(),
            referee.result(),
            referee.side_due().map(|s| s.name::<G>().to_owned()),
        ))
    }
}

/// `f` of every item, on as many threads as there are cores (at most
/// one per item), in the items' order.
pub(super) fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(k) else {
                            break mine;
                        };
                        mine.push((k, f(item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(k, _)| *k);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Whether `path` is a folder of records rather than one input: a folder
/// that is no Maildir (no `cur/` or `new/` in it).
pub(super) fn is_record_folder(path: &Path) -> bool {
    path.as_os_str() != "-"
        && path.is_dir()
        && !path.join("cur").is_dir()
        && !path.join("new").is_dir()
}

/// The inputs named: each file as it is, each folder of records as its
/// `.pbem` files in name order.
fn inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut all = Vec::new();
    for path in paths {
        if !is_record_folder(path) {
            all.push(path.clone());
            continue;
        }
        let entries = std::fs::read_dir(path)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "pbem"))
            .collect();
        if found.is_empty() {
            return Err(Failure::usage(format!(
                "{} holds no .pbem file (nor is it a Maildir folder with cur/ or new/)",
                path.display()
            )));
        }
        // Name order: the paths share the folder, so their bytes compare
        // as their names do (and far faster than `Path`'s components).
        found.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
        all.extend(found);
    }
    Ok(all)
}

/// One record's verdict.
#[derive(Serialize)]
struct JsonOne {
    schema: u32,
    /// The input, as herald names it in messages.
    file: String,
    ok: bool,
    game: Option<&'static str>,
    turns: Option<u32>,
    result: Option<String>,
    to_move: Option<String>,
    error: Option<JsonError>,
    /// The verdict line of the text output.
    #[serde(skip)]
    line: String,
    #[serde(skip)]
    exit: Exit,
}

/// The verdict on the record `path` holds (the newest, as `check` reads).
fn verdict(path: &Path) -> JsonOne {
    let origin = files::origin(path);
    let mut v = JsonOne {
        schema: SCHEMA_VERSION,
        file: origin.clone(),
        ok: false,
        game: None,
        turns: None,
        result: None,
        to_move: None,
        error: None,
        line: String::new(),
        exit: Exit::Ok,
    };
    let outcome = if path.as_os_str() != "-" && path.is_dir() {
        // A Maildir folder: its messages, read whole.
        let loaded = files::load(path, None, Stamping::Skip);
        whole_verdict(path, loaded.map(|(source, origin, _)| (source, origin)))
    } else {
        match stream::check(path, Summary) {
            Ok(Checked::Done(verdict)) => Ok((origin.clone(), verdict)),
            Ok(Checked::Whole(bytes)) => whole_verdict(path, files::load_bytes(path, &bytes)),
            Err(failure) => Err(failure),
        }
    };
    match outcome {
        Ok((origin, ([game, title], turns, result, to_move))) => {
            v.line = format!(
                "{origin}: OK: {title}, {turns} turn{}, result {result}",
                if turns == 1 { "" } else { "s" }
            );
            (v.ok, v.game, v.turns, v.result, v.to_move) =
                (true, Some(game), Some(turns), Some(result), to_move);
            v.file = origin;
        }
        Err(Failure::Invalid(problem, origin)) => {
            v.line = invalid_line(&problem, &origin);
            v.error = Some(problem.json());
            v.file = origin;
            v.exit = Exit::Invalid;
        }
        Err(Failure::Usage(message)) => {
            v.line = format!("{origin}: error: {message}");
            v.error = Some(JsonError::usage(&message));
            v.exit = Exit::Usage;
        }
    }
    v
}

/// What a record's verdict line says: its game's id and title, turns,
/// result and side to move.
type Said = ([&'static str; 2], u32, String, Option<String>);

/// The verdict of a record read a part at a time.
struct Summary;

impl AfterCheck for Summary {
    type Output = Said;

    fn after<G: Game>(
        self,
        _: super::context::Named<'_>,
        referee: &Referee<G>,
    ) -> Result<Said, Failure> {
        Ok((
            [G::ID, G::TITLE],
            referee.turns(),
            referee.result(),
            referee.side_due().map(|s| s.name::<G>().to_owned()),
        ))
    }
}

/// The verdict on the record `loaded` from `path`, read whole.
fn whole_verdict(
    path: &Path,
    loaded: Result<(Source, String), Failure>,
) -> Result<(String, Said), Failure> {
    let (source, origin) = loaded?;
    let record = record::parse(&source)
        .map_err(|e| Failure::invalid(Problem::from_parse(&e, &source), &origin))?;
    let ctx = Ctx {
        origin: origin.clone(),
        path,
        source: &source,
        record: &record,
        stamp: None,
        read: true,
    };
    let verdict =
        dispatch_record(&record, Verdict { ctx: &ctx }).unwrap_or_else(|e| Err(ctx.problem(&e)))?;
    Ok((origin, verdict))
}

/// `game.pbem:14:10: invalid: turn 12, Blue: Kc1-b1: ...`: where, and
/// the problem on one line.
fn invalid_line(problem: &Problem, origin: &str) -> String {
    let place = problem
        .position
        .as_ref()
        .map_or(String::new(), |p| format!(":{}:{}", p.line, p.column));
    let turn = match (problem.line_label(), &problem.side) {
        (Some(l), Some(s)) => format!("{l}, {s}: "),
        _ => String::new(),
    };
    format!("{origin}{place}: invalid: {turn}{}", problem.message)
}

/// `herald check FILE...` or `herald check FOLDER`: every record's
/// verdict, one line each (text) or one JSON object each (JSON Lines);
/// the exit code of the worst.
pub(super) fn check_many(paths: &[PathBuf], format: Format) -> Result<Exit, Failure> {
    let inputs = inputs(paths)?;
    let verdicts = parallel_map(&inputs, |p| verdict(p));
    let mut text = String::new();
    for v in &verdicts {
        match format {
            Format::Json => {
                let line = serde_json::to_string(v)
                    .map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
                text.push_str(&line);
            }
            Format::Text | Format::Svg => text.push_str(&v.line),
        }
        text.push('\n');
    }
    out(&text)?;
    let worst = verdicts.iter().map(|v| v.exit).max_by_key(|&e| e as u8);
    Ok(worst.unwrap_or(Exit::Ok))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_map_keeps_the_order_of_the_items() {
        let items: Vec<u64> = (0..200).collect();
        let squares = parallel_map(&items, |&n| n * n);
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
        assert_eq!(parallel_map(&[] as &[u64], |&n| n), Vec::<u64>::new());
    }
}
