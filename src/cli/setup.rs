//! `herald setup`: the player's next set-up step (spec section 3.7). The
//! first call takes the player's hidden choices (`--army`, `--throws`),
//! keeps them in the key file and writes the commitments; a later call
//! writes the openings the rules call for once every side has committed.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::again::{first_mover_hint, write_line_again, write_past_claim, Again, Place};
use super::args::Format;
use super::chain::{Message, Part, Writer};
use super::commands::NewKey;
use super::context::{
    append_line_with_tags, compose_failure, pending_text, print_json, read_wallet_stamped, Ctx,
    RecordCommand, SCHEMA_VERSION,
};
use super::files;
use super::out;
use super::report::{Exit, Failure, Problem};
use crate::fairness::Hash;
use crate::game::{ChoiceDefault, Game, SetupChoice, Side};
use crate::record::{self, LineKind, Source};
use crate::referee::answer::Crossed;
use crate::referee::key_file::{self, claimant_of};
use crate::referee::{Command, ErrorKind, Keys, PlayedTurn, Referee, SetupStep, Writes};
use crate::wallet::{Sent, Wallet};

/// `herald setup`, its arguments read.
pub(super) struct Setup {
    /// The player's key file.
    pub(super) key: PathBuf,
    /// `--hand-key`: the key file of the side holding the hand.
    pub(super) hand_key: Option<PathBuf>,
    /// The choices given, as (option name, text): `("army", "RPSRRPSPRS")`.
    pub(super) choices: Vec<(&'static str, String)>,
    /// Check and print, write nothing.
    pub(super) dry_run: bool,
    /// `--then TURN`: the writer's first turn, with the set-up's last
    /// line that made it the first to move.
    pub(super) then: Option<String>,
    /// `--then-key FILE`: the key file of the side whose first turn
    /// `--then` writes, when that side is another of the writer's player
    /// (Battlegates' `four-castles`: one player's two castles).
    pub(super) then_key: Option<PathBuf>,
    /// The day the line is dated (in a game with a Deadline tag).
    pub(super) date: super::context::LineDate,
    /// Output format.
    pub(super) format: Format,
    /// `--reply -o FILE`: write the next email message too.
    pub(super) reply: Option<super::mail::Reply>,
    /// `--side SIDE`: the side whose key file `key` names; when that file
    /// does not exist yet (protocol 3), the side's key is made and joins
    /// the header with this line.
    pub(super) side: Option<String>,
}

#[derive(Serialize)]
struct JsonSetup {
    schema: u32,
    ok: bool,
    /// `S1`, `S2`, ...
    step: String,
    side: String,
    /// `commit` or `open`.
    action: &'static str,
    line: String,
    to_move: Option<String>,
    phase: &'static str,
    written: bool,
}

impl RecordCommand for Setup {
    /// A dry run rewrites nothing: the bytes read are not stamped.
    fn stamping(&self) -> super::files::Stamping {
        match self.dry_run {
            true => super::files::Stamping::Skip,
            false => super::files::Stamping::Stamp,
        }
    }

    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        let Some(new_key) = self.joining::<G>(ctx)? else {
            return self.play::<G>(ctx, ctx, None);
        };
        // The record as it reads with the new tags: the line is composed
        // on it, and it is what the record file and the message carry.
        let keyed = record::Splice::new()
            .tags(&new_key.tags())
            .extracted(ctx.source, ctx.record);
        let source = Source::new(keyed.as_bytes()).map_err(|e| Failure::usage(e.message))?;
        let parsed = record::parse(&source).map_err(|e| Failure::usage(e.message))?;
        let keyed_ctx = Ctx {
            origin: ctx.origin.clone(),
            path: ctx.path,
            source: &source,
            record: &parsed,
            stamp: None,
            read: false,
        };
        self.play::<G>(ctx, &keyed_ctx, Some(&new_key))
    }
}

