//! `herald inbox`: the player's games found in new mail, each record
//! checked, the games waiting on the player first. A tampered or stale
//! record is listed with its verdict and never taken.

use std::path::Path;

use serde::{Deserialize, Serialize};

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
    /// The side whose step is due, its line and the step in words.
    pub(crate) due: Option<String>,
    pub(crate) due_line: Option<String>,
    pub(crate) due_text: Option<String>,
    /// Whether the step due is this player's.
    pub(crate) yours: bool,
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
        let yours = referee.sides_due().into_iter().any(|side| {
            header
                .index_of(side)
                .is_some_and(|k| address(&contact(k)).eq_ignore_ascii_case(self.address))
        });
        Ok(GameEntry {
            id: short_id(header),
            game: G::TITLE.to_owned(),
            sides,
            lines: self.ctx.record.turns.len(),
            keys: header
                .sides()
                .iter()
                .filter(|&&s| header.key(s).is_some())
                .count(),
            turns: referee.turns(),
            due: due.as_ref().map(|d| d.side.name::<G>().to_owned()),
            due_line: due.as_ref().map(|d| d.line.clone()),
            since: due.as_ref().and(referee.last_date()).map(|d| d.to_string()),
            claimable_from: due
                .as_ref()
                .and(referee.last_date())
                .zip(header.deadline())
                .map(|(since, days)| crate::record::Day(since.0 + days + 1).to_string()),
            due_text: due.map(|d| d.text),
            yours,
            result: referee.result(),
            summary: referee.summary(),
            subject: String::new(),
            date: String::new(),
        })
    }
}

/// What one new message holds: a game's entry, a rejection, or nothing
/// (mail that holds no record).
enum Seen {
    Game(Box<GameEntry>),
    Rejected(Rejected),
    Nothing,
}

fn look(message: &Message, address: &str, origin: &str) -> Seen {
    let envelope = record::mail::envelope(&message.bytes).unwrap_or_default();
    let subject = envelope.subject.unwrap_or_default();
    let date = envelope.date.unwrap_or_default();
    let found = match record::read_if_any(&message.bytes) {
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
    };
    let game = referee::game_tag(&record).ok().map(str::to_owned);
    let outcome = dispatch_record(&record, Look { ctx: &ctx, address })
        .unwrap_or_else(|e| Err((None, ctx.problem(&e))));
    match outcome {
        Ok(mut entry) => {
            entry.subject = subject;
            entry.date = date;
            Seen::Game(Box::new(entry))
        }
        Err((id, f)) => Seen::Rejected(Rejected {
            game,
            id,
            subject,
            verdict: f.text(),
        }),
    }
}

/// Read `message` into the state: a newer valid record of a game
/// becomes the game's newest message; a record that does not check, or
/// an older copy, is given back with its verdict.
fn take(
    st: &mut state::State,
    message: &Message,
    address: &str,
    origin: &str,
) -> Result<Option<Rejected>, Failure> {
    match look(message, address, origin) {
        Seen::Nothing => Ok(None),
        Seen::Rejected(r) => Ok(Some(r)),
        Seen::Game(entry) => match st.games.get(&entry.id) {
            Some(old) if (old.lines, old.keys) > (entry.lines, entry.keys) => Ok(Some(Rejected {
                game: Some(entry.game.clone()),
                id: Some(entry.id.clone()),
                subject: entry.subject.clone(),
                verdict: format!(
                    "stale: this copy is at line {}, the game's newest message at line {}: an older copy, not taken",
                    entry.lines, old.lines
                ),
            })),
            Some(old) if (old.lines, old.keys) == (entry.lines, entry.keys) => Ok(None),
            _ => {
                state::replace(&state::game_file(&entry.id)?, &message.bytes)?;
                st.games.insert(entry.id.clone(), *entry);
                Ok(None)
            }
        },
    }
}

/// A message the player sent: the game it carries is at its line now
/// (the player's own mail need not come back through the inbox).
pub(crate) fn remember_sent_message(address: &str, bytes: &[u8]) -> Result<(), Failure> {
    let mut st = state::load()?;
    let message = Message {
        id: String::new(),
        bytes: bytes.to_vec(),
    };
    take(&mut st, &message, address, "the message sent")?;
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
        if let Some(r) = take(&mut st, message, &config.account.address, &origin)? {
            rejected.push(r);
        }
    }
    let read = st.read.entry(key).or_default();
    read.extend(messages.iter().map(|m| m.id.clone()));
    state::save(&st)?;
    let mut games: Vec<&GameEntry> = st.games.values().collect();
    games.sort_by_key(|g| (!g.yours, g.due.is_none(), g.id.clone()));
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
        } else if g.due.is_some() {
            "Waiting on others:"
        } else {
            "Over:"
        };
        if heading != Some(h) {
            t.push_str(h);
            t.push('\n');
            heading = Some(h);
        }
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
        if g.yours {
            t.push_str(&format!(
                "      to play: herald move {} \"YOUR TURN\" --key KEY --reply -o reply.eml --send\n",
                g.id
            ));
        }
    }
    if !rejected.is_empty() {
        t.push_str("Not taken (listed, never used):\n");
        for r in rejected {
            t.push_str(&format!(
                "  {}{}: {}\n",
                r.id.as_deref()
                    .map(|i| format!("{i}  "))
                    .unwrap_or_default(),
                r.game.as_deref().unwrap_or("a record"),
                if r.subject.is_empty() {
                    "(no subject)"
                } else {
                    &r.subject
                }
            ));
            for line in r.verdict.lines() {
                t.push_str(&format!("      {line}\n"));
            }
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
