//! `herald inbox`: the player's games found in new mail, each record
//! checked, the games waiting on the player first. A tampered or stale
//! record, or a fork of the copy kept, is listed with its verdict and
//! never taken. Of two copies of a game, every inbox keeps the same one
//! whatever order they came in: the most lines, then the most keys, then
//! the smallest SHA-256 of the record's text. Two copies with no line
//! yet that each hold keys the other lacks (added at once) are one game,
//! the union of their keys: both messages are kept, as one mailbox file
//! that every reader reads as that union. Two copies that give one side
//! two different keys are a conflict: neither is taken.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::fetch::{self, Message};
use super::state;
use crate::cli::args::Format;
use crate::cli::context::{dispatch_record, print_json, replay_all, Ctx, SCHEMA_VERSION};
use crate::cli::out;
use crate::cli::report::{Exit, Failure, Problem};
use crate::game::Game;
use crate::games::GameVisitor;
use crate::record;
use crate::referee::{self, header::Header, Keep};

/// What the inbox knows of one game: the newest valid record read.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub(crate) struct GameEntry {
    /// The game's chain id, first 12 hex digits: how `move GAME-ID`
    /// names it.
    pub(crate) id: String,
    pub(crate) game: String,
    /// Each side and its player's contact, in turn order.
    pub(crate) sides: Vec<[String; 2]>,
    /// Lines in the record (set-up lines and turns).
    pub(crate) lines: usize,
    /// Sides with a Key tag: before the first line, the keys added are
    /// how a copy is newer than another.
    #[serde(default)]
    pub(crate) keys: usize,
    pub(crate) turns: u32,
    /// The sides whose step is due (several for keys before turn 1 and
    /// audits, which come in any order; none once the game is over).
    #[serde(default, deserialize_with = "due_list")]
    pub(crate) due: Vec<String>,
    /// The first side's line due and the step in words.
    pub(crate) due_line: Option<String>,
    pub(crate) due_text: Option<String>,
    /// Whether the step due is this player's.
    pub(crate) yours: bool,
    /// When it is: the step in words with the command that takes it on
    /// this copy (`mail::answer_hint`, naming the game by its id), sent.
    #[serde(default)]
    pub(crate) to_play: Option<String>,
    /// The day the step due has been due since (the last dated line),
    /// in a game with a Deadline tag.
    #[serde(default)]
    pub(crate) since: Option<String>,
    /// The first day another player may claim the forfeit of the side
    /// due, if it has not answered by then (spec section 3.8).
    #[serde(default)]
    pub(crate) claimable_from: Option<String>,
    pub(crate) result: String,
    /// How the game stands after the last message.
    pub(crate) summary: String,
    /// The last message's subject and date.
    pub(crate) subject: String,
    pub(crate) date: String,
}

/// `due` read as a list, or as one side or `null`: an inbox state
/// written before it was a list still reads.
fn due_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Due {
        Many(Vec<String>),
        One(Option<String>),
    }
    Ok(match Due::deserialize(d)? {
        Due::Many(sides) => sides,
        Due::One(side) => side.into_iter().collect(),
    })
}

/// A record in new mail that was not taken, with why.
#[derive(Serialize, Debug)]
struct Rejected {
    game: Option<String>,
    id: Option<String>,
    subject: String,
    verdict: String,
}

/// Replays one record found in mail.
struct Look<'a> {
    ctx: &'a Ctx<'a>,
    address: &'a str,
}

use crate::cli::mail::address;

fn short_id(header: &Header) -> String {
    hex::encode(&header.chain_id()[..6])
}

impl GameVisitor for Look<'_> {
    /// The entry, or the game's id (when its header reads) and the failure.
    type Output = Result<GameEntry, (Option<String>, Failure)>;
    fn visit<G: Game>(self) -> Self::Output {
        let id = Header::read::<G>(self.ctx.record)
            .ok()
            .map(|(h, _)| short_id(&h));
        let referee = replay_all::<G>(self.ctx, Keep::RULES, |_, _| {}).map_err(|f| (id, f))?;
        let header = referee.header();
        let contact = |k: usize| header.contacts().get(k).cloned().unwrap_or_default();
        let sides = header
            .sides()
            .iter()
            .enumerate()
            .map(|(k, s)| [s.name::<G>().to_owned(), contact(k)])
            .collect();
        let due = referee.step_due();
        let sides_due = referee.sides_due();
        let id = short_id(header);
        // The first of the player's sides due (one player may lead two).
        let mine = sides_due.iter().copied().find(|&side| {
            header
                .seat_of(side)
                .is_some_and(|k| address(&contact(k.index())).eq_ignore_ascii_case(self.address))
        });
        let to_play =
            mine.map(|side| crate::cli::mail::answer_hint(&referee, &id, Some(side), true));
        Ok(GameEntry {
            id,
            game: G::TITLE.to_owned(),
            sides,
            lines: self.ctx.record.turns.len(),
            keys: header
                .sides()
                .iter()
                .filter(|&&s| header.key(s).is_some())
                .count(),
            turns: referee.turns(),
            due: sides_due.iter().map(|s| s.name::<G>().to_owned()).collect(),
            due_line: due.as_ref().map(|d| d.line.clone()),
            since: due.as_ref().and(referee.last_date()).map(|d| d.to_string()),
            // A claim already made waits for its target's answer: the
            // step's text says until when; no second claim is due.
            claimable_from: due
                .as_ref()
                .filter(|_| referee.open_claim().is_none())
                .and(referee.last_date())
                .zip(header.deadline())
                .map(|(since, days)| crate::record::Day(since.0 + days + 1).to_string()),
            due_text: due.map(|d| d.text.to_string()),
            yours: mine.is_some(),
            to_play,
            result: referee.result(),
            summary: referee.summary().to_string(),
            subject: String::new(),
            date: String::new(),
        })
    }
}

