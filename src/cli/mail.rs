//! The command line's part in email: reading records out of messages and
//! mailboxes (`check --all`, `extract`) and writing a reply message
//! (`move --reply`). The decoding itself is the record layer's
//! (`record::mail`, `record::find`); this module reads and writes files.

use std::path::Path;

use serde::Serialize;

use super::args::{Format, Input};
use super::context::{dispatch_record, print_json, Ctx, RecordCommand, SCHEMA_VERSION};
use super::files;
use super::many::Verdict;
use super::out;
use super::report::{Exit, Failure, JsonError, Problem};
use crate::game::{self, DiagramStyle, Game};
use crate::record::{self, Found, Source};
use crate::referee::{possessives, Referee};

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
            // `check --all` only reads: nothing is rewritten.
            stamp: None,
        };
        dispatch_record(&record, Verdict { ctx: &ctx }).unwrap_or_else(|e| Err(ctx.problem(&e)))
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
    let records: Vec<JsonVerdict> = super::many::parallel_map(&all, |f| verdict(path, f));
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
        Format::Text | Format::Svg => out(&all_text(path, &all, &records, newest, newest_error))?,
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

// ---------------------------------------------------------------- extract

/// `herald extract`: the record out of a message, a mailbox or any text,
/// as a clean record file.
pub(super) struct Extract {
    pub(super) output: Option<std::path::PathBuf>,
}

impl RecordCommand for Extract {
    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        // The record's own text, as clean as it reads.
        let text = record::Splice::new().extracted(ctx.source, ctx.record);
        // What is written must read back as the same record.
        let again = Source::new(text.as_bytes()).map_err(|e| Failure::usage(e.message))?;
        let reread = record::parse(&again)
            .map_err(|e| Failure::invalid(Problem::from_parse(&e, &again), "<extracted>"))?;
        match &self.output {
            Some(path) if path.as_os_str() == "-" => out(&text)?,
            Some(path) => {
                files::write_new(path, text.as_bytes())?;
                out(&format!(
                    "wrote the {} record of {} ({} line{}) to {}\n",
                    G::TITLE,
                    ctx.origin,
                    reread.turns.len(),
                    if reread.turns.len() == 1 { "" } else { "s" },
                    path.display()
                ))?;
            }
            None => out(&text)?,
        }
        Ok(Exit::Ok)
    }
}

// ---------------------------------------------------------------- move --reply

/// The longest line of a reply message.
const MAIL_WIDTH: usize = 78;

/// `move --reply -o FILE`: where the reply goes.
#[derive(Debug)]
pub(super) struct Reply {
    pub(super) output: std::path::PathBuf,
    /// `--send`: send it once written.
    pub(super) send: bool,
    /// `--config`: the mail configuration to send with.
    pub(super) config: Option<std::path::PathBuf>,
}

/// What a reply message says, before its date and id are known.
struct Letter {
    from: String,
    to: Vec<String>,
    cc: Vec<String>,
    subject: String,
    in_reply_to: Option<String>,
    references: Option<String>,
    body: String,
}

