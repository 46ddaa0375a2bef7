//! The commands, generic over [`Game`]: each reads a record, drives the
//! referee and prints text or JSON.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::args::{
    AnnotateArgs, CheckArgs, Command, ConfigAction, ConfigArgs, ConfigCheckArgs,
    ConfigPasswordArgs, ExtractArgs, FateArgs, Format, HandArgs, InboxArgs, KeygenArgs, LegalArgs,
    MoveArgs, NewArgs, ReplayArgs, RulesArgs, SendArgs, Sending, SetupArgs, ShowArgs,
};
use super::context::unknown_game_argument;
use super::context::{
    compose_failure, compose_failure_in, fit, pending_json, pending_text, plain, print_json,
    read_hand_key, read_wallet, read_wallet_stamped, refuse_message, replay_all, reported,
    with_bytes, with_record, with_record_in, Answer, Ctx, JsonPending, Named, RecordCommand,
    SCHEMA_VERSION,
};
use super::files::{self};
use super::report::{Exit, Failure, Problem};
use super::stream::{AfterChance, AfterCheck, Checked, Streamed};
use super::{out, Printer};
use crate::fairness::Protocol;
use crate::game::{self, action_text, DiagramStyle, Game};
use crate::games::{self, GameVisitor};
use crate::record::{self, Source, TurnText};
use crate::referee::{
    possessives, result_text, ChanceEvent, ChanceLog, ErrorKind, Keep, Keys, PlayedTurn, Preview,
    Referee, Said, Seat, Step, TypedError, Writing,
};
use crate::wallet::Wallet;

/// Run one command: each command has its function, which takes the
/// command's own arguments (one struct a command, so that no function
/// meets a command it does not run) and moves them into the command's
/// struct.
pub fn run(command: Command) -> Result<Exit, Failure> {
    match command {
        Command::New(args) => new_game(args),
        Command::Move(args) => move_line(args),
        Command::Check(args) => check(args),
        Command::Show(args) => show(args),
        Command::Replay(args) => replay(args),
        Command::Annotate(args) => annotate(args),
        Command::Legal(args) => legal(args),
        Command::Hand(args) => hand(args),
        Command::Fate(args) => fate(args),
        Command::Extract(args) => extract(args),
        Command::Keygen(args) => keygen(args),
        Command::Setup(args) => setup(args),
        Command::Config(args) => config(args),
        Command::Send(args) => send(args),
        Command::Inbox(args) => inbox(args),
        Command::Rules(args) => rules(args),
        Command::Completions(args) => super::completions(args),
        Command::Man(args) => super::man(args),
    }
}

/// `herald new`.
fn new_game(args: NewArgs) -> Result<Exit, Failure> {
    let NewArgs {
        game,
        sides,
        options,
        deadline,
        output,
        key,
        me,
        protocol,
        choices,
        reply,
        sending,
    } = args;
    dispatch_id(
        &game,
        New {
            sides,
            options,
            deadline,
            output,
            key,
            me,
            reply,
            send: sending.send.then_some(sending.config),
            choices: choice_list(choices)?,
            protocol,
        },
    )
}

/// The message `--reply -o output` writes, gone as `sending` says.
fn reply_by(output: PathBuf, sending: Sending) -> super::mail::Reply {
    super::mail::Reply {
        output,
        send: sending.send,
        config: sending.config,
    }
}

/// `herald move`: the turn typed (or read from standard input), or a
/// forfeit claimed.
fn move_line(args: MoveArgs) -> Result<Exit, Failure> {
    let MoveArgs {
        record,
        turn,
        key,
        hand_key,
        dry_run,
        expect_turn,
        forfeit,
        no_commit,
        then,
        then_key,
        date,
        format,
        reply,
        output,
        sending,
    } = args;
    require_file(
        &record,
        "move rewrites the record file: name the file (the turn may come from -)",
    )?;
    let text = match (forfeit, turn.as_deref()) {
        (true, _) => None,
        (false, None | Some("-")) => Some(read_stdin_turn()?),
        (false, Some(t)) => Some(t.to_owned()),
    };
    with_record(
        &record,
        format,
        super::moves::Move {
            text,
            key,
            hand_key,
            then,
            then_key,
            dry_run,
            expect_turn,
            no_commit,
            date: super::context::LineDate::read(date.as_deref())?,
            format,
            reply: output
                .filter(|_| reply)
                .map(|output| reply_by(output, sending)),
        },
    )
}

/// `herald check`: one record, with its key file or not, a message of
/// a mailbox, every message (`--all`), or many records.
fn check(args: CheckArgs) -> Result<Exit, Failure> {
    let CheckArgs {
        input,
        all,
        more,
        key,
    } = args;
    if let Some(key) = key {
        // It rewrites the key file alone (its `seen:` memory), never the
        // record: no stamp of the record's bytes.
        return with_record_in(
            &input.record,
            None,
            input.format,
            CheckWithKey {
                format: input.format,
                key,
            },
        );
    }
    if !more.is_empty() || super::many::is_record_folder(&input.record) {
        if all || input.message.is_some() {
            return Err(Failure::usage(
                "--all and --message read one input: name one file (or Maildir folder)",
            ));
        }
        let mut paths = vec![input.record];
        paths.extend(more);
        return super::many::check_many(&paths, input.format);
    }
    if all {
        super::mail::check_all(&input)
    } else {
        check_one(&input.record, input.message, input.format)
    }
}

/// `herald show`.
fn show(args: ShowArgs) -> Result<Exit, Failure> {
    let ShowArgs {
        input,
        turn,
        key,
        hand_key,
        unicode,
    } = args;
    let show = Show {
        format: input.format,
        turn,
        key,
        hand_key,
        style: DiagramStyle { unicode },
    };
    // With a key file the record is read whole: the key file's checks
    // read its lines (a fork of what it saw, a copy without its key).
    let key = show.key.clone();
    in_parts_or_whole(
        (&input.record, input.message, input.format),
        key.as_deref(),
        show,
        super::stream::read,
    )
}

/// A reader of the record in `path` (its message `message`, if named),
/// written in `format`: a part at a time by `streamed` when it is a
/// record file or standard input read without a key file (`key`), or
/// whole (a message named, a Maildir folder, a key file given, or an
/// input `streamed` hands back: a message, a mailbox, several records),
/// `command` then run on it as [`with_record_in`] runs it.
fn in_parts_or_whole<C: RecordCommand + Clone>(
    (path, message, format): (&Path, Option<usize>, Format),
    key: Option<&Path>,
    command: C,
    streamed: impl FnOnce(&Path, C) -> Result<Checked<Exit>, Failure>,
) -> Result<Exit, Failure> {
    if key.is_some() || message.is_some() || (path.as_os_str() != "-" && path.is_dir()) {
        return with_record_in(path, message, format, command);
    }
    let path = match files::record_file(path) {
        Ok(path) => path,
        Err(failure) => return reported(Err(failure), format),
    };
    match streamed(&path, command.clone()) {
        Ok(Checked::Done(exit)) => Ok(exit),
        Ok(Checked::Whole(bytes)) => with_bytes(&path, &bytes, format, command),
        Err(failure) => reported(Err(failure), format),
    }
}

/// `herald replay`: diagrams in text or JSON, or one HTML page
/// (`--html`).
fn replay(args: ReplayArgs) -> Result<Exit, Failure> {
    super::picture::refuse_format_with_html(&args)?;
    let ReplayArgs {
        input,
        key,
        unicode,
        html,
        output,
    } = args;
    if html {
        // A part at a time as the text is, but for a key file.
        let page = super::picture::ReplayPage {
            key: key.clone(),
            output,
        };
        return in_parts_or_whole(
            (&input.record, input.message, input.format),
            key.as_deref(),
            page,
            super::stream::read,
        );
    }
    // With a key file the record is read whole: the key file's checks
    // read its lines.
    in_parts_or_whole(
        (&input.record, input.message, input.format),
        key.as_deref(),
        Replay {
            format: input.format,
            key: key.clone(),
            style: DiagramStyle { unicode },
        },
        |path, replay| super::stream::read(path, Spooling(replay)),
    )
}

/// `herald annotate`.
fn annotate(args: AnnotateArgs) -> Result<Exit, Failure> {
    let AnnotateArgs { input, output } = args;
    if let Some(o) = &output {
        if same_file(o, &input.record) {
            return Err(Failure::usage(
                "annotate never rewrites its input: choose another file for -o",
            ));
        }
    }
    in_parts_or_whole(
        (&input.record, input.message, input.format),
        None,
        Annotate {
            format: input.format,
            output,
        },
        |path, annotate| super::stream::read(path, Spooling(annotate)),
    )
}

/// `herald legal`.
fn legal(args: LegalArgs) -> Result<Exit, Failure> {
    let LegalArgs {
        input,
        key,
        hand_key,
        after,
    } = args;
    let legal = Legal {
        format: input.format,
        key,
        hand_key,
        after,
    };
    // With a key file the record is read whole: the key file's checks
    // read its lines, and what the player checked before is not
    // verified again.
    let key = legal.key.clone();
    in_parts_or_whole(
        (&input.record, input.message, input.format),
        key.as_deref(),
        legal,
        super::stream::check,
    )
}

/// `herald hand`.
fn hand(args: HandArgs) -> Result<Exit, Failure> {
    let HandArgs {
        input,
        key,
        hand_key,
    } = args;
    with_record_in(
        &input.record,
        input.message,
        input.format,
        Hand {
            format: input.format,
            key,
            hand_key,
        },
    )
}

/// `herald fate`.
fn fate(args: FateArgs) -> Result<Exit, Failure> {
    let FateArgs { input, key } = args;
    let fate = Fate {
        format: input.format,
        key,
    };
    // With a key file the record is read whole: the key file's checks
    // read its lines.
    let key = fate.key.clone();
    in_parts_or_whole(
        (&input.record, input.message, input.format),
        key.as_deref(),
        fate,
        super::stream::check_logging_chance,
    )
}

/// `herald extract`.
fn extract(args: ExtractArgs) -> Result<Exit, Failure> {
    let ExtractArgs { input, output } = args;
    with_record_in(
        &input.record,
        input.message,
        Format::Text,
        super::mail::Extract { output },
    )
}

/// `herald keygen`: the key file as `-o` or `--key` names it.
fn keygen(args: KeygenArgs) -> Result<Exit, Failure> {
    let KeygenArgs {
        side,
        record,
        output,
        key,
        print,
        reply,
        sending,
    } = args;
    require_file(
        &record,
        "keygen adds the Commit tag to the record file: name the file",
    )?;
    let (output, reply) = match (reply, key, output) {
        (true, Some(key), Some(message)) => (key, Some(reply_by(message, sending))),
        (false, Some(key), None) | (false, None, Some(key)) => (key, None),
        (false, Some(_), Some(_)) => return Err(Failure::usage(
            "--key and -o both name the key file: give one (with --reply, -o names the message)",
        )),
        _ => {
            let keygen = crate::referee::Command::keygen("SIDE").on_record();
            return Err(Failure::usage(format!(
                "name the key file to write: {} (answering an email: --key SIDE.key --reply -o REPLY.eml)",
                keygen.makes_key("SIDE.key")
            )));
        }
    };
    with_record(
        &record,
        Format::Text,
        Keygen {
            side,
            output,
            print,
            reply,
        },
    )
}