/// One copy of a game, as a message carries it: how it ranks among the
/// game's copies, and what it holds, to tell an older copy from a fork.
struct Copy {
    /// SHA-256 of the record's own text (`Splice::extracted`: quoting,
    /// mail encoding and the text around it gone).
    sha256: [u8; 32],
    /// The sides with a key (a Commit or Key tag), in header order.
    keyed: Vec<String>,
    /// The key tags, name (lower case) and value.
    key_tags: BTreeSet<(String, String)>,
    /// Each line, its text with white space left out (a re-wrapped line
    /// is the same line).
    lines: Vec<CopyLine>,
}

/// One line of a copy: its text, white space left out, and whether it is
/// a forfeit claim (as the record reader read it).
#[derive(Clone, PartialEq, Eq, Debug)]
struct CopyLine {
    text: String,
    claim: bool,
}

impl CopyLine {
    /// The line's head, number and side (`3.Blue`, `S2.Red`: white space
    /// left out), and the side alone.
    fn head(&self) -> (&str, &str) {
        let head = self.text.split(':').next().unwrap_or_default();
        (head, head.split_once('.').map_or("", |(_, side)| side))
    }

    /// The line as a player names it: `turn 3`, `set-up line S2`.
    fn name(&self) -> String {
        let (head, _) = self.head();
        let number = head.split('.').next().unwrap_or_default();
        match number.strip_prefix('S') {
            Some(n) => format!("set-up line S{n}"),
            None => format!("turn {number}"),
        }
    }

    /// Whether `self` is a side's own line in the place where `other`
    /// holds a claim of that side's forfeit (the same `N. Side:` head).
    fn answers_claim(&self, other: &CopyLine) -> bool {
        let head = |l: &CopyLine| l.text.split(':').next().map(str::to_owned);
        !self.claim && other.claim && head(self) == head(other)
    }
}

impl Copy {
    fn of(source: &record::Source, record: &record::Record<'_>, entry: &GameEntry) -> Copy {
        let text = record::Splice::new().extracted(source, record);
        let sides: Vec<&String> = entry.sides.iter().map(|[side, _]| side).collect();
        let tag_of = |name: &str| {
            let name = name.to_ascii_lowercase();
            sides.iter().find(|side| {
                name.strip_prefix(&side.to_ascii_lowercase())
                    .is_some_and(|rest| rest == "commit" || rest == "key")
            })
        };
        let key_tags: BTreeSet<(String, String)> = record
            .tags
            .iter()
            .filter(|t| tag_of(&t.name).is_some())
            .map(|t| (t.name.to_ascii_lowercase(), t.value.clone()))
            .collect();
        let keyed = sides
            .iter()
            .filter(|side| record.tags.iter().any(|t| tag_of(&t.name) == Some(side)))
            .map(|side| side.to_string())
            .collect();
        let clean = source.text();
        let lines = record
            .turns
            .iter()
            .map(|t| CopyLine {
                text: clean
                    .get(t.span.start..t.lines_end.max(t.span.end))
                    .unwrap_or_default()
                    .split_whitespace()
                    .collect(),
                claim: t.forfeit.is_some(),
            })
            .collect();
        Copy {
            sha256: Sha256::digest(text.as_bytes()).into(),
            keyed,
            key_tags,
            lines,
        }
    }

    /// The rule every inbox keeps a game's copy by, whatever order the
    /// copies came in, after a claim's answer ([`Copy::outranks`]): the
    /// most lines, then the most sides keyed, then the smallest SHA-256
    /// of the record.
    fn rank(&self) -> (usize, usize, std::cmp::Reverse<[u8; 32]>) {
        (
            self.lines.len(),
            self.keyed.len(),
            std::cmp::Reverse(self.sha256),
        )
    }

    /// Whether `self` is kept over `other`: where the two part, a
    /// claimed side's own line over the claim of its forfeit written in
    /// its place at the same time (the claim crossed the answer in the
    /// mail, and never stood); else by [`Copy::rank`].
    fn outranks(&self, other: &Copy) -> bool {
        let parting = self
            .lines
            .iter()
            .zip(&other.lines)
            .position(|(a, b)| a != b);
        if let Some(k) = parting {
            if self.lines[k].answers_claim(&other.lines[k]) {
                return true;
            }
            if other.lines[k].answers_claim(&self.lines[k]) {
                return false;
            }
        }
        self.rank() > other.rank()
    }