/// A line of a record within [`MAIL_WIDTH`] columns where it can be
/// broken: a tag at its space before the value, another line at its last
/// space that fits (the rest indented as a continuation line).
fn wrap_line(line: &str, out: &mut String) {
    if line.chars().count() <= MAIL_WIDTH {
        out.push_str(line);
        out.push('\n');
        return;
    }
    if line.starts_with('[') {
        if let Some((name, value)) = line.split_once(" \"") {
            out.push_str(&format!("{name}\n\"{value}\n"));
            return;
        }
    }
    let cut = line
        .char_indices()
        .take_while(|(k, _)| *k <= MAIL_WIDTH)
        .filter(|(k, c)| *c == ' ' && !line[..*k].trim_start().is_empty())
        .map(|(k, _)| k)
        .last();
    match cut {
        Some(k) => {
            out.push_str(&line[..k]);
            out.push('\n');
            wrap_line(&format!("    {}", line[k..].trim_start()), out);
        }
        None => {
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// The whole message, headers and body, as `sendmail -t` takes it.
fn message_text(letter: &Letter, date: &str, id: &str) -> String {
    let mut head = format!("From: {}\nTo: {}\n", letter.from, letter.to.join(", "));
    if !letter.cc.is_empty() {
        head.push_str(&format!("Cc: {}\n", letter.cc.join(", ")));
    }
    head.push_str(&format!(
        "Subject: {}\nDate: {date}\nMessage-ID: {id}\n",
        letter.subject
    ));
    if let Some(parent) = &letter.in_reply_to {
        head.push_str(&format!("In-Reply-To: {parent}\n"));
        let refs = match &letter.references {
            Some(r) => format!("{r} {parent}"),
            None => parent.clone(),
        };
        // Folded so that a long thread keeps its lines short.
        let mut line = String::from("References:");
        for r in refs.split_whitespace() {
            if line.len() + 1 + r.len() > MAIL_WIDTH {
                head.push_str(&line);
                head.push('\n');
                line = String::new();
            }
            line.push(' ');
            line.push_str(r);
        }
        head.push_str(&line);
        head.push('\n');
    }
    let encoding = if letter.body.is_ascii() {
        "7bit"
    } else {
        "8bit"
    };
    head.push_str(&format!(
        "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: {encoding}\n\n"
    ));
    head + &letter.body
}

/// The date as RFC 5322 writes it, in UTC: `Sat, 22 Nov 2025 21:00:00 +0000`.
fn mail_date(unix: u64) -> String {
    let days = unix / 86_400;
    let secs = unix % 86_400;
    // Civil from days (Howard Hinnant's algorithm), from 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{}, {day} {} {year} {:02}:{:02}:{:02} +0000",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize],
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// The address part of a contact (`Ann <ann@x.org>` gives `ann@x.org`),
/// empty for a contact that is a name alone.
pub(super) fn address(contact: &str) -> &str {
    record::Contact::parse(contact)
        .ok()
        .and_then(|c| c.address())
        .unwrap_or_default()
}

/// What `sides` owe, for a subject: `Red's audit`, `Red's and Blue's
/// audits` (`noun`: `audit`, `key`).
fn owed<G: Game>(sides: &[game::Side], noun: &str) -> String {
    let plural = if sides.len() > 1 { "s" } else { "" };
    format!("{} {noun}{plural}", possessives::<G>(sides))
}

/// What the reply says: to the side(s) due next, copied to the others,
/// the turn just played, the diagram, whose turn it is and the record.
fn letter<G: Game>(
    ctx: &Ctx<'_>,
    referee: &Referee<G>,
    mover: game::Side,
    played: &str,
    record: &str,
) -> Result<Letter, Failure> {
    let header = referee.header();
    let contact = |side: game::Side| {
        header
            .index_of(side)
            .and_then(|i| header.contacts().get(i))
            .cloned()
    };
    // Every contact the message names must be a mail address: a game
    // whose contacts are names alone goes by hand (the record file).
    let mailable = |side: game::Side| -> Result<String, Failure> {
        let c = contact(side).unwrap_or_default();
        if address(&c).is_empty() {
            return Err(Failure::usage(format!(
                "{}'s contact `{c}` is no mail address, so no message can go {} it: \
                 send the record file by hand (drop --reply), or start the game with \
                 --side {}=ADDRESS",
                side.name::<G>(),
                if side == mover { "from" } else { "to" },
                side.name::<G>()
            )));
        }
        Ok(c)
    };
    let from = mailable(mover)?;
    // To every side whose line may come next (audits and keys come in
    // any order), copied to the others; one player's address once, and
    // never the writer's own in Cc (a player of two sides of four
    // castles).
    let mut next = referee.sides_due();
    next.retain(|s| *s != mover);
    let mut others = Vec::new();
    for s in header.sides() {
        if *s != mover && !next.contains(s) {
            others.push(mailable(*s)?);
        }
    }
    let mut due = Vec::new();
    for s in &next {
        due.push(mailable(*s)?);
    }
    let (to_all, cc_all) = if due.is_empty() {
        (others, Vec::new())
    } else {
        (due, others)
    };
    // Each address named once, the writer's own never: it goes To the
    // writer only when no one else's would.
    let mut named = vec![address(&from).to_ascii_lowercase()];
    let mut new_only = |list: Vec<String>| -> Vec<String> {
        list.into_iter()
            .filter(|c| {
                let a = address(c).to_ascii_lowercase();
                let new = !named.contains(&a);
                named.push(a);
                new
            })
            .collect()
    };
    let first = to_all.first().cloned();
    let mut to = new_only(to_all);
    if to.is_empty() {
        to.extend(first);
    }
    let cc = new_only(cc_all);
    let agreed = referee.draw_agreed().is_some();
    let status = match (referee.open_claim(), referee.to_move()) {
        (Some((target, _)), _) => format!("{}'s own line voids it", target.name::<G>()),
        (None, Some(_)) if referee.phase() == game::Phase::Audit && agreed => format!(
            "drawn by agreement, {} due, the result provisional",
            owed::<G>(&referee.audits_due(), "audit")
        ),
        (None, Some(_)) if referee.phase() == game::Phase::Audit => {
            format!(
                "{} due, the result provisional",
                owed::<G>(&referee.audits_due(), "audit")
            )
        }
        (None, Some(side)) if referee.setup_due() == Some(crate::referee::SetupStep::Key) => {
            format!("{}'s key due", side.name::<G>())
        }
        (None, Some(_)) if !referee.keys_due().is_empty() => {
            format!("{} due", owed::<G>(&referee.keys_due(), "key"))
        }
        (None, Some(side)) if referee.phase() == game::Phase::Setup => {
            format!("{}'s set-up step due", side.name::<G>())
        }
        (None, Some(side)) if referee.draw_offered_to(side).is_some() => {
            let (by, _) = referee.draw_offered_to(side).unwrap_or((side, 0));
            format!(
                "{} offers a draw, {} to answer",
                by.name::<G>(),
                side.name::<G>()
            )
        }
        (None, Some(side)) if !referee.outcome().is_over() => {
            format!("{} to move", side.name::<G>())
        }
        (None, _) if agreed && referee.final_result().as_deref() == Some("draw:agreement") => {
            "drawn by agreement".into()
        }
        // Over: the result in words (`Blue won: Red resigned`).
        _ => referee
            .summary()
            .lines()
            .next()
            .map_or_else(|| format!("result {}", referee.result()), str::to_owned),
    };
    // The turn, when a set-up line went with it (`setup --then`).
    let first = played
        .lines()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .or_else(|| played.lines().next())
        .unwrap_or_default()
        .trim();
    let head = first.split(':').next().unwrap_or_default();
    let claimed = first.contains("forfeit claimed by");
    let which = match head.split_once(". ") {
        Some((n, side)) if claimed => format!("{side}'s forfeit claimed on turn {n}"),
        Some((n, side)) if n.starts_with(|c: char| c.is_ascii_digit()) => {
            format!("turn {n} ({side})")
        }
        Some((n, side)) => format!("set-up line {n} ({side})"),
        None => head.to_owned(),
    };
    // A line (`12. Blue: ...`, `S2. Red: ...`) was played; anything else
    // (`Red's key added`) says what happened in its own words.
    let is_line = head
        .split_once(". ")
        .is_some_and(|(n, _)| n.trim_start_matches('S').parse::<u32>().is_ok());
    let subject = if claimed || !is_line {
        format!("{}: {which}, {status}", G::TITLE)
    } else {
        format!("{}: {which} played, {status}", G::TITLE)
    };
    let diagram = anstream::adapter::strip_str(&super::commands::diagram_with_step(
        G::diagram(referee.state(), DiagramStyle { unicode: false }),
        referee.state(),
        referee,
    ))
    .to_string();
    let mut body = format!("{first}\n\n{diagram}\n");
    for line in record.lines() {
        wrap_line(line, &mut body);
    }
    body.push_str(&format!(
        "\n-- \nRefereed by herald. To check it: herald check MESSAGE.eml\n{}\n",
        answer_hint(referee)
    ));
    let envelope = files::read_bytes(ctx.path)
        .ok()
        .and_then(|bytes| record::mail::envelope(&bytes));
    Ok(Letter {
        from,
        to,
        cc,
        subject,
        in_reply_to: envelope.as_ref().and_then(|e| e.message_id.clone()),
        references: envelope.and_then(|e| e.references),
        body,
    })
}

/// What the receiver of a message does next, with the command that does
/// it in this phase (spec section 3.7): add a key, a set-up step, a turn,
/// a farewell line, an audit; nothing once the game is over.
fn answer_hint<G: Game>(referee: &Referee<G>) -> String {
    let Some(due) = referee.step_due() else {
        return "The game is over: herald check MESSAGE.eml gives the result.".into();
    };
    let name = due.side.name::<G>();
    if let (Some((by, turn)), "turn") = (referee.draw_offered_to(due.side), due.step) {
        // The side due answers a draw offer: both answers, named.
        let accept = if referee.accepts_last(due.side) {
            "accept draw"
        } else {
            "YOUR TURN, accept draw"
        };
        return format!(
            "Next, {name} ({}): {} offered a draw on turn {turn}. Accept it with:\n\
             herald move MESSAGE.eml \"{accept}\" --key KEY --reply -o reply.eml\n\
             or decline it by playing on:\n\
             herald move MESSAGE.eml \"YOUR TURN\" --key KEY --reply -o reply.eml",
            due.line,
            by.name::<G>()
        );
    }
    // The choices a set-up step that commits cannot go without.
    let required: String = match due.step {
        "commit" => G::SETUP_CHOICES
            .iter()
            .filter(|c| c.default == crate::game::ChoiceDefault::Required)
            .map(|c| format!(" --{} {}", c.name, c.name.to_ascii_uppercase()))
            .collect(),
        _ => String::new(),
    };
    let command = match due.step {
        "keygen" => format!(
            "herald keygen --side {name} MESSAGE.eml --key {}.key --reply -o reply.eml",
            name.to_ascii_lowercase()
        ),
        "turn" => "herald move MESSAGE.eml \"YOUR TURN\" --key KEY --reply -o reply.eml".into(),
        "audit" => "herald move MESSAGE.eml audit --key KEY --reply -o reply.eml".into(),
        "farewell" => "herald move MESSAGE.eml pass --key KEY --reply -o reply.eml".into(),
        // Protocol 3: the side's key joins with its first set-up line.
        _ if referee.header().commit(due.side).is_none() => format!(
            "herald setup MESSAGE.eml --side {name} --key {}.key{required} --reply -o reply.eml\n(your key is made with your first line; herald setup --help lists the choices)",
            name.to_ascii_lowercase()
        ),
        _ => format!("herald setup MESSAGE.eml --key KEY{required} --reply -o reply.eml\n(herald setup --help lists the choices)"),
    };
    let sides = referee.sides_due();
    if sides.len() > 1 {
        // Keys before turn 1 and audits come in any order: each side
        // writes its own on the record as it finds it.
        let (noun, command) = match due.step {
            "keygen" => (
                "key",
                "herald keygen --side SIDE MESSAGE.eml --key SIDE.key --reply -o reply.eml".into(),
            ),
            _ => ("audit", command),
        };
        return format!(
            "Next, {}, in any order, each answering with:\n{command}",
            owed::<G>(&sides, noun)
        );
    }
    // A key is due before the line it names (`turn 1`, `S1`).
    let what = match due.step {
        "keygen" => format!("its key, before {}", due.line),
        _ => due.line,
    };
    format!("Next, {name} ({what}), answering with:\n{command}")
}

/// Write the reply message for the line just played: the whole record
/// with `line` added (and `result` in its Result tag), as a new file.
pub(super) fn write_reply<G: Game>(
    ctx: &Ctx<'_>,
    reply: &Reply,
    referee: &Referee<G>,
    mover: game::Side,
    line: &str,
    result: Option<&str>,
) -> Result<(), Failure> {
    let record = record::Splice::new()
        .line(line)
        .result(result)
        .extracted(ctx.source, ctx.record);
    write_message(ctx, reply, referee, mover, line, &record)
}

/// Write the message that carries `record` (the whole record after what
/// `mover` did, `what`: the line played, or in words what happened) as a
/// new file; `referee` is the game after it.
pub(super) fn write_message<G: Game>(
    ctx: &Ctx<'_>,
    reply: &Reply,
    referee: &Referee<G>,
    mover: game::Side,
    what: &str,
    record: &str,
) -> Result<(), Failure> {
    let letter = letter::<G>(ctx, referee, mover, what, record)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut salt = [0u8; 6];
    let _ = getrandom::fill(&mut salt);
    let domain = address(&letter.from)
        .rsplit_once('@')
        .map_or("herald.invalid", |(_, d)| d);
    let id = format!("<herald.{now}.{}@{domain}>", hex::encode(salt));
    let text = message_text(&letter, &mail_date(now), &id);
    files::write_new(&reply.output, text.as_bytes())?;
    out(&format!(
        "wrote the reply to {} (To: {}{})\n",
        reply.output.display(),
        letter.to.join(", "),
        if letter.cc.is_empty() {
            String::new()
        } else {
            format!("; Cc: {}", letter.cc.join(", "))
        }
    ))
}

// ---------------------------------------------------------------- the turn typed

/// `move` with no turn on a terminal: ask for it (one line) rather than
/// wait silently for the end of standard input. `None` when standard
/// input is not a terminal (a pipe: read it whole, as ever).
pub(super) fn prompt_turn() -> Result<Option<String>, Failure> {
    use std::io::{BufRead, IsTerminal, Write};
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Ok(None);
    }
    let mut err = std::io::stderr();
    let _ = write!(
        err,
        "Your turn (actions separated by commas, pass or resign, offer draw or accept draw after them; Enter to finish): "
    );
    let _ = err.flush();
    let mut line = String::new();
    stdin
        .lock()
        .read_line(&mut line)
        .map_err(|e| Failure::usage(format!("cannot read the turn: {e}")))?;
    Ok(Some(line.trim().to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_rfc_5322_says() {
        assert_eq!(mail_date(0), "Thu, 1 Jan 1970 00:00:00 +0000");
        assert_eq!(mail_date(1_763_845_200), "Sat, 22 Nov 2025 21:00:00 +0000");
        assert_eq!(mail_date(951_782_400), "Tue, 29 Feb 2000 00:00:00 +0000");
    }

    #[test]
    fn long_record_lines_are_broken_within_78_columns() {
        let mut out = String::new();
        let commit = format!("[BlueCommit \"{}\"]", "a".repeat(64));
        wrap_line(&commit, &mut out);
        assert_eq!(out, format!("[BlueCommit\n\"{}\"]\n", "a".repeat(64)));
        let mut out = String::new();
        wrap_line(
            &format!("1. Blue: {}", vec!["Kc1-b1"; 20].join(", ")),
            &mut out,
        );
        assert!(out.lines().all(|l| l.len() <= MAIL_WIDTH), "{out}");
        assert!(out.lines().skip(1).all(|l| l.starts_with("    ")));
    }
}
