//! What every command that reads a record shares: the record loaded and
//! parsed ([`Ctx`]), the dispatch to its game ([`RecordCommand`]), the
//! JSON envelope and failures as `--format json` reports them, the
//! replay, the key files, and the one way a line is added to a record
//! file. The commands (`commands.rs`, `setup.rs`, `mail.rs`, ...) use
//! this module; it uses none of them.

use std::path::Path;

use serde::Serialize;

use super::args::Format;
use super::files::{self, Stamping};
use super::out;
use super::report::{Exit, Failure, Problem};
use crate::game::{wrap_words, Game, TEXT_WIDTH};
use crate::games::{self, GameVisitor, UnknownGame};
use crate::record::{self, Record, Source};
use crate::referee::{
    self, Command, ComposeError, ErrorKind, Keep, PlayedTurn, Referee, RefereeError,
};
use crate::wallet::Wallet;

/// Version of every JSON schema herald prints (docs/cli.md, section 4 "JSON output").
pub(super) const SCHEMA_VERSION: u32 = 1;

/// What a command needs of the record it reads.
pub(super) struct Ctx<'a> {
    pub(super) origin: String,
    pub(super) path: &'a Path,
    pub(super) source: &'a Source,
    pub(super) record: &'a Record<'a>,
    /// The stamp of the bytes read, for rewriting the file: taken by
    /// [`with_record`] (the writers' way in), not by readers nor by a
    /// writer's dry run ([`RecordCommand::stamping`]), which rewrite nothing.
    pub(super) stamp: Option<files::Stamp>,
    /// Whether the record was read from the file (or standard input)
    /// `path` names, not made in memory (a new record, or one with a
    /// new key's tags joined): only a record file is written on in
    /// place.
    pub(super) read: bool,
}

impl Ctx<'_> {
    /// Whether the record is a record file (or standard input), read
    /// from `path`, that a writer writes on in place: not a message, nor
    /// a record made in memory.
    pub(super) fn record_file(&self) -> bool {
        self.read && !self.source.from_message()
    }

    pub(super) fn problem(&self, e: &RefereeError) -> Failure {
        Failure::invalid(Problem::from_referee(e, self.source), &self.origin)
    }

    /// The record as the commands printed with it name it.
    pub(super) fn named(&self) -> Named<'_> {
        Named {
            origin: &self.origin,
            answer: if self.source.from_message() {
                Answer::ByReply
            } else {
                Answer::InPlace
            },
        }
    }
}

/// A record as the commands a reader prints name it: where it was read,
/// and how a player writes the next step on it.
#[derive(Clone, Copy)]
pub(super) struct Named<'a> {
    pub(super) origin: &'a str,
    pub(super) answer: Answer,
}

impl<'a> Named<'a> {
    /// A record file (or standard input), written on in place.
    pub(super) fn file(origin: &'a str) -> Self {
        Named {
            origin,
            answer: Answer::InPlace,
        }
    }
}

/// How the next step is written on a record read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    /// A record file: the writers rewrite it.
    InPlace,
    /// An email message: herald never rewrites one; the writers answer it
    /// with a reply (`--reply -o reply.eml`).
    ByReply,
}

/// A command that works on a record of any game.
pub(super) trait RecordCommand {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure>;

    /// Whether a writer's way in ([`with_record`]) stamps the bytes it
    /// reads, to check before rewriting the file: yes, but for a dry run,
    /// which rewrites nothing (the whole file hashed for nobody).
    fn stamping(&self) -> Stamping {
        Stamping::Stamp
    }
}

struct Visit<'a, C> {
    ctx: &'a Ctx<'a>,
    command: C,
}

impl<C: RecordCommand> GameVisitor for Visit<'_, C> {
    type Output = Result<Exit, Failure>;
    fn visit<G: Game>(self) -> Self::Output {
        self.command.run::<G>(self.ctx)
    }
}

/// Run `visitor` for the game `record`'s `Game` tag names. The one place
/// a record's game is looked up: a missing or repeated tag, or a game
/// herald does not play, is a record error at the `Game` tag (exit 1),
/// the same for every command that reads a record.
pub(super) fn dispatch_record<V: GameVisitor>(
    record: &Record<'_>,
    visitor: V,
) -> Result<V::Output, RefereeError> {
    let id = referee::game_tag(record)?;
    games::dispatch(id, visitor).map_err(|e| {
        let tag = record.tag("Game").map(|t| t.value_span);
        RefereeError::record(tag, e.to_string())
    })
}

/// A game named on the command line that herald does not play: a usage
/// error (exit 2) that lists the games.
pub(super) fn unknown_game_argument(e: &UnknownGame) -> Failure {
    Failure::usage(e.to_string())
}