    /// The Key tags (lower case) that `self` and `other` both hold with
    /// different values: one side given two keys.
    fn key_clash(&self, other: &Copy) -> Vec<(String, String, String)> {
        let keys = |c: &Copy| -> Vec<(String, String)> {
            c.key_tags
                .iter()
                .filter(|(name, _)| name.ends_with("key"))
                .cloned()
                .collect()
        };
        let theirs = keys(other);
        keys(self)
            .into_iter()
            .filter_map(|(name, mine)| {
                let (_, other) = theirs.iter().find(|(n, v)| *n == name && *v != mine)?;
                Some((name, mine, other.clone()))
            })
            .collect()
    }

    /// The same lines and keys (another message of the same record).
    fn same(&self, other: &Copy) -> bool {
        self.lines == other.lines && self.key_tags == other.key_tags
    }

    /// Whether `self` is where `other` was before: its lines the first of
    /// `other`'s, its keys among `other`'s.
    fn before(&self, other: &Copy) -> bool {
        other.lines.starts_with(&self.lines) && self.key_tags.is_subset(&other.key_tags)
    }

    /// Where `self` and `other` part, two lines of one side that answer
    /// the same record: the side's own line in both (two different
    /// answers to one message), or its own line in one and, in the other,
    /// a claim of its forfeit followed by its own line (an answer written
    /// once more after the claim, which crossed the first): a fork by that
    /// side, in words.
    fn double_answer(&self, other: &Copy) -> Option<String> {
        let k = self
            .lines
            .iter()
            .zip(&other.lines)
            .position(|(a, b)| a != b)?;
        let (a, b) = (&self.lines[k], &other.lines[k]);
        let side = a.head().1;
        if side.is_empty() || side != b.head().1 {
            return None;
        }
        let (first, second) = match (a.claim, b.claim) {
            (false, false) if a.head().0 == b.head().0 => {
                (a.name(), format!("another {}", b.name()))
            }
            (false, true) | (true, false) => {
                let (own, claimed) = if a.claim {
                    (other, self)
                } else {
                    (self, other)
                };
                let after = claimed
                    .lines
                    .get(k + 1)
                    .filter(|l| !l.claim && l.head().1 == side)?;
                (
                    own.lines[k].name(),
                    format!(
                        "its {} after the claim of its forfeit on {}",
                        after.name(),
                        own.lines[k].name()
                    ),
                )
            }
            _ => return None,
        };
        Some(format!(
            "{side} wrote two lines that answer the same record: its {first} in one copy and {second} in the other. A side answers a record once: this is a fork by {side}, which the other players should not accept (nor answer): go on from the copy kept, and tell them"
        ))
    }

    /// How `self`, a fork of `kept`, differs from it, in words.
    fn fork_from(&self, kept: &Copy) -> String {
        match self.lines.iter().zip(&kept.lines).position(|(a, b)| a != b) {
            Some(k) if self.lines.len() == kept.lines.len() => format!(
                "its line {} is not the kept copy's line {} (both are at line {})",
                k + 1,
                k + 1,
                self.lines.len()
            ),
            Some(k) => format!(
                "its line {} is not the kept copy's line {} (this copy is at line {}, the kept one at line {})",
                k + 1,
                k + 1,
                self.lines.len(),
                kept.lines.len()
            ),
            None => format!(
                "its keys are not the kept copy's (keys here: {}; kept: {}), added at once on two copies",
                list(&self.keyed),
                list(&kept.keyed)
            ),
        }
    }
}

fn list(sides: &[String]) -> String {
    if sides.is_empty() {
        "none".into()
    } else {
        sides.join(", ")
    }
}

/// What one new message holds: a game's entry, a rejection, or nothing
/// (mail that holds no record).
enum Seen {
    Game(Box<(GameEntry, Copy)>),
    Rejected(Rejected),
    Nothing,
}

fn look(bytes: &[u8], address: &str, origin: &str) -> Seen {
    let envelope = record::mail::envelope(bytes).unwrap_or_default();
    let subject = envelope.subject.unwrap_or_default();
    let date = envelope.date.unwrap_or_default();
    let found = match record::read_if_any(bytes) {
        Ok(Some(found)) => found,
        Ok(None) => return Seen::Nothing,
        Err(e) => {
            return Seen::Rejected(Rejected {
                game: None,
                id: None,
                subject,
                verdict: e.message,
            })
        }
    };
    let parsed = record::parse(&found.source);
    let record = match parsed {
        Ok(r) => r,
        Err(e) => {
            let p = Problem::from_parse(&e, &found.source);
            return Seen::Rejected(Rejected {
                game: None,
                id: None,
                subject,
                verdict: Failure::invalid(p, origin).text(),
            });
        }
    };
    let ctx = Ctx {
        origin: origin.to_owned(),
        path: Path::new(origin),
        source: &found.source,
        record: &record,
        stamp: None,
        read: true,
    };
    let game = referee::game_tag(&record).ok().map(str::to_owned);
    let outcome = dispatch_record(&record, Look { ctx: &ctx, address })
        .unwrap_or_else(|e| Err((None, ctx.problem(&e))));
    match outcome {
        Ok(mut entry) => {
            entry.subject = subject;
            entry.date = date;
            let copy = Copy::of(&found.source, &record, &entry);
            Seen::Game(Box::new((entry, copy)))
        }
        Err((id, f)) => Seen::Rejected(Rejected {
            game,
            id,
            subject,
            verdict: f.text(),
        }),
    }
}