impl Setup {
    /// The side's new key, when `--side` names a side whose key file does
    /// not exist yet: under protocol 3 its key joins the header with its
    /// first set-up line.
    fn joining<G: Game>(&self, ctx: &Ctx<'_>) -> Result<Option<NewKey>, Failure> {
        if self.key.exists() {
            return self.joining_again::<G>(ctx);
        }
        let Some(named) = &self.side else {
            return Ok(None);
        };
        let referee = Referee::<G>::start(ctx.record).map_err(|e| ctx.problem(&e))?;
        let header = referee.header();
        let Some(side) = header.side_named::<G>(named) else {
            return Err(Failure::usage(format!(
                "--side {named}: not a side of this game: the sides are {}",
                header.side_list::<G>()
            )));
        };
        let name = side.name::<G>();
        if header.commit(side).is_some() {
            return Err(Failure::usage(format!(
                "{name} has its key in this record already, and {} does not exist: name {name}'s key file with --key",
                self.key.display()
            )));
        }
        if !header.protocol().keys_join_late() {
            let key = self.key.display().to_string();
            let keygen = Command::keygen(name).on(&ctx.origin).key_file(&key);
            return Err(Failure::usage(format!(
                "{key} does not exist: in this record (made before [Protocol \"3\"]) every side's key comes before the set-up: {keygen} first",
            )));
        }
        NewKey::generate::<G>(header, side).map(Some)
    }

    /// Under protocol 3, a key file of this game whose side's tags this
    /// copy lacks (made by `keygen`, or with a line written on another
    /// copy at the same time): its tags join the header with the side's
    /// line, the same key.
    fn joining_again<G: Game>(&self, ctx: &Ctx<'_>) -> Result<Option<NewKey>, Failure> {
        let referee = Referee::<G>::start(ctx.record).map_err(|e| ctx.problem(&e))?;
        let header = referee.header();
        if !header.protocol().keys_join_late() {
            return Ok(None);
        }
        let wallet = super::context::read_wallet(&self.key)?;
        let side = header
            .side_named::<G>(wallet.side())
            .filter(|_| wallet.chain() == header.chain_id())
            .filter(|&side| header.commit(side).is_none());
        Ok(side.map(|side| NewKey::of(wallet, side.name::<G>())))
    }

    /// Play the side's set-up step on the record `read` (the record of
    /// `ctx`, with `new_key`'s tags when the side joins now), and write
    /// the key file, the record file of `ctx` and the reply.
    fn play<G: Game>(
        self,
        ctx: &Ctx<'_>,
        read: &Ctx<'_>,
        new_key: Option<&NewKey>,
    ) -> Result<Exit, Failure> {
        // A key made now, or a key file there already whose tags join.
        let fresh = new_key.is_some() && !self.key.exists();
        let (mut wallet, key_read) = match new_key {
            Some(new_key) if fresh => (new_key.wallet.clone(), None),
            _ => {
                let (wallet, stamp) = read_wallet_stamped(&self.key)?;
                (wallet, Some(stamp))
            }
        };
        let replayed = super::sent::replay_for_answer::<G>(read, Some(&wallet), Some(&self.key))?;
        match &replayed.crossed {
            Some(Crossed::ByClaim { sent, claim }) => {
                return self.answer_past_claim::<G>(read, sent, *claim, &wallet);
            }
            Some(crossed) => super::sent::note_crossed(crossed),
            None => {}
        }
        let mut referee = replayed.referee;
        let then_key = self.read_then_key(&referee, read)?;
        if let Some(sent) = replayed.answered {
            return self.answer_again(read, referee, &sent, &wallet, then_key.as_ref());
        }
        let before = referee.digest().copied();
        referee.set_today(self.date.after(referee.last_date()));
        // The claimed side's own set-up line answers a claim made on it
        // during the set-up, and voids it (spec section 3.8).
        referee.void_claim_answered(wallet.side(), Writes::SetupLine);
        let (side, step) = self.step_due(&referee, &wallet, ctx, read)?;
        self.take_choices(&referee, side, step, &mut wallet, read)?;
        let hand = super::context::read_hand_key(self.hand_key.as_deref())?;
        let played = referee
            .compose_setup_line(side, Keys::given(Some(&wallet), hand.as_ref()))
            .map_err(|e| compose_failure(e, Some(&self.key), read))?;
        // The record digest after the set-up line: what the `--then-key`
        // file's turn answers.
        let between = referee.digest().copied();
        // `--then`: the writer's first turn, right after the set-up's
        // last line that made it the first to move.
        let wallets = (&wallet, then_key.as_ref().map(|(_, w, _)| w));
        let first_turn = (self.then.as_deref())
            .map(|turn| self.first_turn(&mut referee, side, wallets, hand.as_ref(), turn, read))
            .transpose()?;
        let lines = Lines {
            played: &played,
            first_turn: first_turn.as_ref(),
            before,
            between,
        };
        let text = lines.text(!self.dry_run);
        if !self.dry_run {
            let writer = Writer {
                path: &self.key,
                read: key_read.as_ref(),
                fresh,
                wallet: &wallet,
            };
            let then_writer = then_key.as_ref().map(|(path, wallet, stamp)| Writer {
                path,
                read: Some(stamp),
                fresh: false,
                wallet,
            });
            self.write(ctx, &referee, side, new_key, &lines, (writer, then_writer))?;
        }
        self.print(ctx, &referee, (side, step), &played, &text)?;
        self.after_written(&referee, side, (&wallet, hand.as_ref()), ctx)
    }