/// `herald setup`.
fn setup(args: SetupArgs) -> Result<Exit, Failure> {
    let SetupArgs {
        record,
        side,
        key,
        hand_key,
        choices,
        dry_run,
        then,
        then_key,
        date,
        format,
        reply,
        output,
        sending,
    } = args;
    require_file(
        &record,
        "setup adds your set-up line to the record file: name the file",
    )?;
    let date = super::context::LineDate::read(date.as_deref())?;
    let choices = choice_list(choices)?;
    with_record(
        &record,
        format,
        super::setup::Setup {
            key,
            hand_key,
            choices,
            dry_run,
            then,
            then_key,
            date,
            format,
            reply: output
                .filter(|_| reply)
                .map(|output| reply_by(output, sending)),
            side,
        },
    )
}

/// `herald config check` and `herald config password`.
fn config(args: ConfigArgs) -> Result<Exit, Failure> {
    match args.action {
        ConfigAction::Check(ConfigCheckArgs { config }) => {
            super::transport::fetch::check(config.as_deref())
        }
        ConfigAction::Password(ConfigPasswordArgs {
            smtp: _,
            imap,
            stdin,
            config,
        }) => {
            if stdin.as_deref().is_some_and(|a| a != "-") {
                return Err(Failure::usage(
                    "herald config password takes no password as an argument (it would stay in the shell's history and show in the process list): give - to read it from standard input, or nothing to be asked for it without echo",
                ));
            }
            super::transport::config::store_password(
                config.as_deref(),
                if imap { "imap" } else { "smtp" },
                stdin.is_some(),
            )
        }
    }
}

/// `herald send`.
fn send(args: SendArgs) -> Result<Exit, Failure> {
    let SendArgs { message, config } = args;
    super::transport::send::send_file(config.as_deref(), &message)?;
    Ok(Exit::Ok)
}

/// `herald inbox`.
fn inbox(args: InboxArgs) -> Result<Exit, Failure> {
    let InboxArgs { config, format } = args;
    super::transport::inbox::inbox(config.as_deref(), format)
}

/// `herald rules`.
fn rules(args: RulesArgs) -> Result<Exit, Failure> {
    super::rules::rules(args.game.as_deref())
}

/// A set-up choice's text: as given, or read from the file after `@`.
fn choice_text(text: &str) -> Result<String, Failure> {
    match text.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| Failure::usage(format!("--maze @{path}: cannot read {path}: {e}"))),
        None => Ok(text.to_owned()),
    }
}

/// Writers need a real file, not `-`.
pub(super) fn require_file(path: &Path, why: &str) -> Result<(), Failure> {
    if path.as_os_str() == "-" {
        Err(Failure::usage(why))
    } else {
        Ok(())
    }
}

pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

fn read_stdin_turn() -> Result<String, Failure> {
    if let Some(turn) = super::mail::prompt_turn()? {
        return Ok(turn);
    }
    let bytes = files::read_bytes(Path::new("-"))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure::usage("the turn on standard input is not UTF-8 text"))?;
    Ok(text.trim().to_owned())
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
    phase: &'static str,
    provisional: Option<String>,
    failed_audits: Vec<JsonAudit>,
    due: Vec<String>,
    /// The step due and whose it is (`None` once the game is over).
    step: Option<JsonStep>,
    openings_due: Vec<JsonOpening>,
    position: String,
    forfeits: Vec<JsonForfeit>,
    /// Null when no side signs (spec section 3.8).
    digest: Option<String>,
    /// A draw offered and standing, or agreed; else null (spec section
    /// 3.10).
    draw: Option<JsonDraw>,
}

/// The game's Deadline in words, for `check` (spec section 3.8): every
/// player, the joiner first, is told how long a step may wait before its
/// forfeit may be claimed.
fn deadline_text<G: Game>(referee: &Referee<G>) -> String {
    referee.header().deadline().map_or_else(String::new, |d| {
        fit(
            &format!(
                "Deadline: {d} day{}: a side whose step is due longer may be claimed to have forfeited ({})",
                if d == 1 { "" } else { "s" },
                crate::referee::Command::moves()
                    .on_record()
                    .forfeit()
                    .key_file("KEY")
            ),
            "  ",
        )
    })
}

/// The comment on a line played (`annotate`, the replay page): the
/// engine's comparison of the positions before and after it, and the
/// draw offered or agreed; a forfeit claim is said as one (`Red won: Blue
/// forfeited (claimed by Red on turn 5)`), never as the resignation the
/// engine was given for it nor as moves left unspent.
pub(super) fn line_comment<G: Game>(referee: &Referee<G>, played: &PlayedTurn<G>) -> String {
    let comment = match (&played.before, referee.forfeits().last()) {
        (_, Some(f)) if played.claimant.is_some() => {
            let board = referee.board_words();
            if board.contains(&f.words::<G>()) {
                board
            } else {
                f.words::<G>()
            }
        }
        (Some(before), _) if played.is_played() => G::turn_comment(before, referee.state()),
        _ => String::new(),
    };
    with_draw(comment, referee, played)
}

/// A turn's comment with what its line did to a draw after it; an
/// acceptance without actions is only that.
pub(super) fn with_draw<G: Game>(
    comment: String,
    referee: &Referee<G>,
    played: &PlayedTurn<G>,
) -> String {
    match referee.draw_comment(played) {
        None => comment,
        Some(draw) if comment.is_empty() || played.actions.is_empty() => draw,
        Some(draw) => format!("{comment}; {draw}"),
    }
}

/// A draw by agreement in `check --format json`: `offered` while it
/// waits for acceptances, `agreed` once every other side accepted.
#[derive(Serialize)]
struct JsonDraw {
    /// `offered` or `agreed`.
    state: &'static str,
    offered_by: String,
    offered_on: u32,
    /// The acceptances so far, in order.
    accepted: Vec<JsonAcceptance>,
    /// The sides still to accept, in turn order (empty once agreed).
    waiting: Vec<String>,
}

#[derive(Serialize)]
struct JsonAcceptance {
    side: String,
    turn: u32,
}

/// The draw offered or agreed in a game, for `check --format json`.
fn draw_json<G: Game>(referee: &Referee<G>) -> Option<JsonDraw> {
    let header = referee.header();
    let name = |s: Seat| header.name::<G>(s).to_owned();
    if let Some(a) = referee.draw_agreed() {
        return Some(JsonDraw {
            state: "agreed",
            offered_by: a.offered_by.name::<G>().into(),
            offered_on: a.offered_on,
            accepted: a
                .accepted
                .iter()
                .map(|&(s, turn)| JsonAcceptance {
                    side: s.name::<G>().into(),
                    turn,
                })
                .collect(),
            waiting: Vec::new(),
        });
    }
    let o = referee.draw_offer()?;
    Some(JsonDraw {
        state: "offered",
        offered_by: name(o.by),
        offered_on: o.turn,
        accepted: o
            .accepted
            .iter()
            .map(|&(s, turn)| JsonAcceptance {
                side: name(s),
                turn,
            })
            .collect(),
        waiting: o.waiting.iter().map(|&s| name(s)).collect(),
    })
}

/// A draw offer standing, for `check`'s text: `Blue offered a draw on
/// turn 3; Red is to answer (accepted so far: none)`.
fn draw_text<G: Game>(referee: &Referee<G>) -> String {
    let Some(json) = draw_json(referee).filter(|d| d.state == "offered") else {
        return String::new();
    };
    let accepted: Vec<String> = json
        .accepted
        .iter()
        .map(|a| format!("{} on turn {}", a.side, a.turn))
        .collect();
    fit(
        &format!(
            "{} offered a draw on turn {}; waiting for {} to accept{}",
            json.offered_by,
            json.offered_on,
            json.waiting.join(", then "),
            if accepted.is_empty() {
                String::new()
            } else {
                format!(" (accepted by {})", accepted.join(", "))
            }
        ),
        "  ",
    )
}

#[derive(Serialize)]
struct JsonForfeit {
    turn: u32,
    side: String,
    claimed_by: String,
    /// `turn 12` or `S3`.
    line: String,
    /// Whether the claim was the side's refusal of its audit.
    audit: bool,
}

/// The step due, in `check --format json`.
#[derive(Serialize)]
struct JsonStep {
    side: String,
    /// `S2`, `turn 14`.
    line: String,
    /// `keygen`, `commit`, `open`, `shares`, `turn`, `farewell`, `audit`.
    step: &'static str,
    /// In words, with the command that takes it.
    text: String,
}

#[derive(Serialize)]
struct JsonOpening {
    side: String,
    slot: &'static str,
}

#[derive(Serialize)]
struct JsonAudit {
    side: String,
    reason: String,
}

/// A line dated more than a day after today by this computer's clock
/// gets a warning: a deadline counts by the signed dates, so a claim
/// dated ahead claims time that has not passed (spec section 3.8).
fn warn_if_dated_ahead<G: Game>(referee: &Referee<G>) {
    let Some(today) = super::context::reader_today() else {
        return;
    };
    let Some(last) = referee.last_date() else {
        return;
    };
    if last.0 > today.0 + 1 {
        super::report::eprint_warning(
            &format!(
                "the last line is dated {last}, after today ({today}) by this computer's clock"
            ),
            "a deadline counts by the signed dates, so a forfeit claimed by a line dated ahead claims time that has not passed: set this computer's clock right, or ask the claimant why",
        );
    }
}

/// Where the game stands beyond its result, for `check`: the set-up step
/// due, the openings due, the audit waiting (with the provisional result)
/// and the audits that failed.
fn audit_text<G: Game>(referee: &Referee<G>) -> String {
    let mut text = String::new();
    for demand in referee.openings_due() {
        text.push_str(&fit(
            &format!(
                "{} opens {} on its next line (herald move --key adds it)",
                demand.side.name::<G>(),
                demand.slot
            ),
            "  ",
        ));
    }
    if let Some(result) = referee.provisional() {
        text.push_str(&fit(
            &format!(
                "Provisional result {}, waiting for {} openings (the audit)",
                result_text::<G>(result),
                possessives::<G>(&referee.audits_due())
            ),
            "  ",
        ));
    }
    for (side, why) in referee.failed_audits() {
        text.push_str(&fit(
            &format!("{} failed the audit: {why}", side.name::<G>()),
            "  ",
        ));
    }
    text
}

/// The forfeits of a game, one a line: `Blue forfeited (claimed by Red on
/// turn 7)`, and the claims voided by their target's own next line.
fn forfeit_text<G: Game>(referee: &Referee<G>) -> String {
    // A claim its target may still answer is provisional until then.
    let open = referee.open_claim().map(|(side, _)| side);
    let last = referee.forfeits().len();
    let mut text: String = referee
        .forfeits()
        .iter()
        .enumerate()
        .map(|(k, f)| match open {
            Some(side) if k + 1 == last && f.side == side => fit(
                &format!(
                    "{}, provisional: {}'s own next line voids it",
                    f.words::<G>(),
                    side.name::<G>()
                ),
                "  ",
            ),
            _ => fit(&f.words::<G>(), "  "),
        })
        .collect();
    for f in referee.voided_claims() {
        text.push_str(&fit(
            &format!(
                "{}'s claim on {} was voided by {}'s own next line",
                f.claimant.name::<G>(),
                f.line_name(),
                f.side.name::<G>()
            ),
            "  ",
        ));
    }
    text
}

impl RecordCommand for Check {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let referee = replay_all::<G>(ctx, Keep::RULES, |_, _| {})?;
        self.after::<G>(ctx.named(), &referee)
    }
}