/// The copy the inbox keeps of game `id`, read again, if it reads.
fn kept(st: &state::State, id: &str, address: &str) -> Result<Option<(GameEntry, Copy)>, Failure> {
    let Some(entry) = st.games.get(id) else {
        return Ok(None);
    };
    let Ok(bytes) = std::fs::read(state::game_file(id)?) else {
        return Ok(None);
    };
    Ok(match look(&bytes, address, "the inbox's copy") {
        Seen::Game(game) => {
            let (mut kept, copy) = *game;
            // What it was received as.
            kept.subject.clone_from(&entry.subject);
            kept.date.clone_from(&entry.date);
            Some((kept, copy))
        }
        _ => None,
    })
}

/// Read `message` into the state. Of the game's copy kept and this one,
/// the one that ranks first (`Copy::rank`) is kept; the other is given
/// back with why when it is no older state of the kept one (a fork), or
/// when this message is an older copy (stale). The copy kept before,
/// when this one moves the game on, goes without a word.
fn take(
    st: &mut state::State,
    message: &Message,
    address: &str,
    origin: &str,
) -> Result<Vec<Rejected>, Failure> {
    let (entry, copy) = match look(&message.bytes, address, origin) {
        Seen::Nothing => return Ok(Vec::new()),
        Seen::Rejected(r) => return Ok(vec![r]),
        Seen::Game(game) => *game,
    };
    let keep = |st: &mut state::State, entry: GameEntry| -> Result<(), Failure> {
        state::replace(&state::game_file(&entry.id)?, &message.bytes)?;
        st.games.insert(entry.id.clone(), entry);
        Ok(())
    };
    if let Some(name) = conflicting_key(st, &entry, &copy) {
        let verdict = conflict_verdict(&entry, &name, address);
        return Ok(vec![Rejected::of(entry, verdict)]);
    }
    let Some((old, old_copy)) = kept(st, &entry.id, address)? else {
        keep(st, entry)?;
        return Ok(Vec::new());
    };
    // Two different keys for one side: a conflict, never a tie-break by
    // the number of keys; neither copy is taken, both are listed.
    let clash = copy.key_clash(&old_copy);
    if let Some((name, _, _)) = clash.first() {
        let verdict = conflict_verdict(&entry, name, address);
        remember_conflict(st, &entry.id, &clash);
        // The copy kept before is listed now as not taken, with this one.
        return Ok(vec![
            Rejected::of(old, verdict.clone()),
            Rejected::of(entry, verdict),
        ]);
    }
    if copy.same(&old_copy) {
        return Ok(Vec::new());
    }
    // Keys added at once on two copies with no line yet: one game, the
    // union of their keys, as every reader reads a mailbox holding both.
    if let Some(union) = keys_at_once(&entry.id, &copy, &old_copy, message, address, origin)? {
        state::replace(&state::game_file(&entry.id)?, &union.bytes)?;
        st.games.insert(
            entry.id.clone(),
            GameEntry {
                subject: entry.subject,
                date: entry.date,
                ..union.entry
            },
        );
        return Ok(Vec::new());
    }
    if copy.outranks(&old_copy) {
        let moves_on = old_copy.before(&copy);
        let verdict = fork_verdict(&old_copy, &copy, &old, &entry, address);
        keep(st, entry)?;
        if moves_on {
            return Ok(Vec::new());
        }
        return Ok(vec![Rejected::of(old, verdict)]);
    }
    let verdict = if copy.before(&old_copy) {
        stale_verdict(&entry, &copy, &old, &old_copy)
    } else {
        fork_verdict(&copy, &old_copy, &entry, &old, address)
    };
    Ok(vec![Rejected::of(entry, verdict)])
}

impl Rejected {
    /// `entry`'s copy, not taken, and why.
    fn of(entry: GameEntry, verdict: String) -> Rejected {
        Rejected {
            game: Some(entry.game),
            id: Some(entry.id),
            subject: entry.subject,
            verdict,
        }
    }
}

/// A side given two keys: no copy that holds that side's Key tag is
/// taken again (spec section 3.7). The first such tag of `copy`, if any.
fn conflicting_key(st: &state::State, entry: &GameEntry, copy: &Copy) -> Option<String> {
    let conflict = st.key_conflicts.get(&entry.id)?;
    conflict
        .keys()
        .find(|name| copy.key_tags.iter().any(|(n, _)| n == *name))
        .cloned()
}

/// Remember the two keys each side of `clash` was given in game `id`
/// (tag, this copy's value, the kept copy's), and take neither copy.
fn remember_conflict(st: &mut state::State, id: &str, clash: &[(String, String, String)]) {
    let conflict = st.key_conflicts.entry(id.to_owned()).or_default();
    for (tag, mine, theirs) in clash {
        let values = conflict.entry(tag.clone()).or_default();
        values.insert(mine.clone());
        values.insert(theirs.clone());
    }
    st.games.remove(id);
}