    /// `--then-key`: the key file of the side whose first turn goes with
    /// this line, read now, and refused as every key file refuses a copy
    /// it cannot answer.
    fn read_then_key<'a, G: Game>(
        &'a self,
        referee: &Referee<G>,
        read: &Ctx<'_>,
    ) -> Result<Option<ThenKeyRead<'a>>, Failure> {
        let Some(path) = &self.then_key else {
            return Ok(None);
        };
        let (then_wallet, stamp) = read_wallet_stamped(path)?;
        super::sent::refuse_for_key_file(referee, &then_wallet, Some(path), read)?;
        Ok(Some((path.as_path(), then_wallet, stamp)))
    }

    /// The player's last line, `sent`, crossed a claim of its forfeit in
    /// the mail (this copy holds the claim, line `claim`, instead): with
    /// `--reply`, its message again; on a record file, the file rewritten
    /// to hold the line in place of the claim; anything else is refused.
    fn answer_past_claim<G: Game>(
        &self,
        read: &Ctx<'_>,
        sent: &Sent,
        claim: (LineKind, u32),
        wallet: &Wallet,
    ) -> Result<Exit, Failure> {
        let (Some(line), None, true, false) = (
            sent.text.as_deref(),
            self.choices.first(),
            self.reply.is_some() || !read.source.from_message(),
            self.dry_run,
        ) else {
            let claimant = claimant_of(read.record, claim);
            return Err(super::sent::crossed_claim(
                sent,
                claimant,
                None,
                Some(&self.key),
                read,
            ));
        };
        let again = Again {
            line,
            reply: self.reply.as_ref(),
            key: Some(&self.key),
            wallet: Some(wallet),
            others: &[],
            format: self.format,
            place: Place::past_claim_unless_replying(self.reply.as_ref()),
        };
        write_past_claim::<G>(read, sent, claim, again, |_, _| Ok(()))
    }

    /// The record this player answered already, with `sent`: its set-up
    /// line again, the same bytes (a lost reply), when asked for with the
    /// same choices as the line holds (the command as it was first run,
    /// and its `--then` turn the same); others would fork the game, and
    /// are refused.
    fn answer_again<G: Game>(
        &self,
        read: &Ctx<'_>,
        referee: Referee<G>,
        sent: &Sent,
        wallet: &Wallet,
        then_key: Option<&ThenKeyRead<'_>>,
    ) -> Result<Exit, Failure> {
        let (Some(line), true, false) = (
            sent.text.as_deref(),
            self.same_choices::<G>(&referee, wallet),
            self.dry_run,
        ) else {
            return Err(super::sent::answered_already(
                sent,
                None,
                Some(&self.key),
                read,
            ));
        };
        match &self.then {
            // The set-up line went alone, into a message kept for the
            // first turn: the turn goes on that message.
            Some(turn) if sent.kind == LineKind::Setup => {
                return Err(super::sent::first_turn_elsewhere(
                    sent,
                    turn,
                    Some(&self.key),
                    read,
                ));
            }
            Some(turn) if !self.same_turn(&referee, sent, turn, (wallet, then_key))? => {
                return Err(super::sent::answered_already(
                    sent,
                    Some(turn),
                    Some(&self.key),
                    read,
                ));
            }
            _ => {}
        }
        // The `--then-key` file learns the new message's name too.
        let others: Vec<(&Path, Wallet)> = then_key
            .map(|(path, wallet, _)| (*path, wallet.clone()))
            .into_iter()
            .collect();
        let again = Again {
            line,
            reply: self.reply.as_ref(),
            key: Some(&self.key),
            wallet: Some(wallet),
            others: &others,
            format: self.format,
            place: Place::AsKept,
        };
        // On the record as it was answered: with the side's tags when
        // its key joined with that line.
        write_line_again(read, referee, sent, again)
    }

    /// Whether `turn` (`--then`) is the first turn `sent` holds again,
    /// composed by the key file of the side that moves first (`wallets`:
    /// the writer's, and the `--then-key` file read).
    fn same_turn<G: Game>(
        &self,
        referee: &Referee<G>,
        sent: &Sent,
        turn: &str,
        (wallet, then_key): (&Wallet, Option<&ThenKeyRead<'_>>),
    ) -> Result<bool, Failure> {
        let hand = super::context::read_hand_key(self.hand_key.as_deref())?;
        Ok(key_file::typed_again(referee, sent, turn, |trial| {
            trial.set_today(self.date.after(trial.last_date()));
            let own = match then_key {
                Some((_, then_wallet, _)) => Some(then_wallet),
                None => Some(wallet),
            };
            let first = trial.to_move()?;
            let hand = then_hand(trial, first, hand.as_ref(), wallet);
            trial.compose_typed(turn, Keys::given(own, hand)).ok()
        }))
    }

    /// The side whose set-up step the key file `wallet` writes now, and
    /// the step; refused when no step is due, when the side's key must
    /// come first, or when the step due is another side's.
    fn step_due<G: Game>(
        &self,
        referee: &Referee<G>,
        wallet: &Wallet,
        ctx: &Ctx<'_>,
        read: &Ctx<'_>,
    ) -> Result<(Side, SetupStep), Failure> {
        let side = match referee.side_beginning_setup(wallet.side()) {
            Some(side) => side,
            None => referee
                .open_side()
                .map_err(|e| compose_failure(e, Some(&self.key), read))?,
        };
        let Some(step) = referee.setup_due() else {
            return Err(Failure::usage(no_step_due::<G>(referee)));
        };
        let name = side.name::<G>();
        if step == SetupStep::Key {
            let keygen = Command::keygen(name)
                .on(&ctx.origin)
                .makes_key(&format!("{}.key", name.to_ascii_lowercase()));
            return Err(Failure::usage(format!(
                "S1 cannot be written yet: {name} has no Commit tag, and every side's key comes before the first set-up line (tags are never added after a line); {name} runs {keygen} first, then the set-up begins",
            )));
        }
        if !wallet.side().eq_ignore_ascii_case(name) {
            // Another side's step: not a wrong command, a step the game
            // does not take from this side now (exit 1).
            let mut problem = Problem::plain(
                ErrorKind::Illegal,
                format!(
                    "the set-up step due is {name}'s, and {} is {}'s key file: S{} is {name}'s, {} ({name} runs {} first)",
                    self.key.display(),
                    wallet.side(),
                    referee.next_line().1,
                    step.what(),
                    Command::setup(),
                ),
            );
            problem.side = Some(name.to_owned());
            return Err(Failure::invalid(problem, &read.origin));
        }
        Ok((side, step))
    }

    /// The choices the step takes: a commitment's, put into `wallet`
    /// ([`Setup::choose`]); none once the side has committed.
    fn take_choices<G: Game>(
        &self,
        referee: &Referee<G>,
        side: Side,
        step: SetupStep,
        wallet: &mut Wallet,
        read: &Ctx<'_>,
    ) -> Result<(), Failure> {
        match step {
            SetupStep::Key => Ok(()),
            SetupStep::Commit | SetupStep::CommitOpen => {
                self.choose::<G>(referee, side, wallet, read)
            }
            SetupStep::Open | SetupStep::Shares => match self.choices.first() {
                Some((flag, _)) => Err(Failure::usage(format!(
                    "--{flag}: {} has committed to its choices; they cannot change now (this step opens what the rules open)",
                    side.name::<G>()
                ))),
                None => Ok(()),
            },
        }
    }

    /// Write the lines: the key files first (the choices and the lines
    /// they remember, in one write each: a new key file goes again on a
    /// later failure, an old one is put back as it was; the `--then-key`
    /// file remembers its turn, written after the set-up line), then the
    /// record (a record made in memory, `herald new --key --reply`, has no
    /// file: the message alone carries it), then the reply message, from
    /// `side`, with `new_key`'s tags when the side joins now.
    fn write<G: Game>(
        &self,
        ctx: &Ctx<'_>,
        referee: &Referee<G>,
        side: Side,
        new_key: Option<&NewKey>,
        lines: &Lines<'_, G>,
        (writer, then_writer): (Writer<'_>, Option<Writer<'_>>),
    ) -> Result<(), Failure> {
        let from_message = ctx.source.from_message();
        if self.reply.is_none() && from_message {
            // Before anything is written: a message is left as it was
            // received, and the reply is what carries the line.
            let key = super::sent::key_arg(Some(&self.key));
            let answer = Command::setup().key_file(&key);
            super::context::refuse_message(ctx, answer)?;
        }
        let mut parts = vec![Part {
            by: Some(writer),
            after: lines.before,
            text: lines.played.line(),
        }];
        if let Some(turn) = lines.first_turn {
            // The writer's own turn, or another side's by its key file.
            let by = then_writer.or(parts[0].by);
            parts.push(Part {
                by,
                after: lines.between,
                text: turn.line(),
            });
        }
        let message = Message {
            parts,
            last: lines.first_turn.unwrap_or(lines.played),
            reply: self.reply.as_ref().map(|r| r.output.as_path()),
            ended: None,
        };
        let text = message.text();
        let tags: Vec<(&str, &str)> = new_key.map(|k| k.tags().to_vec()).unwrap_or_default();
        let tags = tags.as_slice();
        // "*" while the game runs: a claim voided by this line takes back
        // the result it gave.
        let result = referee.final_result().unwrap_or_else(|| "*".into());
        let record_file = ctx.record_file();
        let record = record_file.then_some((ctx.path, || {
            append_line_with_tags(ctx, tags, &text, Some(&result))
        }));
        let reply = self.reply.as_ref().map(|reply| {
            || {
                let record = record::Splice::new()
                    .tags(tags)
                    .line(&text)
                    .result(Some(&result))
                    .extracted(ctx.source, ctx.record);
                super::mail::write_message(ctx, reply, referee, side, &text, &record)
            }
        });
        message.write(referee, record, reply)
    }

    /// Print the lines `text` and what comes next, as text or JSON.
    fn print<G: Game>(
        &self,
        ctx: &Ctx<'_>,
        referee: &Referee<G>,
        (side, step): (Side, SetupStep),
        played: &PlayedTurn<G>,
        text: &str,
    ) -> Result<(), Failure> {
        let written = !self.dry_run;
        let from_message = ctx.source.from_message();
        let record_file = ctx.record_file();
        let number = played.number;
        if self.format == Format::Json {
            return print_json(&JsonSetup {
                schema: SCHEMA_VERSION,
                ok: true,
                step: format!("S{number}"),
                side: side.name::<G>().into(),
                action: match step {
                    SetupStep::Key | SetupStep::Commit | SetupStep::CommitOpen => "commit",
                    SetupStep::Open => "open",
                    SetupStep::Shares => "share",
                },
                line: text.trim_end().into(),
                to_move: referee.side_due().map(|s| s.name::<G>().to_owned()),
                phase: referee.phase().as_str(),
                written,
            });
        }
        let wrote = if written && !record_file && !from_message {
            String::new()
        } else if written && from_message {
            format!("{} is left as it was received\n", ctx.origin)
        } else if written {
            format!("wrote S{number} to {}\n", ctx.origin)
        } else {
            "dry run: nothing written\n".into()
        };
        out(&format!(
            "{text}{}\n{}{wrote}",
            next_text::<G>(referee),
            pending_text(referee),
        ))
    }

    /// After the line is written (or shown): a dry run of the set-up's
    /// last line that makes its writer the first to move previews its
    /// turn; when it did make it (or another side of its player) the first
    /// to move, the message is not for the others yet (they would have
    /// nothing to do): the writer's first turn goes out with it, from that
    /// message; else the reply is sent, if asked.
    fn after_written<G: Game>(
        &self,
        referee: &Referee<G>,
        side: Side,
        (wallet, hand): (&Wallet, Option<&Wallet>),
        ctx: &Ctx<'_>,
    ) -> Result<Exit, Failure> {
        let written = !self.dry_run;
        if !written && self.format != Format::Json {
            if let Some(preview) = self.first_mover_preview(referee, side, wallet, hand, ctx) {
                out(&preview)?;
            }
        }
        let own_turn = self.reply.as_ref().filter(|_| written).and_then(|r| {
            first_mover_hint(referee, side, &r.output, Some(&self.key))
                .or_else(|| own_side_first_hint(referee, side, &r.output))
        });
        if let Some(hint) = own_turn {
            if self.format != Format::Json {
                out(&hint)?;
            }
            return Ok(Exit::Ok);
        }
        if written {
            super::commands::send_if_asked(self.reply.as_ref(), self.format)?;
        }
        Ok(Exit::Ok)
    }
}