/// `herald check --key KEYFILE`: the record checked, and checked against
/// what the player's key file remembers (spec section 3.8), as `move
/// --key` would before answering; nothing written.
struct CheckWithKey {
    format: Format,
    key: PathBuf,
}

impl RecordCommand for CheckWithKey {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let (mut wallet, stamp) = read_wallet_stamped(&self.key)?;
        let key = self.key.display();
        let replayed = super::sent::replay_for_answer::<G>(ctx, Some(&wallet), Some(&self.key))?;
        let referee = &replayed.referee;
        let side = referee
            .key_file_side(&wallet)
            .map_err(|e| compose_failure(e, Some(&self.key), ctx))?;
        let name = side.name::<G>();
        let standing = crate::referee::key_file::standing(&replayed, ctx.record, &wallet);
        let exit = Check(self.format).after(ctx.named(), referee)?;
        if self.format != Format::Json {
            out(&fit(
                &format!("Your key file ({name}, {key}): {standing}"),
                "  ",
            ))?;
            // A true record, yet not one to play on with this key file.
            if referee
                .copy_without_key_of(&wallet, crate::referee::KeylessCopy::CHECKED)
                .is_some()
            {
                let note = Said::words(format!(
                    "Note: this copy carries no key of {name}'s (no {name}Commit or {name}Key tag): it is a copy from before {name}'s key was added, or one stripped of it, and move, show and legal with {key} refuse it; play on the copy that holds {name}'s key, or add it again, the same key: "
                ))
                .command(crate::referee::Command::keygen(name).on_record().key_file(&key.to_string()));
                out(&fit(&name_record(&note, ctx.named()), "  "))?;
            }
        }
        // The key file remembers the newest record its player checked
        // (spec section 3.8), so that a copy that parts from it (a fork)
        // is refused.
        if super::sent::note_seen(&replayed, &mut wallet, ctx)? {
            if let Err(e) = files::rewrite(&self.key, Some(&stamp), wallet.to_text().as_bytes()) {
                super::report::eprint_note(&format!(
                    "{key} could not remember this record ({}): a copy that parts from it will not be caught by it",
                    e.text()
                ));
            }
        }
        Ok(exit)
    }
}

/// `herald check` of one input: a plain record is read a part at a time
/// (its memory flat however long it is); a message, a mailbox or a text
/// holding several records is read whole, as the other readers do.
fn check_one(path: &Path, message: Option<usize>, format: Format) -> Result<Exit, Failure> {
    if message.is_some() || (path.as_os_str() != "-" && path.is_dir()) {
        return with_record_in(path, message, format, Check(format));
    }
    match super::stream::check(path, Check(format)) {
        Ok(Checked::Done(exit)) => Ok(exit),
        Ok(Checked::Whole(bytes)) => with_bytes(path, &bytes, format, Check(format)),
        Err(failure) => reported(Err(failure), format),
    }
}

impl AfterCheck for Check {
    type Output = Exit;

    /// Print the verdict on a record replayed to its end.
    fn after<G: Game>(self, named: Named<'_>, referee: &Referee<G>) -> Result<Exit, Failure> {
        let origin = named.origin;
        // The digest only where a side signs (the referee keeps it then):
        // it is what the seals are over (spec section 3.8).
        let digest = referee.digest().map(hex::encode);
        let result = referee.final_result().unwrap_or_else(|| "*".into());
        let summary = referee.summary();
        match self.0 {
            Format::Json => print_json(&JsonCheck {
                schema: SCHEMA_VERSION,
                ok: true,
                game: G::ID,
                turns: referee.turns(),
                result,
                to_move: referee.side_due().map(|s| s.name::<G>().to_owned()),
                summary: summary.to_string(),
                pending: pending_json(referee),
                phase: referee.phase().as_str(),
                provisional: referee.provisional().map(result_text::<G>),
                failed_audits: referee
                    .failed_audits()
                    .into_iter()
                    .map(|(side, reason)| JsonAudit {
                        side: side.name::<G>().into(),
                        reason,
                    })
                    .collect(),
                due: referee
                    .sides_due()
                    .iter()
                    .map(|side| side.name::<G>().to_owned())
                    .collect(),
                step: referee.step_due().map(|d| JsonStep {
                    side: d.side.name::<G>().into(),
                    line: d.line,
                    step: d.step.as_str(),
                    text: d.text.to_string(),
                }),
                openings_due: referee
                    .openings_due()
                    .into_iter()
                    .map(|d| JsonOpening {
                        side: d.side.name::<G>().into(),
                        slot: d.slot,
                    })
                    .collect(),
                position: game::position_text::<G>(referee.state()),
                forfeits: referee
                    .forfeits()
                    .iter()
                    .map(|f| JsonForfeit {
                        turn: f.turn,
                        side: f.side.name::<G>().into(),
                        claimed_by: f.claimant.name::<G>().into(),
                        line: f.line_name(),
                        audit: f.audit,
                    })
                    .collect(),
                digest,
                draw: draw_json(referee),
            })?,
            Format::Text | Format::Svg => out(&format!(
                "{origin}: OK: {}, {} turn{}, result {result}\n{}{}{}{}{}{}{}",
                G::TITLE,
                referee.turns(),
                if referee.turns() == 1 { "" } else { "s" },
                fit(&name_record(&summary, named), "  "),
                draw_text(referee),
                forfeit_text(referee),
                pending_text(referee),
                audit_text(referee),
                deadline_text(referee),
                digest.map_or_else(String::new, |d| format!("Digest: {d}\n"))
            ))?,
        }
        warn_if_dated_ahead(referee);
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- show

#[derive(Clone)]
struct Show {
    format: Format,
    turn: Option<u32>,
    key: Option<PathBuf>,
    /// `--hand-key`: the key file of the side holding the hand.
    hand_key: Option<PathBuf>,
    style: DiagramStyle,
}

#[derive(Serialize)]
struct JsonShow {
    schema: u32,
    /// Always true: a failure prints the error object instead.
    ok: bool,
    game: &'static str,
    turn: u32,
    result: String,
    to_move: Option<String>,
    summary: String,
    pending: Vec<JsonPending>,
    diagram: String,
    position: String,
    /// How the game's result came where `position` (the engine's
    /// position notation) cannot say it: a forfeit claimed, which the
    /// engine holds as the claimed side's resignation; else null.
    ended_by: Option<JsonEnding>,
    /// The pieces with what the viewer knows of them (games with hidden
    /// identities), else null.
    pieces: Option<Vec<JsonPiece>>,
    /// With --key (at the last turn): the key's side's look at its turn,
    /// else null.
    look: Option<super::look::JsonLook>,
}

/// A result `position` reads otherwise: its kind (`forfeit`), the side
/// it was given against, who claimed it and on which line.
#[derive(Serialize)]
struct JsonEnding {
    kind: &'static str,
    side: &'static str,
    claimed_by: &'static str,
    /// `turn 12`, `S4`.
    line: String,
}

#[derive(Serialize)]
struct JsonPiece {
    side: &'static str,
    square: String,
    slot: Option<&'static str>,
    identity: Option<&'static str>,
    opened: bool,
}

/// The pieces of `state` as JSON, if the game lists them.
fn pieces_json<G: Game>(state: &G::State) -> Option<Vec<JsonPiece>> {
    G::pieces(state).map(|list| {
        list.into_iter()
            .map(|p| JsonPiece {
                side: p.side.name::<G>(),
                square: p.square,
                slot: p.slot,
                identity: p.identity,
                opened: p.opened,
            })
            .collect()
    })
}

impl RecordCommand for Show {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let upto = self.turn_asked(ctx)?;
        let keep = Keep::RULES.on(super::context::reader_today());
        let at = crate::referee::replay_to_turn::<G>(ctx.record, upto, keep)
            .map_err(|e| ctx.problem(&e))?;
        let referee = &at.referee;
        let hand = read_hand_key(self.hand_key.as_deref())?;
        // The key file is read once, for both positions.
        let wallet = match self.key.as_deref() {
            Some(path) => Some((path, read_wallet(path)?)),
            None => None,
        };
        if let Some((path, w)) = &wallet {
            super::sent::refuse_for_key_file(referee, w, Some(path), ctx)?;
        }
        let keys = wallet
            .as_ref()
            .map(|(path, w)| (*path, Keys::given(Some(w), hand.as_ref())));
        let at_end = upto == crate::referee::turn_count(ctx.record);
        let look = match keys {
            Some((path, keys)) if at_end => {
                Some(look_now(referee, keys).map_err(|e| compose_failure(e, Some(path), ctx))?)
            }
            _ => None,
        };
        let seen = match (&look, keys) {
            (Some(look), _) => look.state.clone(),
            (None, Some((path, keys))) => referee
                .view(keys)
                .map_err(|e| compose_failure(e, Some(path), ctx))?,
            (None, None) => referee.public_state(),
        };
        // The position the last turn started from, as the viewer saw it.
        let earlier = at.before.as_ref().and_then(|(b, _)| match keys {
            Some((_, keys)) => b.view(keys).ok(),
            None => Some(b.public_state()),
        });
        let shown = Shown {
            upto,
            seen,
            earlier,
            changed_by: at
                .before
                .as_ref()
                .map(|(_, line)| super::picture::line_label(line.kind, line.number, line.side)),
            look,
        };
        self.print(referee, &shown, ctx.named())?;
        Ok(Exit::Ok)
    }
}

/// `show` of a plain record read a part at a time (without a key file):
/// the same output as [`Show::run`] of the record read whole.
impl super::stream::Streamed for Show {
    type Output = Exit;

    fn replay<G: Game, R: std::io::BufRead>(
        self,
        reader: crate::record::stream::Reader<R>,
        origin: &str,
        again: Option<std::sync::Arc<dyn crate::referee::Reread>>,
    ) -> Result<Option<Exit>, Failure> {
        let Some(at) = super::stream::to_turn::<G, R>(reader, self.turn, origin, again)? else {
            return Ok(None);
        };
        // Read (and refused) as the whole read reads it, though only
        // `--key` uses it.
        read_hand_key(self.hand_key.as_deref())?;
        let (earlier, changed_by) = match at.before {
            Some(b) => (
                Some(b.state),
                Some(super::picture::line_label(b.kind, b.number, &b.side)),
            ),
            None => (None, None),
        };
        let shown = Shown {
            upto: at.upto,
            seen: at.referee.public_state(),
            earlier,
            changed_by,
            look: None,
        };
        self.print(&at.referee, &shown, Named::file(origin))?;
        Ok(Some(Exit::Ok))
    }
}

/// With the key, at the end of the record: one look a turn (the
/// position as the turn due starts for the key's side, its hand, roll,
/// step due and legal actions), from the library; the claimed side sees
/// the turn it may still answer a claim with, as `legal` lists it
/// ([`Referee::answerable_by`]).
fn look_now<G: Game>(
    referee: &Referee<G>,
    keys: Keys<'_>,
) -> Result<crate::referee::Look<G>, crate::referee::ComposeError> {
    let mut now = referee.clone();
    if let Some(w) = keys.own_file() {
        now.answerable_by(w);
    }
    now.look(keys)
}

/// What `show` prints, worked out: the turn, the position as the viewer
/// sees it, the one the turn started from, the look with the key.
struct Shown<G: Game> {
    upto: u32,
    seen: G::State,
    earlier: Option<G::State>,
    /// The label of the line of turn `upto` (`6. Red`), if it is one.
    changed_by: Option<String>,
    look: Option<crate::referee::Look<G>>,
}

impl Show {
    /// The turn asked for (`--turn`, else the record's last), refused
    /// past the last (a usage error).
    fn turn_asked(&self, ctx: &Ctx<'_>) -> Result<u32, Failure> {
        let total = crate::referee::turn_count(ctx.record);
        let upto = self.turn.unwrap_or(total);
        if upto > total {
            return Err(Failure::usage(format!(
                "{} has {total} turn{}: there is no turn {upto}",
                ctx.origin,
                if total == 1 { "" } else { "s" }
            )));
        }
        Ok(upto)
    }