/// Run a command that may rewrite the record file at `path` (it gets the
/// stamp of the bytes read).
pub(super) fn with_record<C: RecordCommand>(
    path: &Path,
    format: Format,
    command: C,
) -> Result<Exit, Failure> {
    let stamping = command.stamping();
    with_loaded(path, None, format, command, stamping)
}

/// Run a reader on the record of message `message` of a mailbox, or the
/// newest record in the input when it is `None`.
pub(super) fn with_record_in<C: RecordCommand>(
    path: &Path,
    message: Option<usize>,
    format: Format,
    command: C,
) -> Result<Exit, Failure> {
    with_loaded(path, message, format, command, Stamping::Skip)
}

fn with_loaded<C: RecordCommand>(
    path: &Path,
    message: Option<usize>,
    format: Format,
    command: C,
    stamping: Stamping,
) -> Result<Exit, Failure> {
    // A game id names the inbox's copy: the file a writer rewrites too.
    let path = match files::record_file(path) {
        Ok(path) => path,
        Err(failure) => return reported(Err(failure), format),
    };
    let loaded = files::load(&path, message, stamping);
    reported(with_source(&path, loaded, command), format)
}

/// Run a reader on the newest record in `bytes`, read from `path`.
pub(super) fn with_bytes<C: RecordCommand>(
    path: &Path,
    bytes: &[u8],
    format: Format,
    command: C,
) -> Result<Exit, Failure> {
    let loaded = files::load_bytes(path, bytes).map(|(source, origin)| (source, origin, None));
    reported(with_source(path, loaded, command), format)
}

/// Run `command` on the record loaded from `path` (its source, how to
/// name it, the stamp of the bytes read).
fn with_source<C: RecordCommand>(
    path: &Path,
    loaded: Result<(Source, String, Option<files::Stamp>), Failure>,
    command: C,
) -> Result<Exit, Failure> {
    let (source, origin, stamp) = loaded?;
    let record = record::parse(&source)
        .map_err(|e| Failure::invalid(Problem::from_parse(&e, &source), &origin))?;
    let ctx = Ctx {
        origin,
        path,
        source: &source,
        record: &record,
        stamp,
        read: true,
    };
    dispatch_record(&record, Visit { ctx: &ctx, command }).unwrap_or_else(|e| Err(ctx.problem(&e)))
}

/// A command's result, reported: with `--format json`, a failure is
/// printed as a JSON error object too.
pub(super) fn reported(result: Result<Exit, Failure>, format: Format) -> Result<Exit, Failure> {
    match result {
        Err(Failure::Invalid(problem, _)) if format == Format::Json => {
            print_json(&JsonFailure {
                schema: SCHEMA_VERSION,
                ok: false,
                error: problem.json(),
            })?;
            Ok(Exit::Invalid)
        }
        Err(Failure::Usage(message)) if format == Format::Json => {
            // A program reading the JSON learns of the failure too; the
            // message still goes to standard error, and the exit code is 2.
            print_json(&JsonFailure {
                schema: SCHEMA_VERSION,
                ok: false,
                error: super::report::JsonError::usage(&message),
            })?;
            Err(Failure::Usage(message))
        }
        other => other,
    }
}

#[derive(Serialize)]
struct JsonFailure {
    schema: u32,
    ok: bool,
    error: super::report::JsonError,
}

pub(super) fn print_json<T: Serialize>(value: &T) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
    out(&format!("{text}\n"))
}