/// The `--then-key` file read: its path, key file and the stamp of the
/// bytes read.
type ThenKeyRead<'a> = (&'a Path, Wallet, files::Stamp);

/// The lines `setup` composed: the set-up line and the first turn
/// `--then` wrote after it, with the record digests before each.
struct Lines<'a, G: Game> {
    played: &'a PlayedTurn<G>,
    first_turn: Option<&'a PlayedTurn<G>>,
    before: Option<Hash>,
    between: Option<Hash>,
}

impl<G: Game> Lines<'_, G> {
    /// The lines as written (`written`), or as a dry run shows them,
    /// without their signatures.
    fn text(&self, written: bool) -> String {
        let shown = |p: &PlayedTurn<G>| {
            if written {
                p.line()
            } else {
                super::commands::dry_run_line(p)
            }
        };
        shown(self.played) + &self.first_turn.map(shown).unwrap_or_default()
    }
}

impl Setup {
    /// A dry run of the set-up's last line that makes its writer, `side`,
    /// the first to move (no `--then` yet): the position it will produce
    /// as `side` sees it, the roll and the turns it will allow (the look
    /// `show --key` gives), and the command that writes that line with the
    /// first turn. Nothing signed (the turn's line is not composed) and
    /// nothing but what `side` may see.
    fn first_mover_preview<G: Game>(
        &self,
        referee: &Referee<G>,
        side: Side,
        wallet: &Wallet,
        hand: Option<&Wallet>,
        ctx: &Ctx<'_>,
    ) -> Option<String> {
        if self.then.is_some() || !referee.moves_first(side) {
            return None;
        }
        let look = referee.look(Keys::given(Some(wallet), hand)).ok()?;
        let origin = match ctx.origin.as_str() {
            "<stdin>" => "RECORD",
            origin => origin,
        };
        let key = self.key.display().to_string();
        let diagram = G::diagram(&look.state, crate::game::DiagramStyle::default());
        let legal = Command::legal().on(origin).key_file(&key).to_string();
        let reply = if ctx.source.from_message() {
            " --reply -o OUT.eml"
        } else {
            ""
        };
        // `--then` after `--key`, as this hint always put it (a command
        // value writes `--then` first).
        let setup = Command::setup().on(origin).key_file(&key);
        Some(format!(
            "\nThis line makes {name} the first to move. The position it will produce, as {name} sees it:\n\n{diagram}{}Write it with your first turn, one message: {setup} --then \"YOUR TURN\"{reply}\n",
            super::look::text(&look, &legal),
            name = side.name::<G>(),
        ))
    }