    /// Print what `shown` sees in the format asked for.
    fn print<G: Game>(
        &self,
        referee: &Referee<G>,
        shown: &Shown<G>,
        named: Named<'_>,
    ) -> Result<(), Failure> {
        match self.format {
            Format::Json => self.print_json(referee, shown, named),
            Format::Text => self.print_text(referee, shown, named),
            Format::Svg => super::picture::show_svg::<G>(
                &shown.seen,
                shown.earlier.as_ref(),
                shown.upto,
                &shown
                    .look
                    .as_ref()
                    .map_or_else(Vec::new, super::look::caption),
            ),
        }
    }

    /// The diagram of what `shown` sees, its step named for the file read.
    fn diagram<G: Game>(&self, referee: &Referee<G>, shown: &Shown<G>, named: Named<'_>) -> String {
        referee.diagram_with_step(&shown.seen, self.style, |t| {
            fit(&name_record(t, named), "  ")
        })
    }

    fn print_json<G: Game>(
        &self,
        referee: &Referee<G>,
        shown: &Shown<G>,
        named: Named<'_>,
    ) -> Result<(), Failure> {
        print_json(&JsonShow {
            schema: SCHEMA_VERSION,
            ok: true,
            game: G::ID,
            turn: shown.upto,
            result: referee.result(),
            to_move: referee.side_due().map(|s| s.name::<G>().to_owned()),
            // A forfeit said as one, never as the engine's resignation.
            summary: referee.board_words(),
            pending: pending_json(referee),
            diagram: plain(&self.diagram(referee, shown, named)),
            position: game::position_text::<G>(referee.state()),
            ended_by: referee.decided_by().map(|f| JsonEnding {
                kind: "forfeit",
                side: f.side.name::<G>(),
                claimed_by: f.claimant.name::<G>(),
                line: f.line_name(),
            }),
            pieces: pieces_json::<G>(&shown.seen),
            look: shown.look.as_ref().map(super::look::json),
        })
    }

    /// The diagram names the side to move (or the result) and any
    /// pending chance event itself; what the last turn changed and the
    /// look follow it.
    fn print_text<G: Game>(
        &self,
        referee: &Referee<G>,
        shown: &Shown<G>,
        named: Named<'_>,
    ) -> Result<(), Failure> {
        let diagram = self.diagram(referee, shown, named);
        let changed = match (&shown.changed_by, &shown.earlier) {
            (Some(label), Some(e)) => super::picture::changed_text::<G>(e, &shown.seen, label),
            _ => String::new(),
        };
        let turn_look = shown.look.as_ref().map_or_else(String::new, |l| {
            super::look::text(l, &self.legal_hint(named.origin))
        });
        out(&format!(
            "{}, after turn {}\n\n{diagram}{changed}{turn_look}",
            G::TITLE,
            shown.upto
        ))
    }

    /// `herald legal` with the key files given, on the file read
    /// (standard input cannot be read again: the record's name stands
    /// for it); nothing without a key file.
    fn legal_hint(&self, origin: &str) -> String {
        let record = match origin {
            "<stdin>" => "RECORD",
            origin => origin,
        };
        match &self.key {
            Some(path) => crate::referee::Command::legal()
                .on_record()
                .key_file(&path.display().to_string())
                .hand_key(self.hand_key.as_ref().map(|h| h.display().to_string()))
                .write(&Writing {
                    record,
                    reply: false,
                    send: false,
                }),
            None => String::new(),
        }
    }
}

// ---------------------------------------------------------------- replay

/// The items of an iterator serialised as a JSON array, once, as they
/// are made (`fate`'s events, `replay`'s positions: the list is never
/// held whole). An item that is an error stops the output with it.
struct Items<I>(std::cell::Cell<Option<I>>);

impl<I: Iterator<Item = Result<T, E>>, T: Serialize, E: std::fmt::Display> Serialize for Items<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut seq = serializer.serialize_seq(None)?;
        for item in self.0.take().into_iter().flatten() {
            seq.serialize_element(&item.map_err(S::Error::custom)?)?;
        }
        seq.end()
    }
}

#[derive(Clone)]
struct Replay {
    format: Format,
    key: Option<PathBuf>,
    style: DiagramStyle,
}

#[derive(Serialize, serde::Deserialize)]
struct JsonPosition {
    turn: u32,
    side: Option<String>,
    actions: Vec<String>,
    chance: Vec<String>,
    summary: String,
    diagram: String,
    #[serde(skip)]
    body: String,
}

#[derive(Serialize)]
struct JsonReplay<P: Serialize> {
    schema: u32,
    /// Always true: a failure prints the error object instead.
    ok: bool,
    game: &'static str,
    result: String,
    positions: P,
}

impl RecordCommand for Replay {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let start = Referee::<G>::start(ctx.record).map_err(|e| ctx.problem(&e))?;
        let wallet = match self.key.as_deref() {
            Some(path) => {
                let wallet = read_wallet(path)?;
                start
                    .view(Keys::as_shown(&wallet))
                    .map_err(|e| compose_failure(e, Some(path), ctx))?;
                Some(wallet)
            }
            None => None,
        };
        let mut positions = Spool::new()?;
        positions.push_position(&self.start(&start, wallet.as_ref()));
        let referee = replay_all::<G>(ctx, Keep::RULES, |played, referee| {
            positions.push_position(&self.after(played, referee, wallet.as_ref()));
        })?;
        self.print_positions(&referee, positions)
    }
}

/// `replay` of a plain record read a part at a time (without a key
/// file): the same output as [`Replay::run`] of the record read whole,
/// each position written to a [`Spool`] as it is played and printed once
/// the record is known good.
impl Spooled for Replay {
    const KEEP: Keep = Keep::RULES;

    fn push<G: Game>(
        &self,
        spool: &mut Spool,
        played: Option<&PlayedTurn<G>>,
        referee: &Referee<G>,
    ) {
        match played {
            None => spool.push_position(&self.start(referee, None)),
            Some(played) => spool.push_position(&self.after(played, referee, None)),
        }
    }

    fn print<G: Game>(&self, referee: &Referee<G>, spool: Spool, _: &str) -> Result<Exit, Failure> {
        self.print_positions(referee, spool)
    }
}

impl Replay {
    /// The position before the first turn.
    fn start<G: Game>(&self, start: &Referee<G>, wallet: Option<&Wallet>) -> JsonPosition {
        JsonPosition {
            turn: 0,
            side: None,
            actions: Vec::new(),
            chance: Vec::new(),
            summary: G::summary(start.state()),
            diagram: self.drawn(start, wallet),
            body: String::new(),
        }
    }

    /// The position after the turn `played`.
    fn after<G: Game>(
        &self,
        played: &PlayedTurn<G>,
        referee: &Referee<G>,
        wallet: Option<&Wallet>,
    ) -> JsonPosition {
        JsonPosition {
            turn: played.number,
            side: Some(played.side.name::<G>().into()),
            actions: played.actions.iter().map(action_text::<G>).collect(),
            chance: played
                .chance
                .iter()
                .map(|c| format!("{}={}", c.label, c.text))
                .collect(),
            summary: G::summary(referee.state()),
            diagram: self.drawn(referee, wallet),
            body: played.body(),
        }
    }

    /// Print the `positions` of the record replayed (`referee` after
    /// its last turn), as text or JSON, as they are read back.
    fn print_positions<G: Game>(
        &self,
        referee: &Referee<G>,
        positions: Spool,
    ) -> Result<Exit, Failure> {
        let mut printer = Printer::default();
        let read = positions
            .values::<(JsonPosition, String)>()?
            .map(|p| p.map(|(position, body)| JsonPosition { body, ..position }));
        match self.format {
            Format::Json => {
                let positions = read.map(|p| {
                    p.map(|mut p| {
                        p.diagram = plain(&p.diagram);
                        p
                    })
                });
                serde_json::to_writer_pretty(
                    &mut printer,
                    &JsonReplay {
                        schema: SCHEMA_VERSION,
                        ok: true,
                        game: G::ID,
                        result: referee.result(),
                        positions: Items(std::cell::Cell::new(Some(positions))),
                    },
                )
                .map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
                printer.print("\n")?;
            }
            Format::Text | Format::Svg => {
                for p in read {
                    printer.print(&replay_text::<G>(&p.map_err(spool_failure)?))?;
                }
            }
        }
        printer.finish()?;
        Ok(Exit::Ok)
    }

    /// The diagram of what the key's holder sees (the key file was
    /// checked at the start), or of the record's position.
    fn drawn<G: Game>(&self, referee: &Referee<G>, wallet: Option<&Wallet>) -> String {
        let seen = match wallet {
            Some(w) => referee
                .view(Keys::as_shown(w))
                .unwrap_or_else(|_| referee.state().clone()),
            None => referee.state().clone(),
        };
        referee.diagram_with_step(&seen, self.style, |t| fit(&t.to_string(), "  "))
    }
}

/// What a reader prints, written to an unnamed temporary file as the
/// record is played and read back once it replayed to its end: an
/// output that begins with what only the record's end knows (its
/// result) and is printed only for a good record, never held whole
/// (`replay`'s diagrams, some kilobytes a turn; `annotate`'s lines).
struct Spool {
    file: std::io::BufWriter<std::fs::File>,
    /// The first error writing, reported when the spool is read.
    failed: Option<std::io::Error>,
}

impl Spool {
    fn new() -> Result<Self, Failure> {
        let file = tempfile::tempfile().map_err(spool_failure)?;
        Ok(Spool {
            file: std::io::BufWriter::new(file),
            failed: None,
        })
    }

    /// Write `value` as a JSON value on a line of its own.
    fn push_json<T: Serialize>(&mut self, value: &T) {
        self.write(|file| {
            serde_json::to_writer(&mut *file, value)?;
            std::io::Write::write_all(file, b"\n")
        });
    }

    /// Write `text`.
    fn push_text(&mut self, text: &str) {
        self.write(|file| std::io::Write::write_all(file, text.as_bytes()));
    }

    fn write(
        &mut self,
        write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
    ) {
        if self.failed.is_none() {
            self.failed = write(&mut self.file).err();
        }
    }

    /// What was written, from its start.
    fn reader(self) -> Result<std::io::BufReader<std::fs::File>, Failure> {
        if let Some(e) = self.failed {
            return Err(spool_failure(e));
        }
        let mut file = self
            .file
            .into_inner()
            .map_err(|e| spool_failure(e.into_error()))?;
        std::io::Seek::rewind(&mut file).map_err(spool_failure)?;
        Ok(std::io::BufReader::new(file))
    }

    /// The JSON values written, in order.
    fn values<T: serde::de::DeserializeOwned>(
        self,
    ) -> Result<impl Iterator<Item = Result<T, serde_json::Error>>, Failure> {
        Ok(serde_json::Deserializer::from_reader(self.reader()?).into_iter::<T>())
    }
}