/// Why `entry`'s copy, an older state of the kept one (`old`), is not
/// taken: fewer lines, or fewer keys.
fn stale_verdict(entry: &GameEntry, copy: &Copy, old: &GameEntry, old_copy: &Copy) -> String {
    if entry.lines < old.lines {
        format!(
            "stale: this copy is at line {}, the game's newest message at line {}: an older copy, not taken",
            entry.lines, old.lines
        )
    } else {
        format!(
            "stale: this copy has the keys of {}, the game's newest message those of {}: an older copy, not taken",
            list(&copy.keyed),
            list(&old_copy.keyed)
        )
    }
}

/// The game kept as the messages whose union it is: one mailbox file.
struct Union {
    bytes: Vec<u8>,
    entry: GameEntry,
}

/// `copy`, in `message`, and the copy of game `id` kept (`kept`), when
/// both have no line yet and each has keys the other lacks (sides that
/// added their keys at once, each on the message it had): the messages
/// kept with this one, as one mailbox file that reads as the union of
/// their keys (`record::newest`, as `check` and `move` read such a
/// mailbox: spec section 3.7), and that union's entry. `None` when they
/// are no such copies, or their union does not read as a game that both
/// go on to (then the copy is ranked as any other).
fn keys_at_once(
    id: &str,
    copy: &Copy,
    kept: &Copy,
    message: &Message,
    address: &str,
    origin: &str,
) -> Result<Option<Union>, Failure> {
    if !copy.lines.is_empty() || !kept.lines.is_empty() || copy.before(kept) || kept.before(copy) {
        return Ok(None);
    }
    let Ok(kept_bytes) = std::fs::read(state::game_file(id)?) else {
        return Ok(None);
    };
    let mut messages = messages_of(&kept_bytes);
    messages.push(&message.bytes);
    let Some(bytes) = mailbox_of(&messages) else {
        return Ok(None);
    };
    Ok(match look(&bytes, address, origin) {
        Seen::Game(game) => {
            let (entry, union) = *game;
            (entry.id == id && kept.before(&union) && copy.before(&union))
                .then_some(Union { bytes, entry })
        }
        _ => None,
    })
}

/// The messages of a game file the inbox keeps: one message, or the
/// messages of a mailbox file ([`mailbox_of`]).
fn messages_of(bytes: &[u8]) -> Vec<&[u8]> {
    if !record::mail::is_mbox(bytes) {
        return vec![bytes];
    }
    record::mail::split_mbox(bytes)
        .into_iter()
        // The blank line [`mailbox_of`] puts after each message.
        .map(|(_, m)| m.strip_suffix(b"\n").unwrap_or(m))
        .collect()
}

/// `messages` as one mbox file, each after a `From ` line and ended by a
/// blank line; `None` when that file would not read back as these
/// messages (a message with a line that starts `From ` after a blank one).
fn mailbox_of(messages: &[&[u8]]) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    for message in messages {
        bytes.extend_from_slice(b"From herald Thu Jan  1 00:00:00 1970\n");
        bytes.extend_from_slice(message);
        if !message.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        bytes.push(b'\n');
    }
    (record::mail::split_mbox(&bytes).len() == messages.len()).then_some(bytes)
}

/// Why a copy of `entry`'s game is not taken: two copies gave one side
/// two different keys (its Key tag `tag`, lower case). Only a key file's
/// holder can write its side's key message, so one of the two keys was
/// written by someone who does not hold that side's key file, From that
/// side's address; the inbox cannot tell which, and keeps neither. The
/// side's own player (`address_of_player` its contact) is told to say
/// which key is its own and send its key message again.
fn conflict_verdict(entry: &GameEntry, tag: &str, address_of_player: &str) -> String {
    let side = entry
        .sides
        .iter()
        .find(|[s, _]| tag.strip_suffix("key") == Some(s.to_ascii_lowercase().as_str()))
        .map(|[s, contact]| (s.clone(), contact.clone()));
    let Some((side, contact)) = side else {
        return format!("key conflict: two copies of this game give one side two different keys ({tag}); neither is taken");
    };
    let mut verdict = format!(
        "key conflict: two copies of this game give {side} two different keys ({side}Key): one was written by someone who does not hold {side}'s key file, From {side}'s address. Neither copy is taken, nor any later copy with a {side}Key (never the one with more keys); play none of them"
    );
    if address(&contact).eq_ignore_ascii_case(address_of_player) {
        let check = crate::referee::Command::check()
            .on("COPY.eml")
            .key_file("YOUR.key");
        let again = crate::referee::Command::keygen(&side)
            .on("RECORD")
            .key_file("YOUR.key")
            .reply();
        verdict.push_str(&format!(
            "\n{side} is yours: {check} says which copy holds your key (the other is refused); tell every player which key is yours and send your own key message again ({again} on the copy you made it on)"
        ));
    } else {
        verdict.push_str(&format!(
            "\n{side}'s player ({contact}) must say which key is theirs and send their key message again"
        ));
    }
    verdict
}