    /// `--then TURN`: the first turn, composed on `referee` right after
    /// the set-up's last line, which `side` wrote: `side`'s own, with its
    /// key file, or that of another side of `side`'s player, with the key
    /// file `--then-key` gave (`wallets`: the writer's, and the
    /// `--then-key` one). Refused, naming the step due, when that line did
    /// not make `side` (or another side of its player) the first to move,
    /// or when the key file for the side that moves first is not given.
    fn first_turn<G: Game>(
        &self,
        referee: &mut Referee<G>,
        side: Side,
        wallets: (&Wallet, Option<&Wallet>),
        hand: Option<&Wallet>,
        turn: &str,
        read: &Ctx<'_>,
    ) -> Result<crate::referee::PlayedTurn<G>, Failure> {
        let (wallet, then_wallet) = wallets;
        let name = side.name::<G>();
        let refuse = |message: String| {
            Failure::invalid(Problem::plain(ErrorKind::Illegal, message), &read.origin)
        };
        let first = referee
            .to_move()
            .filter(|_| referee.phase() == crate::game::Phase::Play);
        let own = first.filter(|&f| referee.same_player(side, f));
        let Some(first) = own else {
            let (line, after) = match referee.step_due() {
                Some(due) if referee.phase() == crate::game::Phase::Setup => (
                    "is not the set-up's last",
                    format!("{} is due next", due.line),
                ),
                Some(due) => (
                    "does not make you the first to move",
                    format!("{} moves first", due.side.name::<G>()),
                ),
                None => ("ends nothing", "nothing is due after it".to_owned()),
            };
            return Err(refuse(format!(
                "--then: {name}'s set-up line {line}: {after}, so {name}'s first turn cannot go with it; write the set-up line alone (without --then)"
            )));
        };
        let first_name = first.name::<G>();
        let own_wallet = match then_wallet {
            // The writer's own first turn: its own key file.
            None if first == side => wallet,
            Some(_) if first == side => {
                return Err(Failure::usage(format!(
                    "--then-key {}: {name}'s set-up line makes {name} itself the first to move, and --key writes its turn: drop --then-key",
                    self.then_key_display()
                )));
            }
            None => {
                return Err(refuse(format!(
                    "--then: {name}'s set-up line makes {first_name}, another side of yours, the first to move: its turn is written with {first_name}'s key file, in the same message: add --then-key {}.key ({first_name}'s key file)",
                    first_name.to_ascii_lowercase()
                )));
            }
            Some(w) if !w.side().eq_ignore_ascii_case(first_name) => {
                return Err(Failure::usage(format!(
                    "--then-key {} is {}'s key file, but turn 1 is {first_name}'s: give {first_name}'s key file",
                    self.then_key_display(),
                    w.side()
                )));
            }
            Some(w) => w,
        };
        let hand = then_hand(referee, first, hand, wallet);
        let key = self.then_key.as_deref().unwrap_or(&self.key);
        referee
            .compose_typed(turn, Keys::given(Some(own_wallet), hand))
            .map_err(|e| super::commands::typed_failure(e, Some(key), read))
    }