impl Spool {
    /// Write `replay`'s `position`, its body too (which the JSON output
    /// skips).
    fn push_position(&mut self, position: &JsonPosition) {
        self.push_json(&(position, &position.body));
    }
}

/// A reader whose output waits in a [`Spool`] until the record replayed
/// to its end (`replay`, `annotate`).
trait Spooled {
    /// What its replay keeps.
    const KEEP: Keep;
    /// Write what it prints of the turn `played` (`None`: the start),
    /// `referee` after it.
    fn push<G: Game>(
        &self,
        spool: &mut Spool,
        played: Option<&PlayedTurn<G>>,
        referee: &Referee<G>,
    );
    /// Print what was written, or write it where asked, for the record
    /// read from `origin` (`referee` after its last turn).
    fn print<G: Game>(
        &self,
        referee: &Referee<G>,
        spool: Spool,
        origin: &str,
    ) -> Result<Exit, Failure>;
}

/// A [`Spooled`] reader of a plain record read a part at a time.
struct Spooling<S>(S);

impl<S: Spooled> Streamed for Spooling<S> {
    type Output = Exit;

    fn replay<G: Game, R: std::io::BufRead>(
        self,
        reader: record::stream::Reader<R>,
        origin: &str,
        again: Option<std::sync::Arc<dyn crate::referee::Reread>>,
    ) -> Result<Option<Exit>, Failure> {
        let mut spool = Spool::new()?;
        let keep = S::KEEP.on(super::context::reader_today());
        let replayed =
            crate::referee::Replay::<G>::check_each(reader, keep, again, |played, referee| {
                self.0.push(&mut spool, played, referee)
            });
        match replayed {
            Ok(referee) => self.0.print(&referee, spool, origin).map(Some),
            Err(stop) => super::stream::stopped(*stop, origin),
        }
    }
}

/// A failure of the temporary file a reader's output waits in.
pub(super) fn spool_failure(e: impl std::fmt::Display) -> Failure {
    Failure::usage(format!("cannot keep the output in a temporary file: {e}"))
}

/// `replay`'s text: a position's diagram under its turn.
fn replay_text<G: Game>(p: &JsonPosition) -> String {
    let mut text = String::new();
    match &p.side {
        None => text.push_str(&format!("== Start: {}\n\n", G::TITLE)),
        Some(side) => {
            text.push_str(&fit(&format!("== {}. {side}: {}", p.turn, p.body), "     "));
            text.push('\n');
        }
    }
    text.push_str(&p.diagram);
    text.push('\n');
    text
}

// ---------------------------------------------------------------- annotate

#[derive(Clone)]
struct Annotate {
    format: Format,
    output: Option<PathBuf>,
}

#[derive(Serialize, serde::Deserialize)]
struct JsonAnnotated {
    turn: u32,
    side: String,
    line: String,
    comment: String,
}

#[derive(Serialize)]
struct JsonAnnotate<T: Serialize> {
    schema: u32,
    /// Always true: a failure prints the error object instead.
    ok: bool,
    game: &'static str,
    result: String,
    turns: T,
}

impl RecordCommand for Annotate {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let mut lines = Spool::new()?;
        let referee = replay_all::<G>(ctx, Annotate::KEEP, |played, referee| {
            self.push_line(&mut lines, played, referee);
        })?;
        self.print_lines(&referee, lines, &ctx.origin)
    }
}

/// `annotate` of a plain record read a part at a time: the same output
/// as [`Annotate::run`] of the record read whole, each line written to a
/// [`Spool`] as it is played and printed (or written to `-o`) once the
/// record is known good.
impl Spooled for Annotate {
    const KEEP: Keep = Keep {
        before: true,
        ..Keep::RULES
    };

    fn push<G: Game>(
        &self,
        spool: &mut Spool,
        played: Option<&PlayedTurn<G>>,
        referee: &Referee<G>,
    ) {
        if let Some(played) = played {
            self.push_line(spool, played, referee);
        }
    }

    fn print<G: Game>(
        &self,
        referee: &Referee<G>,
        spool: Spool,
        origin: &str,
    ) -> Result<Exit, Failure> {
        self.print_lines(referee, spool, origin)
    }
}

impl Annotate {
    /// Write the line `played` with its comment (`referee` after it): as
    /// JSON, or as the record's line.
    fn push_line<G: Game>(&self, lines: &mut Spool, played: &PlayedTurn<G>, referee: &Referee<G>) {
        let comment = line_comment(referee, played);
        if self.format == Format::Json {
            lines.push_json(&JsonAnnotated {
                turn: played.number,
                side: played.side.name::<G>().into(),
                line: played.body(),
                comment,
            });
            return;
        }
        let text = TurnText {
            comment: (!comment.is_empty()).then_some(comment),
            ..played.text()
        };
        let mut line = String::new();
        record::write_turn(&text, &mut line);
        lines.push_text(&line);
    }