/// Why `dropped`, a fork of the copy `kept`, is not taken, and, when it
/// holds a key of the player's that the kept copy lacks, how to add it
/// again there.
fn fork_verdict(
    dropped: &Copy,
    kept: &Copy,
    dropped_entry: &GameEntry,
    kept_entry: &GameEntry,
    address_of_player: &str,
) -> String {
    let mut verdict = format!(
        "fork: another copy of this game is kept ({}): {}. Every inbox keeps the same copy of a game: where two copies part, a side's own line over a claim of its forfeit made at the same time; else the one with the most lines, then the most keys, then the smallest SHA-256 of the record; this one is never used",
        if kept_entry.subject.is_empty() {
            "no subject"
        } else {
            &kept_entry.subject
        },
        dropped.fork_from(kept)
    );
    if let Some(fork) = dropped.double_answer(kept) {
        verdict.push('\n');
        verdict.push_str(&fork);
    }
    let lost: Vec<&String> = dropped
        .keyed
        .iter()
        .filter(|side| !kept.keyed.contains(side))
        .filter(|side| {
            dropped_entry.sides.iter().any(|[s, contact]| {
                s == *side && address(contact).eq_ignore_ascii_case(address_of_player)
            })
        })
        .collect();
    for side in lost {
        verdict.push_str(&format!(
            "\n{side}'s key (yours) is in this copy only: add it again on the copy kept, with the key file you made it in (the same key)"
        ));
        match kept_entry.to_play.as_deref() {
            Some(to_play) if kept_entry.due.contains(side) => {
                verdict.push_str(":\n");
                verdict.push_str(to_play);
            }
            _ => verdict.push('.'),
        }
    }
    verdict
}

/// A message the player sent: the game it carries is at its line now
/// (the player's own mail need not come back through the inbox).
pub(crate) fn remember_sent_message(address: &str, bytes: &[u8]) -> Result<(), Failure> {
    let mut st = state::load()?;
    let message = Message {
        id: String::new(),
        bytes: bytes.to_vec(),
    };
    for r in take(&mut st, &message, address, "the message sent")? {
        // Sent all the same; the inbox says which copy it keeps, and why.
        crate::cli::report::eprint_warning(
            &format!(
                "your inbox does not take the game in the message sent: {}",
                r.verdict
            ),
            "herald inbox lists the copy each game keeps and what is due",
        );
    }
    state::save(&st)
}

#[derive(Serialize)]
struct JsonInbox<'a> {
    schema: u32,
    ok: bool,
    new_messages: usize,
    games: Vec<&'a GameEntry>,
    rejected: &'a [Rejected],
}

/// `herald inbox`.
pub(crate) fn inbox(config: Option<&Path>, format: Format) -> Result<Exit, Failure> {
    let config = super::config::load(config)?;
    let mut st = state::load()?;
    let (key, messages) = fetch::new_messages(&config, |k| st.read.get(k).cloned())?;
    let mut rejected = Vec::new();
    for (k, message) in messages.iter().enumerate() {
        let origin = format!("new message {} ({})", k + 1, message.id);
        rejected.extend(take(&mut st, message, &config.account.address, &origin)?);
    }
    let read = st.read.entry(key).or_default();
    read.extend(messages.iter().map(|m| m.id.clone()));
    state::save(&st)?;
    let mut games: Vec<&GameEntry> = st.games.values().collect();
    games.sort_by_key(|g| (!g.yours, g.due.is_empty(), g.id.clone()));
    let ok = rejected.is_empty();
    match format {
        Format::Json => print_json(&JsonInbox {
            schema: SCHEMA_VERSION,
            ok,
            new_messages: messages.len(),
            games,
            rejected: &rejected,
        })?,
        Format::Text | Format::Svg => {
            // The computer's clock, read where the CLI reads it.
            let today = crate::cli::context::clock_today()?;
            out(&text(&games, &rejected, messages.len(), today))?
        }
    }
    Ok(if ok { Exit::Ok } else { Exit::Invalid })
}

/// How long the step due has waited and how long it may wait: `due since
/// 2026-11-16; a forfeit may be claimed from 2026-12-01 (5 days left)`.
fn deadline_text(since: &str, from: &str, today: crate::record::Day) -> String {
    let left = crate::record::Day::parse(from).map(|d| d.0 - today.0);
    let left = match left {
        Some(n) if n > 1 => format!(" ({n} days left)"),
        Some(1) => " (1 day left)".into(),
        Some(_) => " (now)".into(),
        None => String::new(),
    };
    format!("due since {since}; a forfeit may be claimed from {from}{left}")
}

/// The inbox's text: the games under their headings (waiting on the
/// player, on others, over), the copies not taken, and the count.
fn text(
    games: &[&GameEntry],
    rejected: &[Rejected],
    new: usize,
    today: crate::record::Day,
) -> String {
    let mut t = String::new();
    let mut heading = None;
    for g in games {
        let h = if g.yours {
            "Waiting on you:"
        } else if !g.due.is_empty() {
            "Waiting on others:"
        } else {
            "Over:"
        };
        if heading != Some(h) {
            t.push_str(h);
            t.push('\n');
            heading = Some(h);
        }
        game_text(g, today, &mut t);
    }
    if !rejected.is_empty() {
        t.push_str("Not taken (listed, never used):\n");
        for r in rejected {
            rejected_text(r, &mut t);
        }
    }
    t.push_str(&format!(
        "{new} new message{} read, {} game{} known\n",
        if new == 1 { "" } else { "s" },
        games.len(),
        if games.len() == 1 { "" } else { "s" }
    ));
    t
}