    /// The `--then-key` file as given, for a message.
    fn then_key_display(&self) -> String {
        self.then_key
            .as_deref()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    }

    /// Whether every choice given is the one `wallet` keeps (none given:
    /// true): the set-up line the key file remembers, asked for again.
    fn same_choices<G: Game>(&self, referee: &Referee<G>, wallet: &Wallet) -> bool {
        let Some(side) = referee.header().side_named::<G>(wallet.side()) else {
            return self.choices.is_empty();
        };
        self.choices.iter().all(|(flag, text)| {
            G::read_choice(referee.state(), side, flag, text).is_ok_and(|values| {
                values
                    .iter()
                    .all(|(slot, value)| wallet.chosen(slot) == Some(value.as_str()))
            })
        })
    }

    /// Put the player's choices into `wallet`: those given, else those it
    /// keeps from an earlier call, else drawn at random where the game
    /// allows it; then check the whole set against the set-up rules.
    fn choose<G: Game>(
        &self,
        referee: &Referee<G>,
        side: Side,
        wallet: &mut Wallet,
        ctx: &Ctx<'_>,
    ) -> Result<(), Failure> {
        let state = referee.state();
        let name = side.name::<G>();
        // A choice the rules refuse is an illegal choice (exit 1), named
        // as the set-up line it would have made.
        let refused = |message: String| {
            let mut problem = Problem::plain(ErrorKind::Illegal, message);
            problem.setup_line = Some(referee.next_line().1);
            problem.side = Some(name.to_owned());
            Failure::invalid(problem, &ctx.origin)
        };
        if let Some((flag, _)) = self
            .choices
            .iter()
            .find(|(flag, _)| !G::SETUP_CHOICES.iter().any(|c| c.name == *flag))
        {
            return Err(Failure::usage(format!(
                "--{flag}: {} has no {flag} to choose{}",
                G::TITLE,
                choice_list::<G>()
            )));
        }
        for choice in G::SETUP_CHOICES {
            let slots = G::choice_slots(state, side, choice.name);
            let given = self.choices.iter().find(|(flag, _)| *flag == choice.name);
            let values = match given {
                Some((flag, text)) => G::read_choice(state, side, choice.name, text)
                    .map_err(|e| refused(format!("--{flag} {text}: {e}")))?,
                None if slots.iter().all(|slot| wallet.chosen(slot).is_some()) => continue,
                None => match choice.default {
                    ChoiceDefault::Random => random_values(slots, choice.letters)?,
                    ChoiceDefault::Required => return Err(Failure::usage(missing(choice, name))),
                },
            };
            for (slot, value) in values {
                if let Err(e) = G::check_hidden(slot, &value) {
                    return Err(refused(format!("--{} {slot}: {e}", choice.name)));
                }
                wallet.choose(slot, &value);
            }
        }
        let all = G::hidden_slots(state, side);
        let values: Vec<(&str, &str)> = all
            .iter()
            .filter_map(|&slot| wallet.chosen(slot).map(|v| (slot, v)))
            .collect();
        G::audit(state, side, &values).map_err(|e| {
            let given: Vec<String> = self
                .choices
                .iter()
                .map(|(flag, text)| format!("--{flag} {text}"))
                .collect();
            let what = if given.is_empty() {
                format!("{name}'s set-up")
            } else {
                given.join(" ")
            };
            refused(format!("{what}: {e}"))
        })
    }
}

