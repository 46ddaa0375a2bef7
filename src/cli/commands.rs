//! The commands, generic over [`Game`]: each reads a record, drives the
//! referee and prints text or JSON.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::args::{Command, Format};
use super::files::{self, origin};
use super::keyfile::KeyFile;
use super::out;
use super::report::{Exit, Failure, Problem};
use crate::game::{self, action_text, DiagramStyle, Game, Outcome};
use crate::games::{self, GameVisitor, GAME_IDS};
use crate::record::{self, Record, Reveal, Source, Span, TurnText};
use crate::referee::{self, result_text, ErrorKind, PlayedTurn, Referee, RefereeError};

/// Version of every JSON schema herald prints (notation-spec.md, "JSON").
const SCHEMA_VERSION: u32 = 1;

pub fn run(command: Command) -> Result<Exit, Failure> {
    match command {
        Command::New {
            game,
            sides,
            options,
            output,
        } => dispatch_id(
            &game,
            New {
                sides,
                options,
                output,
            },
        ),
        Command::Move {
            record,
            turn,
            key,
            dry_run,
            expect_turn,
            format,
        } => {
            require_file(
                &record,
                "move rewrites the record file: name the file (the turn may come from -)",
            )?;
            let text = match turn.as_deref() {
                None | Some("-") => read_stdin_turn()?,
                Some(t) => t.to_owned(),
            };
            with_record(
                &record,
                format,
                Move {
                    text,
                    key,
                    dry_run,
                    expect_turn,
                    format,
                },
            )
        }
        Command::Check { input } => with_record(&input.record, input.format, Check(input.format)),
        Command::Show {
            input,
            turn,
            unicode,
        } => with_record(
            &input.record,
            input.format,
            Show {
                format: input.format,
                turn,
                style: DiagramStyle { unicode },
            },
        ),
        Command::Replay { input, unicode } => with_record(
            &input.record,
            input.format,
            Replay {
                format: input.format,
                style: DiagramStyle { unicode },
            },
        ),
        Command::Annotate { input, output } => {
            if let Some(o) = &output {
                if same_file(o, &input.record) {
                    return Err(Failure::usage(
                        "annotate never rewrites its input: choose another file for -o",
                    ));
                }
            }
            with_record(
                &input.record,
                input.format,
                Annotate {
                    format: input.format,
                    output,
                },
            )
        }
        Command::Legal { input, key } => with_record(
            &input.record,
            input.format,
            Legal {
                format: input.format,
                key,
            },
        ),
        Command::Fate { input } => with_record(&input.record, input.format, Fate(input.format)),
        Command::Keygen {
            side,
            record,
            output,
            print,
        } => {
            require_file(
                &record,
                "keygen adds the Commit tag to the record file: name the file",
            )?;
            with_record(
                &record,
                Format::Text,
                Keygen {
                    side,
                    output,
                    print,
                },
            )
        }
        Command::Completions { .. } | Command::Man { .. } => unreachable!("handled in cli::run"),
    }
}

/// Writers need a real file, not `-`.
fn require_file(path: &Path, why: &str) -> Result<(), Failure> {
    if path.as_os_str() == "-" {
        Err(Failure::usage(why))
    } else {
        Ok(())
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

fn read_stdin_turn() -> Result<String, Failure> {
    let bytes = files::read_bytes(Path::new("-"))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure::usage("the turn on standard input is not UTF-8 text"))?;
    Ok(text.trim().to_owned())
}

/// What a command needs of the record it reads.
struct Ctx<'a> {
    origin: String,
    path: &'a Path,
    source: &'a Source,
    record: &'a Record<'a>,
}

impl Ctx<'_> {
    fn problem(&self, e: &RefereeError) -> Failure {
        Failure::invalid(Problem::from_referee(e, self.source), &self.origin)
    }
}