/// Replay every turn; the referee after the last, or the first problem.
pub(super) fn replay_all<G: Game>(
    ctx: &Ctx<'_>,
    keep: Keep,
    mut each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Referee<G>, Failure> {
    let referee = referee::replay_keeping::<G>(ctx.record, keep.on(reader_today()), &mut each)
        .map_err(|e| ctx.problem(&e))?;
    referee.check_result().map_err(|e| ctx.problem(&e))?;
    Ok(referee)
}

pub(super) fn plain(text: &str) -> String {
    anstream::adapter::strip_str(text).to_string()
}

/// `text` (a summary, a note) as lines of at most 78 columns, the
/// continuations indented by `indent`, each line ended.
pub(super) fn fit(text: &str, indent: &str) -> String {
    let mut out = String::new();
    for line in wrap_words(text, TEXT_WIDTH, indent) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[derive(Serialize)]
pub(super) struct JsonPending {
    declared: u32,
    side: String,
    label: &'static str,
    settled_by: String,
}

pub(super) fn pending_json<G: Game>(referee: &Referee<G>) -> Vec<JsonPending> {
    referee
        .pending()
        .into_iter()
        .map(|p| JsonPending {
            declared: p.declared,
            side: p.side,
            label: p.label,
            settled_by: p.settled_by,
        })
        .collect()
}

pub(super) fn pending_text<G: Game>(referee: &Referee<G>) -> String {
    referee
        .pending()
        .map(|p| {
            fit(
                &format!(
                    "Pending: {} declared by {} on turn {}, settled by {}'s next reveal",
                    p.label, p.side, p.declared, p.settled_by
                ),
                "  ",
            )
        })
        .unwrap_or_default()
}

/// The hand's key file given (`--hand-key`), if one is, read: named after the path
/// given, so that a refusal of it names it; a file that cannot be read
/// as a key file is refused naming the option and what works.
pub(super) fn read_hand_key(path: Option<&Path>) -> Result<Option<Wallet>, Failure> {
    let Some(path) = path else {
        return Ok(None);
    };
    let name = super::sent::shell_word(&path.display().to_string());
    match read_wallet(path) {
        Ok(wallet) => Ok(Some(wallet.named(&name))),
        Err(Failure::Usage(why)) => Err(Failure::usage(format!(
            "--hand-key {name}: {why}; the hand's key is the key file of the side whose hand yours plays from, as its player keeps it (--hand-key HOLDER.key, beside --key YOUR.key)"
        ))),
        Err(other) => Err(other),
    }
}

/// Read the wallet in the key file at `path`.
pub(super) fn read_wallet(path: &Path) -> Result<Wallet, Failure> {
    read_wallet_stamped(path).map(|(wallet, _)| wallet)
}

/// [`read_wallet`], with the stamp of the bytes read: a writer that
/// rewrites the key file refuses to if another writer changed it since
/// (two answers at once to one message would fork the game).
pub(super) fn read_wallet_stamped(path: &Path) -> Result<(Wallet, files::Stamp), Failure> {
    if path.is_dir() {
        return Err(Failure::usage(format!(
            "{} is a directory, not a key file: --key names the file herald keygen, setup --side or new --key wrote for your side",
            path.display()
        )));
    }
    let bytes = files::read_bytes(path)?;
    let stamp = files::stamp(&bytes);
    warn_if_readable_by_others(path);
    let bad = |why: &str| {
        Failure::usage(format!(
            "{} is not a herald key file ({why})",
            path.display()
        ))
    };
    let text = std::str::from_utf8(&bytes).map_err(|_| bad("not text"))?;
    Wallet::parse(text)
        .map(|wallet| (wallet, stamp))
        .map_err(|e| bad(&e.0))
}

/// A key file that others can read (group or world read bits) gets a
/// warning with the command that mends it; it still works.
fn warn_if_readable_by_others(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(path) {
            if meta.permissions().mode() & 0o044 != 0 {
                super::report::eprint_warning(
                    &format!(
                        "{} can be read by other users of this machine: it holds your secrets",
                        path.display()
                    ),
                    &format!("make it yours alone: chmod 600 {}", path.display()),
                );
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// A line that could not be composed, as the command line reports it.
pub(super) fn compose_failure(e: ComposeError, key: Option<&Path>, ctx: &Ctx<'_>) -> Failure {
    compose_failure_in(e, key, &ctx.origin)
}

/// [`compose_failure`] on the record read from `origin`.
pub(super) fn compose_failure_in(e: ComposeError, key: Option<&Path>, origin: &str) -> Failure {
    match e {
        ComposeError::Wallet(m) => Failure::usage(format!("{} {m}", key_name(key))),
        ComposeError::Keys(m) => Failure::usage(m),
        // Another side's key of this game: that side's step is not due,
        // a choice the game does not allow now (exit 1).
        ComposeError::NotDue(m) => Failure::invalid(
            Problem::plain(ErrorKind::Illegal, format!("{} {m}", key_name(key))),
            origin,
        ),
        ComposeError::Closed(kind, m) => Failure::invalid(Problem::plain(kind, m), origin),
        ComposeError::Line(e) => Failure::invalid(Problem::plain(e.kind, e.message), origin),
        ComposeError::HandKey(m) => Failure::usage(format!("--hand-key {m}")),
        ComposeError::Stripped(s) => Failure::invalid(
            Problem::plain(
                ErrorKind::Record,
                s.message(&super::sent::key_arg(key)).to_string(),
            ),
            origin,
        ),
    }
}

/// The key file as an error names it: its path, else "the key file".
fn key_name(key: Option<&Path>) -> String {
    key.map_or_else(|| "the key file".into(), |p| p.display().to_string())
}

/// Write `line` after the record's last line (quoted as it is), and the
/// `result` into its Result tag when the game ended; atomically.
pub(super) fn append_line(ctx: &Ctx<'_>, line: &str, result: Option<&str>) -> Result<(), Failure> {
    append_line_with_tags(ctx, &[], line, result)
}

/// [`append_line`], with `tags` added to the header in the same write (a
/// side's key joining with its first line, protocol 3).
pub(super) fn append_line_with_tags(
    ctx: &Ctx<'_>,
    tags: &[(&str, &str)],
    line: &str,
    result: Option<&str>,
) -> Result<(), Failure> {
    refuse_message(ctx, move_answer())?;
    let text = record::Splice::new()
        .tags(tags)
        .line(line)
        .result(result)
        .in_place(ctx.source, ctx.record);
    files::rewrite(ctx.path, ctx.stamp.as_ref(), text.as_bytes())
}

/// Writers rewrite a record file as it stands; a record read out of an
/// email message is not such a file.
/// `answer`: the command that answers the message instead, without the
/// message and the reply (`herald setup --key my.key` becomes `herald
/// setup FILE --key my.key --reply -o reply.eml`).
pub(super) fn refuse_message(ctx: &Ctx<'_>, answer: Command) -> Result<(), Failure> {
    if ctx.source.from_message() {
        let message = ctx.path.display().to_string();
        return Err(Failure::usage(format!(
            "{} is an email message: herald does not rewrite messages; answer it with a reply ({}), or take the record out first (herald extract {message} -o game.pbem)",
            ctx.origin,
            answer.on(&message).reply_to("reply.eml"),
        )));
    }
    Ok(())
}

/// The answer to a message for `move`: `herald move FILE "YOUR TURN"
/// --key YOUR.key --reply -o reply.eml`.
pub(super) fn move_answer() -> Command {
    Command::moves().typed("YOUR TURN").key_file("YOUR.key")
}

/// Today (UTC) by this computer's clock, or the day the environment
/// variable `HERALD_TODAY` names (YYYY-MM-DD: for tests, and for a
/// computer whose clock cannot be set). The clock is read here alone: the
/// referee and the engines get the date as data.
pub(super) fn clock_today() -> Result<crate::record::Day, Failure> {
    if let Some(text) = std::env::var_os("HERALD_TODAY") {
        let text = text.to_string_lossy();
        return crate::record::Day::parse(&text).ok_or_else(|| {
            Failure::usage(format!(
                "HERALD_TODAY={text}: a date is a day that exists, written YYYY-MM-DD (as in HERALD_TODAY=2026-11-28)"
            ))
        });
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| Failure::usage("this computer's clock is before 1970: set it right"))?;
    Ok(crate::record::Day::from_unix(now.as_secs()))
}

/// Today by the clock ([`clock_today`]) for a reader, which judges by
/// it whether a claim is dated in the future (spec section 3.8); read
/// once a run. A clock that cannot be read is named in a warning, and
/// the dates are then not compared with today: a reader goes on, but
/// never with a clock silently dropped.
pub(super) fn reader_today() -> Option<crate::record::Day> {
    static TODAY: std::sync::OnceLock<Option<crate::record::Day>> = std::sync::OnceLock::new();
    *TODAY.get_or_init(|| match clock_today() {
        Ok(today) => Some(today),
        Err(e) => {
            super::report::eprint_warning(&e.text(), "the dates were not compared with today");
            None
        }
    })
}

/// The day a line is dated (in a game with a `Deadline` tag, spec
/// section 3.8): the day `--date` gives, or today by the clock.
#[derive(Clone, Copy, Debug)]
pub(super) enum LineDate {
    /// `--date DAY`: the line carries that day, or is refused.
    Given(crate::record::Day),
    /// Today by the clock.
    Clock(crate::record::Day),
}

impl LineDate {
    /// `--date` as given (a day that exists, at most a day after today by
    /// the clock: a line is dated the day it is written, and a day ahead
    /// would claim time that has not passed), else today.
    pub(super) fn read(given: Option<&str>) -> Result<LineDate, Failure> {
        let today = clock_today()?;
        let Some(text) = given else {
            return Ok(LineDate::Clock(today));
        };
        let day = crate::record::Day::parse(text).ok_or_else(|| {
            Failure::usage(format!(
                "--date {text}: a date is a day that exists, written YYYY-MM-DD (as in --date {today})"
            ))
        })?;
        if day.0 > today.0 + 1 {
            return Err(Failure::usage(format!(
                "--date {day} is after today ({today}) by this computer's clock: a line is dated the day it is written, never ahead (a forfeit's deadline counts by the dates, so a day ahead would claim time that has not passed); leave --date out, or set this computer's clock right"
            )));
        }
        Ok(LineDate::Given(day))
    }

    /// The day for a line that follows one dated `last`: the day given;
    /// by the clock, today or `last` if that is later (a line another
    /// player dated ahead is answered on its own day, never refused for
    /// this computer's clock).
    pub(super) fn after(self, last: Option<crate::record::Day>) -> crate::record::Day {
        match self {
            LineDate::Given(day) => day,
            LineDate::Clock(today) => last.map_or(today, |last| last.max(today)),
        }
    }
}