    /// Print the annotated record (`referee` after its last turn, its
    /// `lines` as written), or write it to `-o`.
    fn print_lines<G: Game>(
        &self,
        referee: &Referee<G>,
        lines: Spool,
        origin: &str,
    ) -> Result<Exit, Failure> {
        let result = referee.result();
        let mut printer = Printer::default();
        if self.format == Format::Json {
            serde_json::to_writer_pretty(
                &mut printer,
                &JsonAnnotate {
                    schema: SCHEMA_VERSION,
                    ok: true,
                    game: G::ID,
                    result,
                    turns: Items(std::cell::Cell::new(Some(lines.values::<JsonAnnotated>()?))),
                },
            )
            .map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
            printer.print("\n")?;
            return printer.finish().map(|()| Exit::Ok);
        }
        let mut head = String::new();
        referee.header().write(&result, &mut head);
        head.push('\n');
        let mut lines = lines.reader()?;
        match &self.output {
            Some(path) if path.as_os_str() != "-" => {
                files::write_new_from(path, &mut std::io::Read::chain(head.as_bytes(), lines))?;
                out(&format!(
                    "wrote the annotated record of {origin} to {}\n",
                    path.display()
                ))?;
            }
            _ => {
                printer.print(&head)?;
                std::io::copy(&mut lines, &mut printer).map_err(spool_failure)?;
                printer.finish()?;
            }
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- legal

#[derive(Clone)]
struct Legal {
    format: Format,
    key: Option<PathBuf>,
    /// `--hand-key`: the key file of the side holding the hand.
    hand_key: Option<PathBuf>,
    /// The first actions of the turn, as typed: list what remains.
    after: Option<String>,
}

#[derive(Serialize)]
struct JsonAction {
    action: String,
    cost: Option<u32>,
}

#[derive(Serialize)]
struct JsonLegal {
    schema: u32,
    /// Always true: a failure prints the error object instead.
    ok: bool,
    game: &'static str,
    turn: u32,
    to_move: Option<String>,
    note: Option<String>,
    chance: Vec<JsonChance>,
    /// The actions of `--after`, as herald writes them (empty without).
    after: Vec<String>,
    actions: Vec<JsonAction>,
}

/// A chance value the mover gets at the start of the turn.
#[derive(Serialize)]
struct JsonChance {
    label: &'static str,
    value: String,
}

impl RecordCommand for Legal {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let wallet = self.key.as_deref().map(read_wallet).transpose()?;
        // What the player checked before writing its last line is not
        // verified again (spec section 3.8).
        let sent = wallet.as_ref().and_then(Wallet::sent);
        let mut referee = super::sent::replay_from_sent::<G>(ctx, Keep::RULES, sent, |_, _| {})?;
        if let (Some(w), Some(path)) = (&wallet, self.key.as_deref()) {
            super::sent::refuse_for_key_file(&referee, w, Some(path), ctx)?;
            // The claimed side lists the turn it may still answer a claim
            // made in play with (spec section 3.8).
            referee.answerable_by(w);
        }
        self.answer(&referee, wallet.as_ref(), ctx.named())
    }
}

/// `legal` of a plain record read a part at a time (without a key file):
/// the same output as [`Legal::run`] of the record read whole.
impl AfterCheck for Legal {
    type Output = Exit;

    fn after<G: Game>(self, named: Named<'_>, referee: &Referee<G>) -> Result<Exit, Failure> {
        self.answer(referee, None, named)
    }
}

impl Legal {
    /// List what the turn due allows after the record's last line, seen
    /// with `wallet` (the key file given, read and checked).
    fn answer<G: Game>(
        &self,
        referee: &Referee<G>,
        wallet: Option<&Wallet>,
        named: Named<'_>,
    ) -> Result<Exit, Failure> {
        let hand = read_hand_key(self.hand_key.as_deref())?;
        let preview = referee
            .preview_for(Keys::given(wallet, hand.as_ref()))
            .map_err(|e| compose_failure_in(e, self.key.as_deref(), named.origin))?;
        let listed = self.listed(referee, &preview, named)?;
        match self.format {
            Format::Json => print_json(&JsonLegal {
                schema: SCHEMA_VERSION,
                ok: true,
                game: G::ID,
                turn: referee.next_turn(),
                to_move: referee.side_due().map(|s| s.name::<G>().to_owned()),
                note: listed.note.as_ref().map(ToString::to_string),
                chance: listed.chance,
                after: listed.after,
                actions: listed.actions,
            })?,
            Format::Text | Format::Svg => out(&self.text(referee, listed, named))?,
        }
        Ok(Exit::Ok)
    }
}

/// What `legal` lists, worked out by the referee: the chance the turn
/// starts with, the note, the actions of `--after` and the actions
/// legal (with their costs); `listed`: whether there is a position to
/// list them from at all.
struct Listed {
    chance: Vec<JsonChance>,
    note: Option<Said>,
    after: Vec<String>,
    actions: Vec<JsonAction>,
    listed: bool,
}

impl Legal {
    /// What the turn due lists, as `preview` shows it, or after the
    /// actions of `--after` ([`Referee::legal_after`]).
    fn listed<G: Game>(
        &self,
        referee: &Referee<G>,
        preview: &Preview<G>,
        named: Named<'_>,
    ) -> Result<Listed, Failure> {
        let chance = match preview {
            Preview::Actions { chance, .. } => chance
                .iter()
                .map(|e| JsonChance {
                    label: e.label,
                    value: e.text.clone(),
                })
                .collect(),
            _ => Vec::new(),
        };
        let with_costs = |state: &G::State, list: &[G::Action]| {
            list.iter()
                .map(|a| JsonAction {
                    action: action_text::<G>(a),
                    cost: G::action_cost(state, a),
                })
                .collect()
        };
        let Some(text) = &self.after else {
            return Ok(Listed {
                chance,
                note: referee.legal_note(preview),
                after: Vec::new(),
                actions: preview
                    .state()
                    .map_or_else(Vec::new, |s| with_costs(s, preview.legal_actions())),
                listed: preview.state().is_some(),
            });
        };
        let after = referee
            .legal_after(preview, text)
            .map_err(|e| typed_failure_in(e, self.key.as_deref(), named.origin))?;
        Ok(Listed {
            chance,
            note: Some(after.note),
            after: after.made.iter().map(action_text::<G>).collect(),
            actions: with_costs(&after.state, &after.rest),
            listed: true,
        })
    }

    /// `legal`'s text: what is due and whose the actions are, then the
    /// actions of `--after`, the note, the chance and the actions.
    fn text<G: Game>(&self, referee: &Referee<G>, mut listed: Listed, named: Named<'_>) -> String {
        let mut text = self.head(referee, &mut listed, named);
        if !listed.after.is_empty() {
            text.push_str(&fit(&format!("After: {}", listed.after.join(", ")), "  "));
        }
        if let Some(n) = &listed.note {
            text.push_str(&fit(&name_record(&n.clone().after("Note: "), named), "  "));
        }
        for c in &listed.chance {
            text.push_str(&fit(&format!("Chance: {} {}", c.label, c.value), "  "));
        }
        for a in &listed.actions {
            match a.cost {
                Some(c) => text.push_str(&format!("  {:<16} cost {c}\n", a.action)),
                None => text.push_str(&format!("  {}\n", a.action)),
            }
        }
        text
    }

    /// The lines over the actions: the step due when it is not the
    /// turn's (keys before turn 1, a set-up or closing line, a claim's
    /// answer), and whose actions are listed, or why none are (the note
    /// said there, taken out of `listed`).
    fn head<G: Game>(&self, referee: &Referee<G>, listed: &mut Listed, named: Named<'_>) -> String {
        let mut text = String::new();
        let count = listed.actions.len();
        let turn = referee.next_turn();
        let to_move = referee.side_due().map(|s| s.name::<G>().to_owned());
        let step = referee
            .step_due()
            .filter(|d| d.step != Step::Turn || referee.open_claim().is_some());
        if let Some(due) = step
            .as_ref()
            .filter(|d| d.step == Step::Keygen && d.line.starts_with("turn"))
        {
            // Keys before turn 1: what is due, then the turn that
            // waits for them.
            text.push_str(&fit(&name_record(&due.text, named), "  "));
            if let Some(side) = &to_move {
                let head = format!("{side}, once every key is in");
                text.push_str(&actions_head(turn, &head, count));
            }
        } else if let Some(due) = &step {
            let head = format!(
                "{}, {}: ",
                crate::referee::capital(&due.line),
                due.side.name::<G>()
            );
            text.push_str(&fit(
                &name_record(&due.text.clone().after(&head), named),
                "  ",
            ));
            // A claim its target may still answer: that answer is due;
            // the actions listed are the next side's, for when the claim
            // stands.
            if let (Some(side), Some(_), false) = (&to_move, referee.open_claim(), count == 0) {
                let head = format!("{side}, once the claim stands");
                text.push_str(&actions_head(turn, &head, count));
            }
        } else if let (Some(side), false) = (&to_move, listed.listed) {
            // Nothing to list from (hidden cards without the key, chance
            // only the mover's key settles): say what is needed, not "0
            // legal actions".
            let record = match named.origin {
                "<stdin>" => "RECORD",
                origin => origin,
            };
            let with_key = match &self.key {
                None => with_key_file(record),
                Some(_) => String::new(),
            };
            text.push_str(&fit(
                &format!(
                    "Turn {turn}, {side}: no actions listed: {}{with_key}",
                    listed
                        .note
                        .take()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                ),
                "  ",
            ));
        } else if let Some(side) = &to_move {
            text.push_str(&actions_head(turn, side, count));
        }
        text
    }
}

/// What lists the actions where a key file is needed for them, on
/// `record` (the file read): `legal` or `show` with `--key`.
fn with_key_file(record: &str) -> String {
    let with = |command: crate::referee::Command| command.on_record().key_file("KEYFILE");
    Said::words(" (")
        .command(with(crate::referee::Command::legal()))
        .and(", or ")
        .command(with(crate::referee::Command::show()))
        .and(" for the whole turn: hand, roll and actions)")
        .write(&Writing {
            record,
            reply: false,
            send: false,
        })
}

/// `legal`'s line over the actions listed: `Turn 14, Blue: 6 legal
/// actions`, `who` the side and what the list waits for, if anything.
fn actions_head(turn: u32, who: &str, count: usize) -> String {
    let plural = if count == 1 { "" } else { "s" };
    format!("Turn {turn}, {who}: {count} legal action{plural}\n")
}

/// What the referee said, its commands written on the file read (left as
/// `RECORD` for standard input); when that file is an email message,
/// each command that writes the next step on it answers it with a reply,
/// as herald never rewrites a message ([`Writing`]).
fn name_record(said: &Said, named: Named<'_>) -> String {
    match named.origin {
        "<stdin>" => said.to_string(),
        origin => {
            // A command names the file alone, as a shell reads it: not
            // the part of a message or mailbox it was found in.
            let file = record_file_of(origin);
            said.write(&Writing {
                record: &file,
                reply: matches!(named.answer, Answer::ByReply),
                send: false,
            })
        }
    }
}

/// The file an origin (`files::found_origin`: `m0.eml [the body,
/// text/plain, quoted-printable, decoded]`, `box.mbox, message 3`) names,
/// as one shell word.
fn record_file_of(origin: &str) -> String {
    let mut file = origin;
    if file.ends_with(']') {
        if let Some(k) = file.rfind(" [") {
            file = &file[..k];
        }
    }
    if let Some((before, n)) = file.rsplit_once(", message ") {
        if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
            file = before;
        }
    }
    super::sent::shell_word(file)
}

// ---------------------------------------------------------------- hand

struct Hand {
    format: Format,
    key: PathBuf,
    /// `--hand-key`: the key file of the side holding the hand.
    hand_key: Option<PathBuf>,
}

#[derive(Serialize)]
struct JsonCard {
    position: u32,
    card: String,
    /// Drawn at the start of the side's turn now due.
    drawn: bool,
}

#[derive(Serialize)]
struct JsonHand {
    schema: u32,
    /// Always true: a failure prints the error object instead.
    ok: bool,
    game: &'static str,
    side: String,
    cards: Vec<JsonCard>,
}

impl RecordCommand for Hand {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let mut referee = replay_all::<G>(ctx, Keep::RULES, |_, _| {})?;
        let wallet = read_wallet(&self.key)?;
        super::sent::refuse_for_key_file(&referee, &wallet, Some(&self.key), ctx)?;
        // The claimed side holds the hand it may still answer a claim
        // made in play with, as `show` and `legal` see it (spec section
        // 3.8).
        referee.answerable_by(&wallet);
        let side = referee
            .header()
            .side_named::<G>(wallet.side())
            .ok_or_else(|| {
                Failure::usage(format!(
                    "{} is a key for {}, not for a side of this game",
                    self.key.display(),
                    wallet.side()
                ))
            })?;
        let hand_key = read_hand_key(self.hand_key.as_deref())?;
        let hand = referee
            .hand_cards(side, Keys::given(Some(&wallet), hand_key.as_ref()))
            .map_err(|e| compose_failure(e, Some(&self.key), ctx))?;
        let cards: Vec<JsonCard> = hand
            .iter()
            .map(|c| JsonCard {
                position: c.position,
                card: G::card_text(c.card),
                drawn: c.drawn,
            })
            .collect();
        let name = side.name::<G>();
        match self.format {
            Format::Json => print_json(&JsonHand {
                schema: SCHEMA_VERSION,
                ok: true,
                game: G::ID,
                side: name.into(),
                cards,
            })?,
            Format::Text | Format::Svg => {
                let mut text = format!(
                    "{name}'s hand: {} card{} (from {name}'s key file: nobody else can see it)\n",
                    cards.len(),
                    if cards.len() == 1 { "" } else { "s" }
                );
                for c in &cards {
                    let drawn = if c.drawn { "  (drawn this turn)" } else { "" };
                    text.push_str(&format!(
                        "  {:<12} deck position {}{drawn}\n",
                        c.card, c.position
                    ));
                }
                out(&text)?;
            }
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- fate

#[derive(Clone)]
struct Fate {
    format: Format,
    key: Option<PathBuf>,
}

impl Fate {
    /// What `fate`'s replay keeps: the chance values too.
    const KEEP: Keep = Keep {
        chance: true,
        ..Keep::RULES
    };
}

#[derive(Serialize)]
struct JsonNext {
    label: &'static str,
    value: String,
}

/// What the holder of the key at `path` will get on its next line, as far
/// as it can know now: the chance values (when its line is due), and a
/// note otherwise.
fn next_chance<G: Game>(
    referee: &Referee<G>,
    path: &Path,
    ctx: &Ctx<'_>,
) -> Result<(Vec<JsonNext>, String), Failure> {
    let wallet = read_wallet(path)?;
    super::sent::refuse_for_key_file(referee, &wallet, Some(path), ctx)?;
    referee
        .view(Keys::as_shown(&wallet))
        .map_err(|e| compose_failure(e, Some(path), ctx))?;
    let mine = referee
        .side_due()
        .is_some_and(|s| s.name::<G>().eq_ignore_ascii_case(wallet.side()));
    if !mine {
        return Ok((
            Vec::new(),
            format!(
                "{}'s next chance is not known yet: it comes from its reveal and the others' latest when its line is due",
                wallet.side()
            ),
        ));
    }
    let preview = referee
        .preview_for(Keys::as_shown(&wallet))
        .map_err(|e| compose_failure(e, Some(path), ctx))?;
    let next: Vec<JsonNext> = match &preview {
        Preview::Actions { chance, .. } => chance
            .iter()
            .map(|c| JsonNext {
                label: c.label,
                value: c.text.clone(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let note = match (next.is_empty(), preview.note()) {
        (false, _) => format!(
            "{}'s next line (turn {}) gets {}",
            wallet.side(),
            referee.next_turn(),
            next.iter()
                .map(|n| format!("{}={}", n.label, n.value))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (true, Some(note)) => note.to_string(),
        (true, None) => format!("{}'s next line draws no chance", wallet.side()),
    };
    Ok((next, note))
}

#[derive(Serialize)]
struct JsonEvent {
    turn: u32,
    declared: Option<u32>,
    label: &'static str,
    reveals_of: Vec<String>,
    value: String,
}

#[derive(Serialize)]
struct JsonFate<E: Serialize> {
    schema: u32,
    /// Always true: a failure prints the error object instead.
    ok: bool,
    game: &'static str,
    events: E,
    pending: Vec<JsonPending>,
    /// With `--key`: the chance the holder's next line gets, when due.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<Vec<JsonNext>>,
}

impl RecordCommand for Fate {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let referee = replay_all::<G>(ctx, Fate::KEEP, |_, _| {})?;
        let next = match self.key.as_deref() {
            Some(path) => Some(next_chance(&referee, path, ctx)?),
            None => None,
        };
        self.answer(&referee, referee.chance().iter().cloned(), next)
    }
}

/// `fate` of a plain record read a part at a time (without a key file):
/// the same output as [`Fate::run`] of the record read whole, the chance
/// values kept compactly meanwhile ([`ChanceLog`]).
impl AfterChance for Fate {
    type Output = Exit;

    fn after<G: Game>(
        self,
        _: Named<'_>,
        referee: &Referee<G>,
        log: &ChanceLog,
    ) -> Result<Exit, Failure> {
        self.answer(referee, log.iter(), None)
    }
}

impl Fate {
    /// Print the chance `events` of the record replayed (`referee` after
    /// its last turn), and `next`, what the key file's side gets next
    /// (with `--key`); printed as they are made.
    fn answer<G: Game>(
        &self,
        referee: &Referee<G>,
        events: impl Iterator<Item = ChanceEvent>,
        next: Option<(Vec<JsonNext>, String)>,
    ) -> Result<Exit, Failure> {
        let mut printer = Printer::default();
        match self.format {
            Format::Json => {
                let events = events.map(|e| JsonEvent {
                    turn: e.turn,
                    declared: e.declared,
                    label: e.label,
                    reveals_of: e.reveals_of,
                    value: e.text,
                });
                serde_json::to_writer_pretty(
                    &mut printer,
                    &JsonFate {
                        schema: SCHEMA_VERSION,
                        ok: true,
                        game: G::ID,
                        events: Items(std::cell::Cell::new(Some(
                            events.map(Ok::<_, std::convert::Infallible>),
                        ))),
                        pending: pending_json(referee),
                        next: next.map(|(n, _)| n),
                    },
                )
                .map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
                printer.print("\n")?;
            }
            Format::Text | Format::Svg => {
                let mut none = true;
                for e in events {
                    none = false;
                    let when = match e.declared {
                        Some(d) => format!("turn {} (declared on turn {d})", e.turn),
                        None => format!("turn {}", e.turn),
                    };
                    printer.print(&fit(
                        &format!(
                            "{when}: {}={}, from the reveals of {}",
                            e.label,
                            e.text,
                            e.reveals_of.join(", ")
                        ),
                        "  ",
                    ))?;
                }
                if none {
                    printer.print("No chance events in this record.\n")?;
                }
                printer.print(&pending_text(referee))?;
                if let Some((_, note)) = next {
                    printer.print(&format!("Next: {note}\n"))?;
                }
            }
        }
        printer.finish()?;
        Ok(Exit::Ok)
    }
}

/// A typed line (`move`, `legal --after`) that cannot be composed, as the
/// player should see it: a problem in the line is placed on line 1 of
/// `<turn>`.
pub(super) fn typed_failure(e: TypedError, key: Option<&Path>, ctx: &Ctx<'_>) -> Failure {
    typed_failure_in(e, key, &ctx.origin)
}

/// [`typed_failure`] on the record read from `origin`.
fn typed_failure_in(e: TypedError, key: Option<&Path>, origin: &str) -> Failure {
    match e {
        TypedError::Usage(m) => Failure::usage(m),
        TypedError::Stale(m) => Failure::invalid(Problem::plain(ErrorKind::Record, m), origin),
        TypedError::InLine(placed) => {
            let (error, typed) = *placed;
            let mut p = Problem::from_referee(&error, typed.source());
            if let Some(pos) = &mut p.position {
                pos.line = 1;
            }
            Failure::invalid(p, "<turn>")
        }
        TypedError::Compose(e) => super::context::compose_failure_in(e, key, origin),
    }
}

/// `--send`: send the message just written, last, once every file is
/// written: a message that cannot go is kept, to be sent again as it is
/// (`herald send FILE`).
pub(super) fn send_if_asked(
    reply: Option<&super::mail::Reply>,
    format: Format,
) -> Result<(), Failure> {
    if let Some(reply) = reply.filter(|r| r.send) {
        let sent = super::transport::send::send_written(reply.config.as_deref(), &reply.output)?;
        match format {
            Format::Json => super::report::eprint_note(sent.trim_end()),
            Format::Text | Format::Svg => out(&sent)?,
        }
    }
    Ok(())
}

/// The line a dry run shows: `played` without its signature, saying so
/// on standard error when it had one.
pub(super) fn dry_run_line<G: Game>(played: &PlayedTurn<G>) -> String {
    match played.unsigned_line() {
        Some(line) => {
            super::report::eprint_note(
                "a dry run shows the line without its signature: herald signs only the line it writes",
            );
            line
        }
        None => played.line(),
    }
}

// ---------------------------------------------------------------- keygen

/// Write `tags` into the record's header after the last tag before
/// Result (Result stays last), atomically.
fn add_tags(ctx: &Ctx<'_>, tags: &[(&str, &str)]) -> Result<(), Failure> {
    refuse_message(
        ctx,
        crate::referee::Command::keygen("SIDE").key_file("SIDE.key"),
    )?;
    let text = record::Splice::new()
        .tags(tags)
        .in_place(ctx.source, ctx.record);
    files::rewrite(ctx.path, ctx.stamp.as_ref(), text.as_bytes())
}

/// A side's new key (`keygen`, `new --key`) and the two header tags that
/// carry it, `<Side>Commit` and `<Side>Key`.
pub(super) struct NewKey {
    pub(super) wallet: Wallet,
    /// The tags' names and values.
    names: [String; 2],
    values: [String; 2],
}

impl NewKey {
    /// A fresh key for `side` in the game `header` heads.
    pub(super) fn generate<G: Game>(
        header: &crate::referee::header::Header,
        side: game::Side,
    ) -> Result<NewKey, Failure> {
        let name = side.name::<G>();
        let wallet = Wallet::generate(G::ID, name, *header.chain_id(), header.protocol())
            .map_err(|e| Failure::usage(e.0))?;
        Ok(NewKey::of(wallet, name))
    }

    /// The tags of the key `wallet` already holds, side `name`'s.
    pub(super) fn of(wallet: Wallet, name: &str) -> NewKey {
        let values = [
            hex::encode(wallet.commit()),
            hex::encode(wallet.public_key()),
        ];
        NewKey {
            wallet,
            names: [format!("{name}Commit"), format!("{name}Key")],
            values,
        }
    }

    /// The tags, name and value, Commit first.
    pub(super) fn tags(&self) -> [(&str, &str); 2] {
        [0, 1].map(|i| (self.names[i].as_str(), self.values[i].as_str()))
    }
}

/// The referee of a record herald is about to write (`text`: a header,
/// perhaps with its new tags, and the lines so far), read back as any
/// reader will, every line replayed.
fn referee_of<G: Game>(text: &str) -> Result<Referee<G>, Failure> {
    let source = Source::new(text.as_bytes()).map_err(|e| Failure::usage(e.message))?;
    let parsed = record::parse(&source).map_err(|e| Failure::usage(e.message))?;
    crate::referee::replay_keeping::<G>(&parsed, Keep::RULES, |_, _| {})
        .map_err(|e| Failure::usage(e.message))
}

/// The answer to a message for `keygen`.
struct Keygen {
    side: String,
    /// The key file to write.
    output: PathBuf,
    print: bool,
    /// `--reply -o FILE`: the message that carries the tags.
    reply: Option<super::mail::Reply>,
}

impl RecordCommand for Keygen {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let referee = Referee::<G>::start(ctx.record).map_err(|e| ctx.problem(&e))?;
        let Some(side) = referee.header().side_named::<G>(&self.side) else {
            return Err(Failure::usage(format!(
                "`{}` is not a side of this game: the sides are {}",
                self.side,
                referee.header().side_list::<G>()
            )));
        };
        if let Some(why) = referee.key_refused(ctx.record, side) {
            return Err(Failure::usage(why.write(&super::sent::as_read(ctx))));
        }
        let name = side.name::<G>();
        let from_message = ctx.source.from_message();
        if from_message && self.reply.is_none() && !self.print {
            // Before the key file is written: a message is left as it was
            // received, and the reply carries the tags.
            let answer = crate::referee::Command::keygen(name)
                .key_file(&format!("{}.key", name.to_ascii_lowercase()));
            refuse_message(ctx, answer)?;
        }
        if let Some(reply) = &self.reply {
            files::refuse_existing(&reply.output)?;
        }
        let existing = self.existing_key::<G>(&referee, side);
        let joins_again = existing.is_some();
        let new_key = match existing {
            Some(wallet) => NewKey::of(wallet, name),
            None => NewKey::generate::<G>(referee.header(), side)?,
        };
        let tags = new_key.tags();
        // The record and the message the tags go out in, read back as any
        // reader will, before anything is written.
        let after = record::Splice::new()
            .tags(&tags)
            .extracted(ctx.source, ctx.record);
        let next = referee_of::<G>(&after)?;
        if !joins_again {
            files::write_new_private(&self.output, new_key.wallet.to_text().as_bytes())?;
        }
        let added = Added {
            name,
            tags: &tags,
            joins_again,
        };
        match &self.reply {
            Some(reply) => self.reply_with_tags(ctx, reply, &next, side, &after, &added),
            None if self.print => out(&format!(
                "{}\nadd these tags to the record's header before turn 1:\n{}",
                self.wrote(&added),
                added.lines()
            )),
            None => {
                add_tags(ctx, &tags).inspect_err(|_| self.forget_key(&added))?;
                out(&format!(
                    "{}\nadded to {}:\n{}",
                    self.wrote(&added),
                    ctx.origin,
                    added.lines()
                ))
            }
        }?;
        Ok(Exit::Ok)
    }
}

/// The key `keygen` adds: its side, its tags, and whether its key file
/// was there already (made on another copy of the game).
struct Added<'a> {
    name: &'a str,
    tags: &'a [(&'a str, &'a str)],
    joins_again: bool,
}

impl Added<'_> {
    /// The tags as the header holds them, one a line.
    fn lines(&self) -> String {
        let mut lines = String::new();
        record::write_tags(self.tags.iter().copied(), &mut lines);
        lines
    }
}

impl Keygen {
    /// Protocol 3: a key file of this very side and game, made on another
    /// copy of the record (two sides' keys added at once), joins this
    /// copy too: the same key, never a second one. Anything else there is
    /// never overwritten (`files::write_new_private` refuses it).
    fn existing_key<G: Game>(&self, referee: &Referee<G>, side: game::Side) -> Option<Wallet> {
        if !self.output.exists() || !referee.header().protocol().keys_join_late() {
            return None;
        }
        let text = std::fs::read_to_string(&self.output).ok();
        text.and_then(|t| Wallet::parse(&t).ok()).filter(|wallet| {
            wallet.chain() == referee.header().chain_id()
                && wallet.side().eq_ignore_ascii_case(side.name::<G>())
                && wallet.game().eq_ignore_ascii_case(G::ID)
        })
    }

    /// A new key file goes on a later failure, and nothing is left that
    /// the record does not match (a key file that was there stays).
    fn forget_key(&self, added: &Added<'_>) {
        if !added.joins_again {
            let _ = std::fs::remove_file(&self.output);
        }
    }

    /// What was written of the key file.
    fn wrote(&self, added: &Added<'_>) -> String {
        let name = added.name;
        if added.joins_again {
            format!(
                "{} holds {name}'s key already (made on another copy of this game): its tags join this copy too, the same key",
                self.output.display()
            )
        } else {
            format!(
                "wrote {} (private: keep it, never send it)",
                self.output.display()
            )
        }
    }

    /// `--reply`: the tags added to the record file (a message is left
    /// as it was received), then the message that carries them (`after`,
    /// the record with them); each put back as it was when a later one
    /// cannot be written.
    fn reply_with_tags<G: Game>(
        &self,
        ctx: &Ctx<'_>,
        reply: &super::mail::Reply,
        next: &Referee<G>,
        side: game::Side,
        after: &str,
        added: &Added<'_>,
    ) -> Result<(), Failure> {
        let name = added.name;
        let from_message = ctx.source.from_message();
        let record_was = if from_message {
            None
        } else {
            let bytes = files::read_bytes(ctx.path).inspect_err(|_| self.forget_key(added))?;
            add_tags(ctx, added.tags).inspect_err(|_| self.forget_key(added))?;
            Some(bytes)
        };
        let what = format!("{name} added its key ({name}Commit and {name}Key)");
        super::mail::write_message(ctx, reply, next, side, &what, after).inspect_err(|_| {
            if let Some(bytes) = &record_was {
                let _ = files::rewrite(ctx.path, None, bytes);
            }
            self.forget_key(added);
        })?;
        let lines = added.lines();
        out(&format!(
            "{}\n{}\n",
            self.wrote(added),
            if from_message {
                format!(
                    "{} is left as it was received; the reply carries {name}'s tags:\n{}",
                    ctx.origin,
                    lines.trim_end()
                )
            } else {
                format!(
                    "added to {} and the reply:\n{}",
                    ctx.origin,
                    lines.trim_end()
                )
            }
        ))?;
        send_if_asked(Some(reply), Format::Text)
    }
}

// ---------------------------------------------------------------- new

struct New {
    sides: Vec<String>,
    options: Vec<String>,
    /// The `Deadline` tag's days.
    deadline: u16,
    output: Option<PathBuf>,
    /// `--key`: the creator's key file, made with the record.
    key: Option<PathBuf>,
    /// `--as`: the creator's side (default: the first).
    me: Option<String>,
    /// `--reply`: `output` is the first message.
    reply: bool,
    /// `--send` (with its `--config`): send the first message too.
    send: Option<Option<PathBuf>>,
    /// The creator's hidden choices, for its set-up line.
    choices: Vec<(&'static str, String)>,
    /// The `Protocol` tag's value, `3` or `2`.
    protocol: String,
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
    games::dispatch(id, IdVisit(command)).unwrap_or_else(|e| Err(unknown_game_argument(&e)))
}

/// The hidden choices given, as (option name, text), a maze read from
/// its file when given as `@FILE`.
fn choice_list(choices: super::args::SetupChoices) -> Result<Vec<(&'static str, String)>, Failure> {
    let maze = match choices.maze {
        Some(text) => Some(choice_text(&text)?),
        None => None,
    };
    Ok([
        ("army", choices.army),
        ("throws", choices.throws),
        ("maze", maze),
    ]
    .into_iter()
    .filter_map(|(name, text)| text.map(|t| (name, t)))
    .collect())
}

/// The side tags `--side SIDE=CONTACT` give, in the order given.
fn side_tags<G: Game>(specs: &[String]) -> Result<Vec<(String, String)>, Failure> {
    let mut tags: Vec<(String, String)> = Vec::new();
    for spec in specs {
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
        if let Some(fault) = crate::referee::contact_fault(contact.trim()) {
            return Err(Failure::usage(format!(
                "--side {canonical}: the contact {fault}"
            )));
        }
        tags.push((canonical.into(), contact.trim().into()));
    }
    Ok(tags)
}

/// Every option tag of `G`, as `--option NAME=VALUE` gives it or by
/// default (an empty value leaves the tag out).
fn option_tags<G: Game>(specs: &[String]) -> Result<Vec<(String, String)>, Failure> {
    let mut given: Vec<(&'static str, String)> = Vec::new();
    for spec in specs {
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
    let mut tags = Vec::new();
    for opt in G::OPTIONS {
        let value = given.iter().find(|(n, _)| *n == opt.name).map_or_else(
            || G::option_default(opt, &given).to_owned(),
            |(_, v)| v.clone(),
        );
        if !value.is_empty() {
            tags.push((opt.name.into(), value));
        }
    }
    Ok(tags)
}

/// A fresh random value for the `Nonce` tag (spec section 3.2): 16
/// bytes from the operating system, in hex. Part of the game id and the
/// chain id, so a rematch with the same players and tags shares no chain,
/// key or reveal with the game before.
fn nonce() -> Result<String, Failure> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| Failure::usage(format!("the operating system gave no random bytes: {e}")))?;
    Ok(hex::encode(bytes))
}

impl New {
    /// `new --key`: the record with the creator's key (its Commit and Key
    /// tags), the key file, and with `--reply` the first message. The key
    /// file is written first and taken away again if the record or the
    /// message cannot be.
    fn with_key<G: Game>(
        &self,
        referee: &Referee<G>,
        text: &str,
        key: &Path,
    ) -> Result<Exit, Failure> {
        let header = referee.header();
        let side = self.creator::<G>(header)?;
        let output = self.output.as_deref();
        if let Some(path) = output {
            files::refuse_existing(path)?;
        }
        let new_key = NewKey::generate::<G>(header, side)?;
        let tags = new_key.tags();
        let source = Source::new(text.as_bytes()).map_err(|e| Failure::usage(e.message))?;
        let parsed = record::parse(&source).map_err(|e| Failure::usage(e.message))?;
        let keyed = record::Splice::new()
            .tags(&tags)
            .extracted(&source, &parsed);
        let keyed_source = Source::new(keyed.as_bytes()).map_err(|e| Failure::usage(e.message))?;
        let keyed_record = record::parse(&keyed_source).map_err(|e| Failure::usage(e.message))?;
        let next = Referee::<G>::start(&keyed_record).map_err(|e| Failure::usage(e.message))?;
        files::write_new_private(key, new_key.wallet.to_text().as_bytes())?;
        let forget_key = || {
            let _ = std::fs::remove_file(key);
        };
        if next.setup_due().is_some() && header.protocol().keys_join_late() {
            if let Some(path) = output {
                return self
                    .with_setup_line::<G>(path, key, &keyed_source, &keyed_record, &keyed)
                    .inspect_err(|_| forget_key());
            }
        }
        let keyed = Keyed {
            source: &keyed_source,
            record: &keyed_record,
            text: &keyed,
            next: &next,
            side,
        };
        let wrote = self.write_keyed(&keyed).inspect_err(|_| forget_key())?;
        let message = format!(
            "wrote {} (private: keep it, never send it), {}'s key\n{wrote}\n",
            key.display(),
            side.name::<G>()
        );
        if output.is_some() {
            out(&message)?;
        } else {
            super::report::eprint_note(message.trim_end());
        }
        if let (Some(path), true) = (output, self.reply) {
            send_if_asked(Some(&self.first_message(path)), Format::Text)?;
        }
        Ok(Exit::Ok)
    }

    /// The creator's side: `--as`, else the first.
    fn creator<G: Game>(&self, header: &crate::referee::Header) -> Result<game::Side, Failure> {
        match &self.me {
            Some(name) => header.side_named::<G>(name).ok_or_else(|| {
                Failure::usage(format!(
                    "--as {name}: not a side of this game: the sides are {}",
                    header.side_list::<G>()
                ))
            }),
            None => Ok(header.sides()[0]),
        }
    }

    /// `--reply -o path`: the first message, sent too with `--send`.
    fn first_message(&self, path: &Path) -> super::mail::Reply {
        super::mail::Reply {
            output: path.to_path_buf(),
            send: self.send.is_some(),
            config: self.send.clone().flatten(),
        }
    }

    /// The new record with the creator's key written as asked: the first
    /// message, the record file, or printed; what was done, said.
    fn write_keyed<G: Game>(&self, keyed: &Keyed<'_, G>) -> Result<String, Failure> {
        Ok(match (self.output.as_deref(), self.reply) {
            (Some(path), true) => {
                let ctx = Ctx {
                    origin: path.display().to_string(),
                    path,
                    source: keyed.source,
                    record: keyed.record,
                    stamp: None,
                    read: false,
                };
                let name = keyed.side.name::<G>();
                let what =
                    format!("{name} began the game with its key ({name}Commit and {name}Key)");
                let reply = self.first_message(path);
                super::mail::write_message(
                    &ctx, &reply, keyed.next, keyed.side, &what, keyed.text,
                )?;
                format!(
                    "the first message, {}, carries the new record: keep it",
                    path.display()
                )
            }
            (Some(path), false) => {
                files::write_new(path, keyed.text.as_bytes())?;
                format!("wrote a new {} record to {}", G::TITLE, path.display())
            }
            (None, _) => {
                out(keyed.text)?;
                "printed the new record".into()
            }
        })
    }
}

/// The new record with the creator's key: its text, read back, and the
/// referee at its start.
struct Keyed<'a, G: Game> {
    source: &'a Source,
    record: &'a record::Record<'a>,
    text: &'a str,
    next: &'a Referee<G>,
    side: game::Side,
}

impl New {
    /// Protocol 3, a game with a set-up: the record begins with the
    /// creator's set-up line (its commitments), written by `herald setup`
    /// with the key file just made, into the record file `path` or, with
    /// `--reply`, the first message (`keyed`: the new record with the
    /// creator's tags).
    fn with_setup_line<G: Game>(
        &self,
        path: &Path,
        key: &Path,
        keyed_source: &Source,
        keyed_record: &record::Record<'_>,
        keyed: &str,
    ) -> Result<Exit, Failure> {
        let date = super::context::LineDate::read(None)?;
        let setup = |reply| super::setup::Setup {
            key: key.to_path_buf(),
            hand_key: None,
            choices: self.choices.clone(),
            dry_run: false,
            then: None,
            then_key: None,
            date,
            format: Format::Text,
            reply,
            side: None,
        };
        let wrote_key = || {
            out(&format!(
                "wrote {} (private: keep it, never send it), your key\n",
                key.display()
            ))
        };
        if !self.reply {
            files::write_new(path, keyed.as_bytes())?;
            with_record(path, Format::Text, setup(None)).inspect_err(|_| {
                let _ = std::fs::remove_file(path);
            })?;
            wrote_key()?;
            return Ok(Exit::Ok);
        }
        let ctx = Ctx {
            origin: path.display().to_string(),
            path,
            source: keyed_source,
            record: keyed_record,
            stamp: None,
            read: false,
        };
        let reply = super::mail::Reply {
            output: path.to_path_buf(),
            send: self.send.is_some(),
            config: self.send.clone().flatten(),
        };
        RecordCommand::run::<G>(setup(Some(reply)), &ctx)?;
        wrote_key()?;
        Ok(Exit::Ok)
    }
}

impl IdCommand for New {
    fn run<G: Game>(self) -> Result<Exit, Failure> {
        let mut tags: Vec<(String, String)> = vec![("Game".into(), G::ID.into())];
        tags.extend(side_tags::<G>(&self.sides)?);
        tags.extend(option_tags::<G>(&self.options)?);
        tags.push(("Deadline".into(), self.deadline.to_string()));
        tags.push(("Nonce".into(), nonce()?));
        // Keys made for this record bind each side's chain to its signing
        // key (spec section 3.1).
        tags.push((Protocol::TAG.into(), self.protocol.clone()));
        let mut text = String::new();
        record::write_header(
            tags.iter().map(|(n, v)| (n.as_str(), v.as_str())),
            "*",
            &mut text,
        );
        // Check the header as any reader will.
        let referee = referee_of::<G>(&text)?;
        // Written as every checked header is.
        let mut text = String::new();
        referee.header().write("*", &mut text);
        if let Some(key) = &self.key {
            return self.with_key::<G>(&referee, &text, key);
        }
        match &self.output {
            Some(path) if path.as_os_str() == "-" => out(&text)?,
            Some(path) => {
                files::write_new(path, text.as_bytes())?;
                let next = if referee.setup_due().is_some() {
                    "next: each player runs herald keygen, then herald setup (hidden \
                     choices come before turn 1)\n"
                } else {
                    ""
                };
                out(&format!(
                    "wrote a new {} record to {}\n{next}",
                    G::TITLE,
                    path.display()
                ))?;
            }
            None => out(&text)?,
        }
        Ok(Exit::Ok)
    }
}