/// The hand key for `first`'s turn: none when `first` holds its own hand
/// (or plays none); else the `--hand-key` given (`hand`), or the writer's
/// key file (`writer`), which may hold `first`'s hand.
fn then_hand<'a, G: Game>(
    referee: &Referee<G>,
    first: Side,
    hand: Option<&'a Wallet>,
    writer: &'a Wallet,
) -> Option<&'a Wallet> {
    referee.hand_key_file(first)?;
    hand.or(Some(writer))
}

/// What the writer of the set-up's last line is told when that line made
/// another side of its player the first to move and went into the
/// message `reply` alone (no `--then`): that message would go to nobody
/// but its writer, so it is kept, and answered with that side's first
/// turn by that side's key file, one message to the others.
fn own_side_first_hint<G: Game>(
    referee: &Referee<G>,
    side: Side,
    reply: &std::path::Path,
) -> Option<String> {
    let first = referee
        .to_move()
        .filter(|_| referee.phase() == crate::game::Phase::Play)?;
    (first != side && referee.same_player(side, first)).then(|| {
        let name = first.name::<G>();
        let key = format!("{}.key", name.to_ascii_lowercase());
        let out = reply.display().to_string();
        let turn = Command::moves()
            .on(&out)
            .typed("YOUR TURN")
            .key_file(&key)
            .reply_to("NEXT.eml");
        let both = Command::setup().on("...").then_by("YOUR TURN", &key);
        format!(
            "{name}, another side of yours, moves first: keep {out} to yourself (it is not sent) and answer it with {name}'s first turn, one message that carries both lines: {turn} (next time, one command writes both: {both})\n",
        )
    })
}