/// A game of the inbox's list, into `t`: its id, game and players, what
/// is due (or its result), its deadline, its last message, its summary
/// and what to play.
fn game_text(g: &GameEntry, today: crate::record::Day, t: &mut String) {
    let players: Vec<String> = g
        .sides
        .iter()
        .map(|[side, contact]| format!("{side} {contact}"))
        .collect();
    t.push_str(&format!(
        "  {}  {}, {}; {} turn{}\n",
        g.id,
        g.game,
        players.join(" vs "),
        g.turns,
        if g.turns == 1 { "" } else { "s" }
    ));
    match &g.due_text {
        Some(text) => t.push_str(&format!("      due: {text}\n")),
        None => t.push_str(&format!("      result {}\n", g.result)),
    }
    if let (Some(since), Some(from)) = (&g.since, &g.claimable_from) {
        t.push_str(&format!("      {}\n", deadline_text(since, from, today)));
    }
    t.push_str(&format!("      last message: {} ({})\n", g.subject, g.date));
    t.push_str(&format!("      {}\n", g.summary));
    if let Some(to_play) = &g.to_play {
        let mut lines = to_play.lines();
        t.push_str(&format!(
            "      to play: {}\n",
            lines.next().unwrap_or_default()
        ));
        for line in lines {
            t.push_str(&format!("          {line}\n"));
        }
    }
}

/// A copy not taken, into `t`: its id and subject (one herald wrote
/// names the game already), then why.
fn rejected_text(r: &Rejected, t: &mut String) {
    let game = r.game.as_deref().unwrap_or("a record");
    let head = match r.subject.as_str() {
        "" => format!("{game}: (no subject)"),
        subject if subject.starts_with(&format!("{game}: ")) => subject.to_owned(),
        subject => format!("{game}: {subject}"),
    };
    t.push_str(&format!(
        "  {}{head}\n",
        r.id.as_deref()
            .map(|i| format!("{i}  "))
            .unwrap_or_default(),
    ));
    for line in r.verdict.lines() {
        t.push_str(&format!("      {line}\n"));
    }
}