/// A command that works on a record of any game.
trait RecordCommand {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure>;
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

fn unknown_game(id: &str) -> String {
    format!("unknown game `{id}`: herald plays {}", GAME_IDS.join(", "))
}

fn with_record<C: RecordCommand>(path: &Path, format: Format, command: C) -> Result<Exit, Failure> {
    let result = (|| {
        let source = files::load(path)?;
        let origin = origin(path);
        let record = record::parse(&source)
            .map_err(|e| Failure::invalid(Problem::from_parse(&e, &source), &origin))?;
        let ctx = Ctx {
            origin,
            path,
            source: &source,
            record: &record,
        };
        let id = referee::game_tag(&record).map_err(|e| ctx.problem(&e))?;
        let tag = record.tag("Game").map(|t| t.value_span);
        games::dispatch(id, Visit { ctx: &ctx, command })
            .unwrap_or_else(|| Err(ctx.problem(&RefereeError::record(tag, unknown_game(id)))))
    })();
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

fn print_json<T: Serialize>(value: &T) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
    out(&format!("{text}\n"))
}

/// Replay every turn; the referee after the last, or the first problem.
fn replay_all<G: Game>(
    ctx: &Ctx<'_>,
    mut each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Referee<G>, Failure> {
    let referee = referee::replay::<G>(ctx.record, &mut each).map_err(|e| ctx.problem(&e))?;
    referee.check_result().map_err(|e| ctx.problem(&e))?;
    Ok(referee)
}

fn plain(text: &str) -> String {
    anstream::adapter::strip_str(text).to_string()
}

fn side_to_move<G: Game>(referee: &Referee<G>) -> Option<String> {
    (!G::outcome(&referee.state).is_over()).then(|| G::to_move(&referee.state).name::<G>().into())
}

#[derive(Serialize)]
struct JsonPending {
    declared: u32,
    side: String,
    label: &'static str,
    settled_by: String,
}

fn pending_json<G: Game>(referee: &Referee<G>) -> Vec<JsonPending> {
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

fn pending_text<G: Game>(referee: &Referee<G>) -> String {
    referee
        .pending()
        .map(|p| {
            format!(
                "Pending: {} declared by {} on turn {}, settled by {}'s next reveal\n",
                p.label, p.side, p.declared, p.settled_by
            )
        })
        .unwrap_or_default()
}

// ---------------------------------------------------------------- check

struct Check(Format);

#[derive(Serialize)]
struct JsonCheck {
    schema: u32,
    ok: bool,
    game: &'static str,
    turns: u32,
    result: String,
    to_move: Option<String>,
    summary: String,
    pending: Vec<JsonPending>,
    position: String,
}

impl RecordCommand for Check {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let referee = replay_all::<G>(ctx, |_, _| {})?;
        let result = result_text::<G>(G::outcome(&referee.state));
        let summary = G::summary(&referee.state);
        match self.0 {
            Format::Json => print_json(&JsonCheck {
                schema: SCHEMA_VERSION,
                ok: true,
                game: G::ID,
                turns: referee.turns,
                result,
                to_move: side_to_move(&referee),
                summary,
                pending: pending_json(&referee),
                position: game::position_text::<G>(&referee.state),
            })?,
            Format::Text => out(&format!(
                "{}: OK: {}, {} turn{}, result {result}\n{summary}\n{}",
                ctx.origin,
                G::TITLE,
                referee.turns,
                if referee.turns == 1 { "" } else { "s" },
                pending_text(&referee)
            ))?,
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- show

struct Show {
    format: Format,
    turn: Option<u32>,
    style: DiagramStyle,
}

#[derive(Serialize)]
struct JsonShow {
    schema: u32,
    game: &'static str,
    turn: u32,
    result: String,
    to_move: Option<String>,
    summary: String,
    pending: Vec<JsonPending>,
    diagram: String,
    position: String,
}

impl RecordCommand for Show {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let total = ctx.record.turns.len() as u32;
        let upto = self.turn.unwrap_or(total);
        if upto > total {
            return Err(Failure::usage(format!(
                "{} has {total} turn{}: there is no turn {upto}",
                ctx.origin,
                if total == 1 { "" } else { "s" }
            )));
        }
        let mut referee = Referee::<G>::start(ctx.record).map_err(|e| ctx.problem(&e))?;
        for turn in &ctx.record.turns[..upto as usize] {
            referee.play(turn).map_err(|e| ctx.problem(&e))?;
        }
        if upto == total {
            referee.check_result().map_err(|e| ctx.problem(&e))?;
        }
        let diagram = G::diagram(&referee.state, self.style);
        let summary = G::summary(&referee.state);
        match self.format {
            Format::Json => print_json(&JsonShow {
                schema: SCHEMA_VERSION,
                game: G::ID,
                turn: upto,
                result: result_text::<G>(G::outcome(&referee.state)),
                to_move: side_to_move(&referee),
                summary,
                pending: pending_json(&referee),
                diagram: plain(&diagram),
                position: game::position_text::<G>(&referee.state),
            })?,
            // The diagram names the side to move (or the result) and any
            // pending chance event itself.
            Format::Text => out(&format!("{}, after turn {upto}\n\n{diagram}", G::TITLE))?,
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- replay

struct Replay {
    format: Format,
    style: DiagramStyle,
}

#[derive(Serialize)]
struct JsonPosition {
    turn: u32,
    side: Option<String>,
    actions: Vec<String>,
    chance: Vec<String>,
    summary: String,
    diagram: String,
}

#[derive(Serialize)]
struct JsonReplay {
    schema: u32,
    game: &'static str,
    result: String,
    positions: Vec<JsonPosition>,
}

fn turn_line<G: Game>(played: &PlayedTurn<G>) -> String {
    let mut items: Vec<String> = played
        .chance
        .iter()
        .map(|c| format!("{}={}", c.label, c.text))
        .collect();
    items.extend(played.actions.iter().map(action_text::<G>));
    if played.resign {
        items.push("resign".into());
    }
    if items.is_empty() {
        items.push("pass".into());
    }
    items.join(", ")
}

impl RecordCommand for Replay {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let start = Referee::<G>::start(ctx.record).map_err(|e| ctx.problem(&e))?;
        let style = self.style;
        let mut positions = vec![JsonPosition {
            turn: 0,
            side: None,
            actions: Vec::new(),
            chance: Vec::new(),
            summary: G::summary(&start.state),
            diagram: G::diagram(&start.state, style),
        }];
        let referee = replay_all::<G>(ctx, |played, referee| {
            positions.push(JsonPosition {
                turn: played.number,
                side: Some(played.side.name::<G>().into()),
                actions: played.actions.iter().map(action_text::<G>).collect(),
                chance: played
                    .chance
                    .iter()
                    .map(|c| format!("{}={}", c.label, c.text))
                    .collect(),
                summary: G::summary(&referee.state),
                diagram: G::diagram(&referee.state, style),
            });
        })?;
        match self.format {
            Format::Json => {
                for p in &mut positions {
                    p.diagram = plain(&p.diagram);
                }
                print_json(&JsonReplay {
                    schema: SCHEMA_VERSION,
                    game: G::ID,
                    result: result_text::<G>(G::outcome(&referee.state)),
                    positions,
                })?
            }
            Format::Text => {
                let mut text = String::new();
                for p in &positions {
                    match &p.side {
                        None => text.push_str(&format!("== Start: {}\n\n", G::TITLE)),
                        Some(side) => {
                            let mut items = p.chance.clone();
                            items.extend(p.actions.iter().cloned());
                            let body = if items.is_empty() {
                                "pass".into()
                            } else {
                                items.join(", ")
                            };
                            text.push_str(&format!("== {}. {side}: {body}\n\n", p.turn));
                        }
                    }
                    text.push_str(&p.diagram);
                    text.push('\n');
                }
                out(&text)?
            }
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- annotate

struct Annotate {
    format: Format,
    output: Option<PathBuf>,
}

#[derive(Serialize)]
struct JsonAnnotated {
    turn: u32,
    side: String,
    line: String,
    comment: String,
}

#[derive(Serialize)]
struct JsonAnnotate {
    schema: u32,
    game: &'static str,
    result: String,
    turns: Vec<JsonAnnotated>,
}

/// The canonical header lines of a checked record, with `result`.
fn canonical_header<G: Game>(referee: &Referee<G>, result: &str, out: &mut String) {
    let tags = referee.header.tags.iter().map(|(n, v)| {
        if n == "Result" {
            (n.as_str(), result)
        } else {
            (n.as_str(), v.as_str())
        }
    });
    record::write_header(tags, out);
}

impl RecordCommand for Annotate {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let mut turns = Vec::new();
        let mut texts = Vec::new();
        let mut reveals = ctx.record.turns.iter().map(|t| t.reveal.map(|r| r.value));
        let referee = replay_all::<G>(ctx, |played, referee| {
            let comment = G::turn_comment(&played.before, &referee.state);
            let text = TurnText {
                comment: (!comment.is_empty()).then(|| comment.clone()),
                ..played.text(reveals.next().flatten())
            };
            turns.push(JsonAnnotated {
                turn: played.number,
                side: text.side.clone(),
                line: turn_line(played),
                comment,
            });
            texts.push(text);
        })?;
        let result = result_text::<G>(G::outcome(&referee.state));
        if self.format == Format::Json {
            print_json(&JsonAnnotate {
                schema: SCHEMA_VERSION,
                game: G::ID,
                result,
                turns,
            })?;
            return Ok(Exit::Ok);
        }
        let mut text = String::new();
        canonical_header(&referee, &result, &mut text);
        text.push('\n');
        for t in &texts {
            record::write_turn(t, &mut text);
        }
        match &self.output {
            Some(path) => {
                files::write_atomic(path, text.as_bytes())?;
                out(&format!(
                    "wrote the annotated record of {} to {}\n",
                    ctx.origin,
                    path.display()
                ))?;
            }
            None => out(&text)?,
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- legal

struct Legal {
    format: Format,
    key: Option<PathBuf>,
}

#[derive(Serialize)]
struct JsonAction {
    action: String,
    cost: Option<u32>,
}

#[derive(Serialize)]
struct JsonLegal {
    schema: u32,
    game: &'static str,
    turn: u32,
    to_move: Option<String>,
    note: Option<String>,
    actions: Vec<JsonAction>,
}

impl RecordCommand for Legal {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let referee = replay_all::<G>(ctx, |_, _| {})?;
        let mut note = None;
        let mut actions = Vec::new();
        if G::outcome(&referee.state).is_over() {
            note = Some(format!("the game is over: {}", G::summary(&referee.state)));
        } else {
            let side = G::to_move(&referee.state);
            let preview = match &self.key {
                Some(path) => {
                    let reveal = mover_reveal(&referee, side, path)?;
                    referee
                        .start_turn(Some(reveal))
                        .and_then(|(state, events)| {
                            if referee::line_only_passes::<G>(&state, side) {
                                // The settled event ended the game or put
                                // the mover out: their line only passes.
                                Err(game::Illegal::new(format!(
                                    "{} settles with this turn's reveal and {}: {} may only pass",
                                    events.first().map_or("the pending event", |e| e.label),
                                    if G::outcome(&state).is_over() {
                                        format!("ends the game ({})", G::summary(&state))
                                    } else {
                                        format!("puts {} out", side.name::<G>())
                                    },
                                    side.name::<G>()
                                )))
                            } else {
                                Ok(state)
                            }
                        })
                }
                None => {
                    if let Some(p) = referee.pending() {
                        note = Some(format!(
                            "{} by {} settles with this turn's reveal, before the actions: give --key with {}'s key to list them",
                            p.label, p.side, p.settled_by
                        ));
                    }
                    referee.preview()
                }
            };
            match preview {
                Ok(state) => {
                    let mut list = Vec::new();
                    G::legal_actions(&state, &mut list);
                    actions = list
                        .iter()
                        .map(|a| JsonAction {
                            action: action_text::<G>(a),
                            cost: G::action_cost(&state, a),
                        })
                        .collect();
                }
                Err(e) => note = Some(note.unwrap_or(e.reason)),
            }
        }
        let to_move = side_to_move(&referee);
        match self.format {
            Format::Json => print_json(&JsonLegal {
                schema: SCHEMA_VERSION,
                game: G::ID,
                turn: referee.next_turn(),
                to_move,
                note,
                actions,
            })?,
            Format::Text => {
                let mut text = String::new();
                if let Some(side) = &to_move {
                    text.push_str(&format!(
                        "Turn {}, {side}: {} legal action{}\n",
                        referee.next_turn(),
                        actions.len(),
                        if actions.len() == 1 { "" } else { "s" }
                    ));
                }
                if let Some(n) = &note {
                    text.push_str(&format!("Note: {n}\n"));
                }
                for a in &actions {
                    match a.cost {
                        Some(c) => text.push_str(&format!("  {:<16} cost {c}\n", a.action)),
                        None => text.push_str(&format!("  {}\n", a.action)),
                    }
                }
                out(&text)?;
            }
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- fate

struct Fate(Format);

#[derive(Serialize)]
struct JsonEvent {
    turn: u32,
    declared: Option<u32>,
    label: &'static str,
    reveals_of: Vec<String>,
    value: String,
}

#[derive(Serialize)]
struct JsonFate {
    schema: u32,
    game: &'static str,
    events: Vec<JsonEvent>,
    pending: Vec<JsonPending>,
}

impl RecordCommand for Fate {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let referee = replay_all::<G>(ctx, |_, _| {})?;
        let events: Vec<JsonEvent> = referee
            .chance
            .iter()
            .map(|e| JsonEvent {
                turn: e.turn,
                declared: e.declared,
                label: e.label,
                reveals_of: e.reveals_of.clone(),
                value: e.text.clone(),
            })
            .collect();
        match self.0 {
            Format::Json => print_json(&JsonFate {
                schema: SCHEMA_VERSION,
                game: G::ID,
                events,
                pending: pending_json(&referee),
            })?,
            Format::Text => {
                let mut text = String::new();
                if events.is_empty() {
                    text.push_str("No chance events in this record.\n");
                }
                for e in &events {
                    let when = match e.declared {
                        Some(d) => format!("turn {} (declared on turn {d})", e.turn),
                        None => format!("turn {}", e.turn),
                    };
                    text.push_str(&format!(
                        "{when}: {}={}  from the reveals of {}\n",
                        e.label,
                        e.value,
                        e.reveals_of.join(", ")
                    ));
                }
                text.push_str(&pending_text(&referee));
                out(&text)?;
            }
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- move

/// The reveal for `side`'s next line, from its key file, after checking
/// that the key is that side's in this very game.
fn mover_reveal<G: Game>(
    referee: &Referee<G>,
    side: game::Side,
    path: &Path,
) -> Result<crate::fairness::Hash, Failure> {
    let side_name = side.name::<G>();
    let key = KeyFile::read(path)?;
    if !key.game.eq_ignore_ascii_case(G::ID) || !key.side.eq_ignore_ascii_case(side_name) {
        return Err(Failure::usage(format!(
            "{} is a key for {} in {}, but it is {side_name}'s turn in {}",
            path.display(),
            key.side,
            key.game,
            G::ID
        )));
    }
    if key.chain != referee.header.chain_id {
        return Err(Failure::usage(format!(
            "{} was made for another game (or the header changed since): a key serves one game only",
            path.display()
        )));
    }
    let index = referee.header.sides.iter().position(|&s| s == side);
    if index.and_then(|i| referee.header.commits[i]) != Some(key.commit) {
        return Err(Failure::usage(format!(
            "{} does not belong to this game: its commitment is not {side_name}Commit",
            path.display()
        )));
    }
    let j = referee.lines_of(side) + 1;
    key.reveal(j).ok_or_else(|| {
        Failure::usage(format!(
            "{side_name}'s hash chain is used up after {} turns",
            j - 1
        ))
    })
}

struct Move {
    text: String,
    key: Option<PathBuf>,
    dry_run: bool,
    expect_turn: Option<u32>,
    format: Format,
}

#[derive(Serialize)]
struct JsonMove {
    schema: u32,
    ok: bool,
    turn: u32,
    side: String,
    line: String,
    result: String,
    to_move: Option<String>,
    summary: String,
    written: bool,
}

/// Line ending used by a text: CRLF if it has any.
fn newline(text: &str) -> &'static str {
    if text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// Insert `lines` (each ending in `\n`) after the original line holding
/// clean offset `anchor`, prefixed with that line's quoting.
fn insert_lines(source: &Source, text: &mut String, anchor: usize, lines: &str, blank_first: bool) {
    let (at, prefix) = source.original_line_end(anchor);
    let nl = newline(source.original());
    let mut insert = String::new();
    if blank_first {
        insert.push_str(nl);
        insert.push_str(prefix.trim_end());
    }
    for line in lines.lines() {
        insert.push_str(nl);
        insert.push_str(prefix);
        insert.push_str(line);
    }
    text.insert_str(at, &insert);
    if !text.ends_with('\n') {
        text.push_str(nl);
    }
}

/// The actions of a turn given to `move`, without a `12. Blue:` or
/// `Blue:` in front (as the turn reads in the record) when that names this
/// turn; a prefix that names another turn or side is refused.
fn strip_turn_prefix<G: Game>(
    text: &str,
    number: u32,
    side: game::Side,
    stale: impl Fn(String) -> Failure,
) -> Result<&str, Failure> {
    let Some((given_number, name, actions)) = record::turn_prefix(text) else {
        return Ok(text);
    };
    let Some(named) = game::side_by_name::<G>(name) else {
        return if given_number.is_some() {
            Err(Failure::usage(format!(
                "`{name}` is not a side of {}: give the turn as `{number}. {}: <actions>` or just the actions",
                G::ID,
                side.name::<G>()
            )))
        } else {
            Ok(text)
        };
    };
    let number_matches = given_number.is_none_or(|n| n.parse::<u32>().ok() == Some(number));
    if named != side || !number_matches {
        // Like --expect-turn: the player wrote this turn against another
        // copy of the record.
        return Err(stale(format!(
            "this turn is written as `{}{}:`, but the record is at turn {number}, {}'s: is this the latest copy of the game?",
            given_number.map_or(String::new(), |n| format!("{n}. ")),
            named.name::<G>(),
            side.name::<G>()
        )));
    }
    Ok(actions)
}

impl RecordCommand for Move {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let mut referee = replay_all::<G>(ctx, |_, _| {})?;
        let number = referee.next_turn();
        if let Some(expected) = self.expect_turn {
            if expected != number {
                let problem = Problem::plain(
                    ErrorKind::Record,
                    format!(
                        "the record is at turn {number}, not {expected}: is this the latest copy of the game?"
                    ),
                );
                return Err(Failure::invalid(problem, &ctx.origin));
            }
        }
        if let Outcome::Won(_) | Outcome::Draw = G::outcome(&referee.state) {
            let problem = Problem::plain(
                ErrorKind::Illegal,
                format!("the game is over: {}", G::summary(&referee.state)),
            );
            return Err(Failure::invalid(problem, &ctx.origin));
        }
        if number as usize > record::MAX_TURNS {
            // herald could not read the record back.
            let problem = Problem::plain(
                ErrorKind::Record,
                format!(
                    "the record already holds {} turns, the most a record may hold: the game cannot go on in this record",
                    record::MAX_TURNS
                ),
            );
            return Err(Failure::invalid(problem, &ctx.origin));
        }
        let side = G::to_move(&referee.state);
        let side_name = side.name::<G>();
        let actions = strip_turn_prefix::<G>(&self.text, number, side, |message| {
            Failure::invalid(Problem::plain(ErrorKind::Record, message), &ctx.origin)
        })?;
        // Read the turn as the line it will become.
        let synthetic = format!("[Game \"{}\"]\n{number}. {side_name}: {actions}\n", G::ID);
        let turn_source = Source::new(synthetic.as_bytes())
            .map_err(|e| Failure::invalid(Problem::from_input(&e), "<turn>"))?;
        let turn_problem = |p: Problem| {
            let mut p = p;
            if let Some(pos) = &mut p.position {
                pos.line = 1;
            }
            Failure::invalid(p, "<turn>")
        };
        let turn_record = record::parse(&turn_source)
            .map_err(|e| turn_problem(Problem::from_parse(&e, &turn_source)))?;
        let Some(turn) = turn_record.turns.first() else {
            return Err(Failure::usage(
                "no turn given: write the actions, `pass` or `resign`",
            ));
        };
        let text = turn_source.text();
        if !text[turn.lines_end.min(text.len())..].trim().is_empty() {
            return Err(Failure::usage(
                "text after the turn: write the whole turn on one line, its actions separated by commas (a blank line ends a turn)",
            ));
        }
        if turn_record.turns.len() > 1
            || turn.reveal.is_some()
            || turn.actions().count() != turn.items.len()
        {
            return Err(Failure::usage(
                "write only your actions (or pass, or resign): herald adds the turn number, reveals and chance values itself",
            ));
        }
        let mut turn = turn.clone();
        match (&self.key, referee.latest_reveal(side)) {
            (Some(path), Some(_)) => {
                let value = mover_reveal(&referee, side, path)?;
                turn.reveal = Some(Reveal {
                    value,
                    span: Span::new(turn.span.end, turn.span.end),
                });
            }
            // A forfeit, written for a side that stopped answering.
            (None, Some(_)) if turn.is_bare_resign() => {}
            (None, Some(_)) => {
                return Err(Failure::usage(format!(
                    "{side_name} has a Commit tag, so each {side_name} line needs a reveal: add --key with {side_name}'s key file"
                )))
            }
            (Some(_), None) => {
                return Err(Failure::usage(format!(
                    "{side_name} has no Commit tag, so its lines carry no reveal: drop --key, or add the tag with herald keygen before turn 1"
                )))
            }
            (None, None) => {}
        }
        let played = referee
            .play(&turn)
            .map_err(|e| turn_problem(Problem::from_referee(&e, &turn_source)))?;
        let mut line = String::new();
        record::write_turn(&played.text(turn.reveal.map(|r| r.value)), &mut line);
        let outcome = G::outcome(&referee.state);
        let result = result_text::<G>(outcome);
        let written = !self.dry_run;
        if written {
            let mut text = ctx.source.original().to_owned();
            match ctx.record.turns.last() {
                Some(last) => insert_lines(ctx.source, &mut text, last.lines_end, &line, false),
                None => {
                    let anchor = ctx.record.tags.last().map_or(0, |t| t.span.end - 1);
                    insert_lines(ctx.source, &mut text, anchor, &line, true);
                }
            }
            if outcome.is_over() {
                if let Some(tag) = ctx.record.tag("Result") {
                    let a = ctx.source.original_offset(tag.value_span.start);
                    let b = ctx.source.original_offset(tag.value_span.end);
                    text.replace_range(a..b, &result);
                }
            }
            files::write_atomic(ctx.path, text.as_bytes())?;
        }
        let summary = G::summary(&referee.state);
        match self.format {
            Format::Json => print_json(&JsonMove {
                schema: SCHEMA_VERSION,
                ok: true,
                turn: number,
                side: side_name.into(),
                line: line.trim_end().into(),
                result,
                to_move: side_to_move(&referee),
                summary,
                written,
            })?,
            Format::Text => out(&format!(
                "{line}{summary}\n{}{}",
                pending_text(&referee),
                if written {
                    format!("wrote turn {number} to {}\n", ctx.origin)
                } else {
                    "dry run: nothing written\n".into()
                }
            ))?,
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- keygen

struct Keygen {
    side: String,
    output: PathBuf,
    print: bool,
}

impl RecordCommand for Keygen {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let referee = Referee::<G>::start(ctx.record).map_err(|e| ctx.problem(&e))?;
        let Some(side) =
            game::side_by_name::<G>(&self.side).filter(|s| referee.header.sides.contains(s))
        else {
            let names: Vec<&str> = referee.header.sides.iter().map(|s| s.name::<G>()).collect();
            return Err(Failure::usage(format!(
                "`{}` is not a side of this game: the sides are {}",
                self.side,
                names.join(", ")
            )));
        };
        let name = side.name::<G>();
        if referee.latest_reveal(side).is_some() {
            return Err(Failure::usage(format!(
                "{name} has a Commit tag already: one key per side and game"
            )));
        }
        if !ctx.record.turns.is_empty() {
            return Err(Failure::usage(
                "commitments are added before turn 1: this game has started",
            ));
        }
        let key = KeyFile::generate(G::ID, name, referee.header.chain_id)?;
        files::write_new_private(&self.output, key.to_text().as_bytes())?;
        let tag_line = format!("[{name}Commit \"{}\"]", hex::encode(key.commit));
        if self.print {
            out(&format!(
                "wrote {} (private: keep it, never send it)\nadd this tag to the record's header before turn 1:\n{tag_line}\n",
                self.output.display()
            ))?;
        } else {
            let mut text = ctx.source.original().to_owned();
            // After the last tag before Result (Result stays last).
            let anchor = ctx
                .record
                .tags
                .iter()
                .rev()
                .find(|t| !t.name.eq_ignore_ascii_case("Result"))
                .or(ctx.record.tags.last())
                .map_or(0, |t| t.span.end - 1);
            insert_lines(ctx.source, &mut text, anchor, &tag_line, false);
            files::write_atomic(ctx.path, text.as_bytes()).map_err(|e| {
                Failure::usage(format!(
                    "wrote {} but could not add the tag to {}: {}; add it by hand: {tag_line}",
                    self.output.display(),
                    ctx.origin,
                    match e {
                        Failure::Usage(m) => m,
                        Failure::Invalid(p, _) => p.message,
                    }
                ))
            })?;
            out(&format!(
                "wrote {} (private: keep it, never send it)\nadded {tag_line} to {}\n",
                self.output.display(),
                ctx.origin
            ))?;
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- new

struct New {
    sides: Vec<String>,
    options: Vec<String>,
    output: Option<PathBuf>,
}

trait IdCommand {
    fn run<G: Game>(self) -> Result<Exit, Failure>;
}

struct IdVisit<C>(C);

impl<C: IdCommand> GameVisitor for IdVisit<C> {
    type Output = Result<Exit, Failure>;
    fn visit<G: Game>(self) -> Self::Output {
        self.0.run::<G>()
    }
}

fn dispatch_id<C: IdCommand>(id: &str, command: C) -> Result<Exit, Failure> {
    games::dispatch(id, IdVisit(command)).unwrap_or_else(|| Err(Failure::usage(unknown_game(id))))
}

impl IdCommand for New {
    fn run<G: Game>(self) -> Result<Exit, Failure> {
        let mut tags: Vec<(String, String)> = vec![("Game".into(), G::ID.into())];
        for spec in &self.sides {
            let Some((name, contact)) = spec.split_once('=').filter(|(_, c)| !c.trim().is_empty())
            else {
                return Err(Failure::usage(format!(
                    "--side takes SIDE=CONTACT, how to reach that player (e.g. Blue=ann@example.org), not `{spec}`"
                )));
            };
            let Some(side) = game::side_by_name::<G>(name.trim()) else {
                return Err(Failure::usage(format!(
                    "`{}` is not a side of {}: the sides are {}",
                    name.trim(),
                    G::ID,
                    G::SIDES.join(", ")
                )));
            };
            let canonical = side.name::<G>();
            if tags.iter().any(|(n, _)| n == canonical) {
                return Err(Failure::usage(format!("--side {canonical} is given twice")));
            }
            tags.push((canonical.into(), contact.trim().into()));
        }
        let mut given: Vec<(&'static str, String)> = Vec::new();
        for spec in &self.options {
            let Some((name, value)) = spec.split_once('=') else {
                return Err(Failure::usage(format!(
                    "--option takes NAME=VALUE, not `{spec}`"
                )));
            };
            let Some(opt) = G::OPTIONS
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
            else {
                let known: Vec<&str> = G::OPTIONS.iter().map(|o| o.name).collect();
                return Err(Failure::usage(format!(
                    "{} has no option `{}`{}",
                    G::ID,
                    name.trim(),
                    if known.is_empty() {
                        String::new()
                    } else {
                        format!(": its options are {}", known.join(", "))
                    }
                )));
            };
            if given.iter().any(|(n, _)| *n == opt.name) {
                return Err(Failure::usage(format!(
                    "--option {} is given twice: give it once (several names go in one value, separated by spaces: {}=\"a b\")",
                    opt.name, opt.name
                )));
            }
            given.push((opt.name, value.trim().into()));
        }
        for opt in G::OPTIONS {
            let value = given
                .iter()
                .find(|(n, _)| *n == opt.name)
                .map_or_else(|| opt.default.to_owned(), |(_, v)| v.clone());
            if !value.is_empty() {
                tags.push((opt.name.into(), value));
            }
        }
        tags.push(("Result".into(), "*".into()));
        let mut text = String::new();
        record::write_header(
            tags.iter().map(|(n, v)| (n.as_str(), v.as_str())),
            &mut text,
        );
        // Check the header as any reader will.
        let source = Source::new(text.as_bytes()).map_err(|e| Failure::usage(e.message))?;
        let parsed = record::parse(&source).map_err(|e| Failure::usage(e.message))?;
        Referee::<G>::start(&parsed).map_err(|e| Failure::usage(e.message))?;
        match &self.output {
            Some(path) => {
                files::write_new(path, text.as_bytes())?;
                out(&format!(
                    "wrote a new {} record to {}\n",
                    G::TITLE,
                    path.display()
                ))?;
            }
            None => out(&text)?,
        }
        Ok(Exit::Ok)
    }
}