/// Why no set-up step can be written now.
fn no_step_due<G: Game>(referee: &Referee<G>) -> String {
    if G::SETUP_CHOICES.is_empty() {
        format!(
            "{} has no set-up: the game starts with turn 1 ({})",
            G::TITLE,
            Command::moves()
        )
    } else {
        let (_, number) = referee.next_line();
        format!(
            "the set-up is over: the game is at turn {number} ({})",
            Command::moves()
        )
    }
}

/// What comes next, after a set-up line.
fn next_text<G: Game>(referee: &Referee<G>) -> String {
    match (referee.setup_due(), referee.to_move()) {
        (Some(SetupStep::Key), Some(side)) => {
            format!("next: {}'s key (herald keygen)", side.name::<G>())
        }
        (Some(SetupStep::Commit), Some(side)) => {
            format!("next: {}'s set-up (its commitments)", side.name::<G>())
        }
        (Some(SetupStep::CommitOpen), Some(side)) => {
            format!(
                "next: {}'s set-up (its commitments and its openings)",
                side.name::<G>()
            )
        }
        (Some(SetupStep::Open), Some(side)) => {
            format!("next: {}'s set-up (its openings)", side.name::<G>())
        }
        (Some(SetupStep::Shares), Some(side)) => {
            format!("next: {}'s set-up (its shares)", side.name::<G>())
        }
        (None, Some(side)) => format!("the set-up is complete: turn 1 is {}'s", side.name::<G>()),
        (_, None) => "the game is over".into(),
    }
}

/// The choices a game takes, for a refusal.
fn choice_list<G: Game>() -> String {
    let names: Vec<String> = G::SETUP_CHOICES
        .iter()
        .map(|c| format!("--{}", c.name))
        .collect();
    if names.is_empty() {
        " (it has no hidden choices)".into()
    } else {
        format!(" (its choices: {})", names.join(", "))
    }
}

/// A choice the player must make and did not.
fn missing(choice: &SetupChoice, side: &str) -> String {
    format!(
        "{side} has not chosen its {0} yet: add --{0} ({1})",
        choice.name, choice.help
    )
}

/// One letter of `letters` per slot, uniformly at random from the
/// operating system's random source.
fn random_values(
    slots: &'static [&'static str],
    letters: &str,
) -> Result<Vec<(&'static str, String)>, Failure> {
    let letters: Vec<char> = letters.chars().collect();
    // The largest multiple of the alphabet's size that fits in a byte:
    // bytes above it are drawn again, so every letter is equally likely.
    let limit = 256 - 256 % letters.len();
    let mut values = Vec::with_capacity(slots.len());
    let mut byte = [0u8; 1];
    for &slot in slots {
        loop {
            getrandom::fill(&mut byte).map_err(|e| {
                Failure::usage(format!("the operating system gave no random bytes: {e}"))
            })?;
            if usize::from(byte[0]) < limit {
                break;
            }
        }
        let letter = letters[usize::from(byte[0]) % letters.len()];
        values.push((slot, letter.to_string()));
    }
    Ok(values)
}