/// A RECORD argument that names a game id (`files::record_file`): the
/// newest valid message of a game the inbox knows,
/// when `record` names no file but looks like a game id. An id the inbox
/// does not know (or that names two games) is refused, saying so.
pub(crate) fn resolve(record: &Path) -> Result<Option<std::path::PathBuf>, Failure> {
    if record.exists() {
        return Ok(None);
    }
    let Some(name) = record.to_str() else {
        return Ok(None);
    };
    if name.len() < 4 || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let st = state::load()?;
    let name = name.to_ascii_lowercase();
    let matching: Vec<&String> = st.games.keys().filter(|id| id.starts_with(&name)).collect();
    match matching.as_slice() {
        [id] => {
            let path = state::game_file(id)?;
            if path.is_file() {
                Ok(Some(path))
            } else {
                Err(Failure::usage(format!(
                    "the inbox knows game {id} but its message {} is gone: run herald inbox again, or name the record's file",
                    path.display()
                )))
            }
        }
        [] => Err(Failure::usage(format!(
            "{name} is no file, nor a game your inbox knows: run herald inbox (it lists each game's id), or name the record's file"
        ))),
        many => Err(Failure::usage(format!(
            "{name} names {} games the inbox knows ({}): give more of the id",
            many.len(),
            many.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

#[cfg(test)]
mod deadline_tests {
    use super::deadline_text;
    use crate::record::Day;

    #[test]
    fn the_inbox_says_since_when_a_step_is_due_and_the_days_left_before_a_claim() {
        let today = Day::parse("2026-11-28").unwrap();
        assert_eq!(
            deadline_text("2026-11-20", "2026-12-05", today),
            "due since 2026-11-20; a forfeit may be claimed from 2026-12-05 (7 days left)"
        );
        assert_eq!(
            deadline_text("2026-11-14", "2026-11-29", today),
            "due since 2026-11-14; a forfeit may be claimed from 2026-11-29 (1 day left)"
        );
        assert_eq!(
            deadline_text("2026-11-01", "2026-11-16", today),
            "due since 2026-11-01; a forfeit may be claimed from 2026-11-16 (now)"
        );
    }
}

#[cfg(test)]
mod copy_tests {
    use super::GameEntry;

    fn entry(due: &str) -> GameEntry {
        let json = format!(
            r#"{{"id":"3f2a9c1b04de","game":"Castle Danger","sides":[["Blue","a@x"],["Red","b@x"]],
            "lines":1,"keys":2,"turns":1,"due":{due},"due_line":null,"due_text":null,"yours":false,
            "result":"*","summary":"","subject":"","date":""}}"#
        );
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn an_inbox_state_written_when_due_was_one_side_still_reads() {
        assert_eq!(entry(r#""Red""#).due, ["Red"]);
        assert!(entry("null").due.is_empty());
        assert_eq!(entry(r#"["Elf","Goblin"]"#).due, ["Elf", "Goblin"]);
        // Written before `to_play` was kept.
        assert_eq!(entry("null").to_play, None);
    }
}

#[cfg(test)]
mod not_taken_tests {
    use super::{text, Rejected};
    use crate::record::Day;

    fn rejected(game: Option<&str>, subject: &str) -> Rejected {
        Rejected {
            game: game.map(str::to_owned),
            id: Some("3f2a9c1b04de".into()),
            subject: subject.into(),
            verdict: "fork: another copy".into(),
        }
    }

    /// A copy not taken is headed by its game and its subject once: a
    /// subject herald wrote names the game already.
    #[test]
    fn a_copy_not_taken_names_its_game_once() {
        let today = Day::parse("2026-11-28").unwrap();
        let listed = [
            rejected(
                Some("Battle of the Dale"),
                "Battle of the Dale: Elf's key added",
            ),
            rejected(Some("Battle of the Dale"), "Re: our game"),
            rejected(None, ""),
        ];
        let t = text(&[], &listed, 3, today);
        assert!(
            t.contains("  3f2a9c1b04de  Battle of the Dale: Elf's key added\n"),
            "{t}"
        );
        assert!(
            t.contains("  3f2a9c1b04de  Battle of the Dale: Re: our game\n"),
            "{t}"
        );
        assert!(
            t.contains("  3f2a9c1b04de  a record: (no subject)\n"),
            "{t}"
        );
        assert!(!t.contains("Battle of the Dale: Battle of the Dale"), "{t}");
    }
}

#[cfg(test)]
mod rank_tests {
    use super::{Copy, CopyLine};
    use std::collections::BTreeSet;

    fn copy(lines: &[&str], sha: u8) -> Copy {
        Copy {
            sha256: [sha; 32],
            keyed: vec!["Blue".into(), "Red".into()],
            key_tags: BTreeSet::new(),
            lines: lines
                .iter()
                .map(|l| CopyLine {
                    text: (*l).to_owned(),
                    claim: l.contains("forfeitclaimedby"),
                })
                .collect(),
        }
    }

    /// A claimed side's answer and the claim of its forfeit, written on
    /// the same record at once: every inbox keeps the answer, whichever
    /// comes first and whatever the digests, as `move` goes on from it.
    #[test]
    fn a_claimed_sides_answer_outranks_the_claim_it_crossed() {
        let start = ["1.Blue:Kc1-b1sigab", "2.Red:Kc9-b9sigcd"];
        let with = |last: &'static str| {
            let mut lines = start.to_vec();
            lines.push(last);
            lines
        };
        for (answer_sha, claim_sha) in [(1, 2), (2, 1)] {
            let answer = copy(&with("3.Blue:Cd1-d2sigef"), answer_sha);
            let claim = copy(&with("3.Blue:forfeitclaimedbyRedsig01"), claim_sha);
            assert!(answer.outranks(&claim));
            assert!(!claim.outranks(&answer));
        }
        // Else the longer copy, then the smaller digest.
        let longer = copy(&with("3.Blue:Cd1-d2sigef"), 9);
        let shorter = copy(&start, 1);
        assert!(longer.outranks(&shorter) && !shorter.outranks(&longer));
    }

    /// Two lines of one side that answer the same record, one in each
    /// copy (the side answered a message twice, or once more after a
    /// claim of its forfeit that crossed its first answer): the copy not
    /// taken says it is a fork by that side, naming the lines.
    #[test]
    fn two_lines_of_one_side_answering_one_record_are_named_its_fork() {
        let start = ["1.Blue:Kc1-b1sigab", "2.Red:Kc9-b9sigcd"];
        let with = |last: &'static str| {
            let mut lines = start.to_vec();
            lines.push(last);
            lines
        };
        // Blue's answer, and another written after the claim that
        // crossed it: two lines of Blue answering one record.
        let answer = copy(&with("3.Blue:Cd1-d2sigef"), 1);
        let mut forked = with("3.Blue:forfeitclaimedbyRedsig01");
        forked.push("4.Blue:Cd1-d3sig02");
        let forked = copy(&forked, 2);
        for (a, b) in [(&forked, &answer), (&answer, &forked)] {
            assert_eq!(
                a.double_answer(b).as_deref(),
                Some("Blue wrote two lines that answer the same record: its turn 3 in one copy and its turn 4 after the claim of its forfeit on turn 3 in the other. A side answers a record once: this is a fork by Blue, which the other players should not accept (nor answer): go on from the copy kept, and tell them")
            );
        }
        // Two different turn 3s of Blue.
        let other = copy(&with("3.Blue:Cd1-d3sigee"), 3);
        assert!(other
            .double_answer(&answer)
            .unwrap()
            .contains("its turn 3 in one copy and another turn 3 in the other"));
        // A claim alone, crossing the answer, is no fork.
        let claim = copy(&with("3.Blue:forfeitclaimedbyRedsig01"), 2);
        assert_eq!(claim.double_answer(&answer), None);
    }
}
