//! The command line's part in email: reading records out of messages and
//! mailboxes (`check --all`, `extract`) and writing a reply message
//! (`move --reply`). The decoding itself is the record layer's
//! (`record::mail`, `record::find`); this module reads and writes files.

use std::path::Path;

use lettre::message::header::{self, ContentTransferEncoding, ContentType};
use lettre::message::{Body, Mailbox, Mailboxes};
use lettre::Message;
use serde::Serialize;

use super::args::{Format, Input};
use super::context::{dispatch_record, print_json, Ctx, RecordCommand, SCHEMA_VERSION};
use super::files;
use super::many::Verdict;
use super::out;
use super::report::{Exit, Failure, JsonError, Problem};
use crate::game::{self, DiagramStyle, Game};
use crate::record::{self, Found, Source};
use crate::referee::{Command, Referee, SetupStep, Step, Writing};

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
            read: true,
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
    /// The other sides left out of Cc, having no address: (side, contact).
    unmailed: Vec<(String, String)>,
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

/// A contact as a mailbox of lettre's (`Ann <ann@x.org>`), or why mail
/// cannot go to it.
fn mailbox(contact: &str) -> Result<Mailbox, String> {
    let c = record::Contact::parse(contact)?;
    let address = c
        .address()
        .ok_or_else(|| format!("`{contact}` is a name alone, no mail address"))?;
    let email: lettre::Address = address
        .parse()
        .map_err(|e| format!("`{address}` is no address mail can go to: {e}"))?;
    Ok(Mailbox::new(c.name().map(str::to_owned), email))
}

/// One mailbox as it stands in a header. lettre writes an ASCII name as
/// RFC 5322 asks when it displays a mailbox (a name with a `.` quoted),
/// and encodes any other name (RFC 2047) when it writes the mailbox into
/// a header; its header writing leaves an ASCII name with a `.` bare
/// (`Bob.B <b@x.org>`, the obsolete syntax), so each is taken where
/// lettre writes it right.
fn mailbox_text(mailbox: &Mailbox) -> String {
    if mailbox.name.as_deref().is_none_or(str::is_ascii) {
        return mailbox.to_string();
    }
    let mut one = header::Headers::new();
    one.set(header::To::from(Mailboxes::from(mailbox.clone())));
    let text = one.to_string();
    let value = text.strip_prefix("To: ").unwrap_or(&text);
    value.strip_suffix("\r\n").unwrap_or(value).to_owned()
}

/// An address header (`From`, `To`, `Cc`) naming `list`, each mailbox as
/// [`mailbox_text`] writes it.
fn address_header(name: &'static str, list: &[Mailbox]) -> header::HeaderValue {
    let raw = list.iter().cloned().collect::<Mailboxes>().to_string();
    // One line while it fits in [`MAIL_WIDTH`] columns, folded after a
    // comma where it would not.
    let mut encoded = String::new();
    let mut column = name.len() + 2;
    for (k, text) in list.iter().map(mailbox_text).enumerate() {
        let width = text.rsplit('\n').next().unwrap_or_default().len();
        if k > 0 {
            if column + 2 + text.find('\r').unwrap_or(text.len()) > MAIL_WIDTH {
                encoded.push_str(",\r\n ");
                column = 1;
            } else {
                encoded.push_str(", ");
                column += 2;
            }
        }
        column = if text.contains('\n') {
            width
        } else {
            column + width
        };
        encoded.push_str(&text);
    }
    header::HeaderValue::dangerous_new_pre_encoded(
        header::HeaderName::new_from_ascii_str(name),
        raw,
        encoded,
    )
}

/// The whole message, headers and body, built by lettre, with the line
/// ends of this system's text files (as `sendmail -t` takes it).
fn message_bytes(letter: &Letter, unix: u64, id: &str) -> Result<Vec<u8>, Failure> {
    let mailboxes = |list: &[String]| -> Result<Vec<Mailbox>, Failure> {
        list.iter()
            .map(|c| mailbox(c).map_err(Failure::usage))
            .collect()
    };
    let from = mailboxes(std::slice::from_ref(&letter.from))?;
    let to = mailboxes(&letter.to)?;
    let cc = mailboxes(&letter.cc)?;
    let mut builder = Message::builder()
        .raw_header(address_header("From", &from))
        .raw_header(address_header("To", &to));
    if !cc.is_empty() {
        builder = builder.raw_header(address_header("Cc", &cc));
    }
    builder = builder
        .subject(letter.subject.clone())
        .date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(unix))
        .message_id(Some(id.to_owned()));
    if let Some(parent) = &letter.in_reply_to {
        let refs = match &letter.references {
            Some(r) => format!("{r} {parent}"),
            None => parent.clone(),
        };
        builder = builder
            .in_reply_to(parent.clone())
            .references(refs.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    // 7bit (8bit when the text is not ASCII), so that the record reads
    // in the raw message. lettre keeps 7bit and 8bit for lines shorter
    // than 76 characters (quoted-printable's limit), where RFC 5322 and
    // RFC 2045 allow 998: a body of lines within [`MAIL_WIDTH`] (a
    // diagram is up to 78 wide) goes as it is, CRLF-ended, anything else
    // as lettre encodes it (quoted-printable or base64, which readers
    // decode).
    let encoding = if letter.body.is_ascii() {
        ContentTransferEncoding::SevenBit
    } else {
        ContentTransferEncoding::EightBit
    };
    let plain = letter.body.lines().all(|l| l.len() <= 998) && !letter.body.contains(['\0', '\r']);
    let body = if plain {
        Body::dangerous_pre_encoded(letter.body.replace('\n', "\r\n").into_bytes(), encoding)
    } else {
        Body::new(letter.body.clone())
    };
    let everyone: Vec<lettre::Address> = to.iter().chain(&cc).map(|m| m.email.clone()).collect();
    let envelope = lettre::address::Envelope::new(from.first().map(|m| m.email.clone()), everyone)
        .map_err(|e| Failure::usage(format!("no message can be written: {e}")))?;
    let message = builder
        .header(header::MIME_VERSION_1_0)
        .header(ContentType::TEXT_PLAIN)
        .envelope(envelope)
        .body(body)
        .map_err(|e| Failure::usage(format!("no message can be written: {e}")))?;
    let text = message.formatted();
    Ok(String::from_utf8_lossy(&text)
        .replace("\r\n", "\n")
        .into_bytes())
}

/// The address part of a contact (`Ann <ann@x.org>` gives `ann@x.org`),
/// empty for a contact that is a name alone.
pub(super) fn address(contact: &str) -> &str {
    record::Contact::parse(contact)
        .ok()
        .and_then(|c| c.address())
        .unwrap_or_default()
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
    let to = addressees(referee, mover)?;
    // The turn, when a set-up line went with it (`setup --then`).
    let first = super::sent::head_line(played).unwrap_or_default().trim();
    let subject = format!(
        "{}: {}, {}",
        G::TITLE,
        carried_words(played),
        referee.status()
    );
    let diagram = anstream::adapter::strip_str(&referee.diagram_with_step(
        referee.state(),
        DiagramStyle { unicode: false },
        |t| super::context::fit(&t.to_string(), "  "),
    ))
    .to_string();
    let mut body = format!("{first}\n\n{diagram}\n");
    for line in record.lines() {
        wrap_line(line, &mut body);
    }
    body.push_str(&format!(
        "\n-- \nRefereed by herald. To check it: {}\n{}\n",
        Command::check().on("MESSAGE.eml"),
        answer_hint(referee, "MESSAGE.eml", None, false)
    ));
    let envelope = files::read_bytes(ctx.path)
        .ok()
        .and_then(|bytes| record::mail::envelope_of(&bytes, answered_message(&bytes, ctx.source)));
    Ok(Letter {
        from: to.from,
        to: to.to,
        cc: to.cc,
        unmailed: to.unmailed,
        subject,
        in_reply_to: envelope.as_ref().and_then(|e| e.message_id.clone()),
        references: envelope.and_then(|e| e.references),
        body,
    })
}

/// The message of a mailbox file (`bytes`) that a reply on the record
/// read (`source`) answers, from 1: the last one holding that record
/// (the one `--message` named, or the newest), else, for copies read as
/// one (keys added at once, the inbox's game file), the one the newest
/// record stands in. `None` for anything but an mbox file.
fn answered_message(bytes: &[u8], source: &record::Source) -> Option<usize> {
    if !record::mail::is_mbox(bytes) {
        return None;
    }
    let found = record::records(bytes).ok()?;
    match found
        .iter()
        .rev()
        .find(|f| f.source.text() == source.text())
    {
        Some(f) => f.message,
        None => record::newest(found, None).ok()?.message,
    }
}

/// Whom a message goes to ([`addressees`]).
struct Addressees {
    from: String,
    to: Vec<String>,
    cc: Vec<String>,
    /// The other sides left out of Cc, having no address: (side, contact).
    unmailed: Vec<(String, String)>,
}

/// Whom `mover`'s message goes to: every side whose line may come next
/// (audits and keys come in any order), copied to the others; one
/// player's address once, and never the writer's own in Cc (a player of
/// two sides of four castles). Every contact the message goes from or to
/// must be a mail address (a game whose contacts are names alone goes by
/// hand, the record file); one copied without an address is left out,
/// and the writer told to send it by hand.
fn addressees<G: Game>(referee: &Referee<G>, mover: game::Side) -> Result<Addressees, Failure> {
    let header = referee.header();
    let contact = |side: game::Side| {
        header
            .seat_of(side)
            .and_then(|s| header.contacts().get(s.index()))
            .cloned()
            .unwrap_or_default()
    };
    let mailable = |side: game::Side| -> Result<String, Failure> {
        let c = contact(side);
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
    let mut next = referee.sides_due();
    next.retain(|s| *s != mover);
    let mut others = Vec::new();
    let mut unmailed = Vec::new();
    for s in header.sides() {
        if *s != mover && !next.contains(s) {
            let c = contact(*s);
            if address(&c).is_empty() {
                unmailed.push((s.name::<G>().to_owned(), c));
            } else {
                others.push(c);
            }
        }
    }
    let due = next
        .iter()
        .map(|s| mailable(*s))
        .collect::<Result<Vec<_>, _>>()?;
    let (to_all, cc_all) = if due.is_empty() {
        (others, Vec::new())
    } else {
        (due, others)
    };
    let (to, cc) = named_once(&from, to_all, cc_all);
    if to.is_empty() {
        // The game is over and no other side has an address.
        return Err(Failure::usage(format!(
            "no other side's contact in this record is a mail address ({}), so the \
             message can go to no one: send the record file by hand (drop --reply)",
            unmailed
                .iter()
                .map(|(side, c)| format!("{side}: `{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(Addressees {
        from,
        to,
        cc,
        unmailed,
    })
}

/// The To and Cc lists, each address named once, the writer's (`from`)
/// never: it goes To the writer only when no one else's would.
fn named_once(from: &str, to: Vec<String>, cc: Vec<String>) -> (Vec<String>, Vec<String>) {
    let mut named = vec![address(from).to_ascii_lowercase()];
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
    let first = to.first().cloned();
    let mut to = new_only(to);
    if to.is_empty() {
        to.extend(first);
    }
    let cc = new_only(cc);
    (to, cc)
}

/// What a message's lines, `played`, did, for its subject: one line as
/// [`played_words`] says; several (`setup --then`, `move --then`, a line
/// with the audit it carries) named together, each side once:
/// `set-up line S3 and turn 1 (Blue) played`, `turns 4-5 (Castle4)
/// played`, `turns 57-58 (Castle1, Castle3) played`. A claim names its
/// own line alone.
fn carried_words(played: &str) -> String {
    // The lines' heads: `57. Castle1: ...`, `S3. Blue: ...` (their proof
    // lines are indented).
    let heads: Vec<(&str, &str)> = played
        .lines()
        .filter_map(|l| {
            let (n, rest) = l.split_once(". ")?;
            let number = n.strip_prefix('S').unwrap_or(n);
            let side = rest.split(':').next()?;
            number.parse::<u32>().is_ok().then_some((n, side))
        })
        .collect();
    let first = super::sent::head_line(played).unwrap_or_default().trim();
    if heads.len() < 2 || played.contains("forfeit claimed by") {
        return played_words(first);
    }
    let mut sides: Vec<&str> = Vec::new();
    for (_, side) in &heads {
        if !sides.contains(side) {
            sides.push(side);
        }
    }
    let named = |numbers: Vec<&str>, one: &str, many: &str| match numbers.as_slice() {
        [] => None,
        [n] => Some(format!("{one} {n}")),
        [a, .., b] => Some(format!("{many} {a}-{b}")),
    };
    let (setup, turns): (Vec<&(&str, &str)>, Vec<_>) =
        heads.iter().partition(|(n, _)| n.starts_with('S'));
    let what: Vec<String> = [
        named(
            setup.iter().map(|h| h.0).collect(),
            "set-up line",
            "set-up lines",
        ),
        named(turns.iter().map(|h| h.0).collect(), "turn", "turns"),
    ]
    .into_iter()
    .flatten()
    .collect();
    format!("{} ({}) played", what.join(" and "), sides.join(", "))
}

/// What a message's first line, `first`, did, for its subject: `turn
/// 12 (Blue) played`, `set-up line S2 (Red) played`, `Blue's forfeit
/// claimed on turn 12`; anything but a line (`Red's key added`) in its
/// own words.
fn played_words(first: &str) -> String {
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
    // A line (`12. Blue: ...`, `S2. Red: ...`) was played.
    let is_line = head
        .split_once(". ")
        .is_some_and(|(n, _)| n.trim_start_matches('S').parse::<u32>().is_ok());
    if claimed || !is_line {
        which
    } else {
        format!("{which} played")
    }
}

/// The key file in a command for a player whose key file herald cannot
/// know the name of (docs/mailbox.md says why).
pub(super) const YOUR_KEY: &str = "YOUR.key";

/// What the receiver of a message does next, with the command that does
/// it in this phase (spec section 3.7): add a key, a set-up step, a turn,
/// a farewell line, an audit; nothing once the game is over. The
/// commands name `record` (`MESSAGE.eml`, or a game's id for the inbox);
/// with `answering`, a side due, its own command even when several are;
/// with `send`, each reply is sent too (`--send`, for the inbox's player,
/// who answers by mail).
/// The receiver's key file is `YOUR.key`: a message goes to another
/// player, and the inbox lists games for a player whose key files herald
/// is never told of (a key yet to be made is named after its side,
/// `goblin.key`, as `keygen` writes it).
pub(super) fn answer_hint<G: Game>(
    referee: &Referee<G>,
    record: &str,
    answering: Option<game::Side>,
    send: bool,
) -> String {
    let Some(due) = referee.step_due() else {
        let check = Command::check().on(record);
        return format!("The game is over: {check} gives the result.");
    };
    let sides = referee.sides_due();
    let answering = answering.filter(|s| sides.contains(s));
    let side = answering.unwrap_or(due.side);
    let name = side.name::<G>();
    // Every command answers the message by a reply.
    let how = Writing {
        record,
        reply: true,
        send,
    };
    if let (Some(offer), Step::Turn) = (referee.draw_offered_to(side), due.step) {
        return draw_answer_hint(referee, side, &due.line, offer, &how);
    }
    // The line after the one due is foreseeably another side's of the
    // same player (the set-up's last line and turn 1, a turn and the
    // next castle's, a farewell line and a turn, two audits): both lines
    // go in one message (spec section 3.7, "One player, several sides").
    let own_next = referee
        .own_after_due()
        .filter(|&(next, _)| next != side && answering.is_none_or(|a| a == due.side));
    if let Some((next, step)) = own_next {
        let command = then_command(referee, due.step, side, (next, step), &how);
        let (line, then) = match (due.step, step) {
            (Step::Audit, _) => ("its audit".to_owned(), "its audit".to_owned()),
            (Step::Setup(_), _) => (due.line.clone(), "turn 1".to_owned()),
            _ => (
                due.line.clone(),
                format!("turn {}", referee.next_turn() + 1),
            ),
        };
        return format!(
            "Next, {name} ({line}), then {} ({then}), both yours, one message, answering with:\n{command}",
            next.name::<G>()
        );
    }
    let command = step_command(referee, due.step, side, &how);
    if sides.len() > 1 && answering.is_none() {
        // Keys before turn 1 and audits come in any order: each side
        // writes its own on the record as it finds it.
        let (noun, command) = match due.step {
            Step::Keygen => (
                "key",
                Command::keygen("SIDE")
                    .on_record()
                    .key_file("SIDE.key")
                    .write(&how),
            ),
            _ => ("audit", command),
        };
        return format!(
            "Next, {}, in any order, each answering with:\n{command}",
            crate::referee::owed::<G>(&sides, noun)
        );
    }
    // A key is due before the line it names (`turn 1`, `S1`).
    let what = match due.step {
        Step::Keygen => format!("its key, before {}", due.line),
        _ => due.line,
    };
    format!("Next, {name} ({what}), answering with:\n{command}")
}

/// The side due, `side`, answers a draw `offer` (by whom, on which
/// turn) with its line `line`: both answers, named, as `how` writes
/// them ([`answer_hint`]).
fn draw_answer_hint<G: Game>(
    referee: &Referee<G>,
    side: game::Side,
    line: &str,
    (by, turn): (game::Side, u32),
    how: &Writing<'_>,
) -> String {
    let moves = |action: &str| move_command(referee, side, action, how);
    let accept = if referee.accepts_last(side) {
        "accept draw"
    } else {
        "YOUR TURN, accept draw"
    };
    format!(
        "Next, {} ({line}): {} offered a draw on turn {turn}. Accept it with:\n{}\n\
         or decline it by playing on:\n{}",
        side.name::<G>(),
        by.name::<G>(),
        moves(accept),
        moves("YOUR TURN")
    )
}

/// The command that takes step `step` of side `side`, as `how` writes it
/// (a message's reply).
fn step_command<G: Game>(
    referee: &Referee<G>,
    step: Step,
    side: game::Side,
    how: &Writing<'_>,
) -> String {
    let name = side.name::<G>();
    let moves = |action: &str| move_command(referee, side, action, how);
    // The choices a set-up step that commits cannot go without.
    let required = match step {
        Step::Setup(SetupStep::Commit | SetupStep::CommitOpen) => G::SETUP_CHOICES
            .iter()
            .filter(|c| c.default == crate::game::ChoiceDefault::Required)
            .map(|c| c.name)
            .collect(),
        _ => Vec::new(),
    };
    let key_made = format!("{}.key", name.to_ascii_lowercase());
    match step {
        Step::Keygen => Command::keygen(name)
            .on_record()
            .makes_key(&key_made)
            .write(how),
        Step::Turn => moves("YOUR TURN"),
        Step::Audit => moves("audit"),
        Step::Farewell => moves("pass"),
        // Protocol 3: the side's key joins with its first set-up line.
        _ if referee.header().commit(side).is_none() => format!(
            "{}\n(your key is made with your first line; herald setup --help lists the choices)",
            Command::setup()
                .on_record()
                .side(name)
                .key_file(&key_made)
                .hand_key(referee.hand_key_file(side))
                .choices(required)
                .write(how)
        ),
        _ => format!(
            "{}\n(herald setup --help lists the choices)",
            Command::setup()
                .on_record()
                .key_file(YOUR_KEY)
                .hand_key(referee.hand_key_file(side))
                .choices(required)
                .write(how)
        ),
    }
}

/// The command by which side `side` takes its step `step` and writes the
/// line after it, `then`, of `next`, another side of its player, by
/// `next`'s key file, one message (`--then`, `--then-key`): `setup` for
/// the set-up's last line and turn 1, `move` for a line of play or an
/// audit.
fn then_command<G: Game>(
    referee: &Referee<G>,
    step: Step,
    side: game::Side,
    (next, then): (game::Side, Step),
    how: &Writing<'_>,
) -> String {
    let key = format!("{}.key", next.name::<G>().to_ascii_lowercase());
    let action = |step: Step| match step {
        Step::Audit => "audit",
        Step::Farewell => "pass",
        _ => "YOUR TURN",
    };
    let command = |c: Command| {
        c.on_record()
            .hand_key(referee.hand_key_file(side))
            .then_by(action(then), &key)
            .write(how)
    };
    match step {
        // A line of play or an audit, then the next side's (`move
        // --then`).
        Step::Turn | Step::Farewell | Step::Audit => {
            command(Command::moves().action(action(step)).key_file(YOUR_KEY))
        }
        _ if referee.header().commit(side).is_none() => format!(
            "{}\n(your key is made with your first line; herald setup --help lists the choices)",
            command(
                Command::setup()
                    .side(side.name::<G>())
                    .key_file(&format!("{}.key", side.name::<G>().to_ascii_lowercase()))
            )
        ),
        _ => command(Command::setup().key_file(YOUR_KEY)),
    }
}

/// The `move` command by which side `side` plays `action`, as `how`
/// writes it. A side that plays from an ally's hand draws and shows it
/// with the ally's key file.
fn move_command<G: Game>(
    referee: &Referee<G>,
    side: game::Side,
    action: &str,
    how: &Writing<'_>,
) -> String {
    Command::moves()
        .on_record()
        .action(action)
        .key_file(YOUR_KEY)
        .hand_key(referee.hand_key_file(side))
        .write(how)
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
    let text = message_bytes(&letter, now, &id)?;
    files::write_new(&reply.output, &text)?;
    for (side, contact) in &letter.unmailed {
        super::report::eprint_warning(
            &format!(
                "{side}'s contact `{contact}` has no address in this record: \
                 send them the message yourself (it is not copied to them)"
            ),
            &format!(
                "herald extract {} -o game.pbem gives the record to send them",
                reply.output.display()
            ),
        );
    }
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

    /// A letter from `from` to `to`, with `body`.
    fn letter(from: &str, to: &[&str], cc: &[&str], body: &str) -> Letter {
        Letter {
            from: from.into(),
            to: to.iter().map(|s| s.to_string()).collect(),
            cc: cc.iter().map(|s| s.to_string()).collect(),
            unmailed: Vec::new(),
            subject: "Castle Danger: turn 1 (Blue) played, Red to move".into(),
            in_reply_to: None,
            references: None,
            body: body.into(),
        }
    }

    fn header_value(message: &[u8], name: &str) -> String {
        let (headers, _) = mailparse::parse_headers(message).unwrap();
        headers
            .iter()
            .find(|h| h.get_key_ref().eq_ignore_ascii_case(name))
            .unwrap_or_else(|| panic!("no {name}"))
            .get_value()
    }

    #[test]
    fn a_subject_names_every_line_a_message_carries() {
        // One line: as played_words says.
        assert_eq!(
            carried_words("12. Blue: Kc1-b1\n  {reveal 00}\n"),
            "turn 12 (Blue) played"
        );
        // The set-up's last line and the first turn (`setup --then`).
        assert_eq!(
            carried_words("S3. Blue: open army RPS\n  {sig 00}\n1. Blue: Kc1-b1\n  {sig 00}\n"),
            "set-up line S3 and turn 1 (Blue) played"
        );
        // A line with the audit it carries, and `move --then` lines.
        assert_eq!(
            carried_words("4. Castle4: pass\n5. Castle4: audit\n  {open a 1}\n"),
            "turns 4-5 (Castle4) played"
        );
        assert_eq!(
            carried_words("57. Castle1: pass\n58. Castle3: pass\n59. Castle3: audit\n"),
            "turns 57-59 (Castle1, Castle3) played"
        );
        assert_eq!(
            carried_words("S7. Castle4: open army RPS\n1. Castle2: pass\n"),
            "set-up line S7 and turn 1 (Castle4, Castle2) played"
        );
        // A claim names its own line.
        assert_eq!(
            carried_words("12. Blue: forfeit claimed by Red\n13. Red: audit\n"),
            "Blue's forfeit claimed on turn 12"
        );
    }

    #[test]
    fn dates_are_written_as_rfc_5322_says() {
        // 1_763_845_200 s = 20415 days and 75600 s (21:00) after the
        // epoch; day 20415 is 2025-11-22, a Saturday (20415 % 7 = 3, and
        // day 0 was a Thursday).
        for (unix, date) in [
            (0, "Thu, 01 Jan 1970 00:00:00 +0000"),
            (1_763_845_200, "Sat, 22 Nov 2025 21:00:00 +0000"),
            (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"),
        ] {
            let m = message_bytes(
                &letter("a@x.org", &["b@x.org"], &[], "hi\n"),
                unix,
                "<i@x.org>",
            )
            .unwrap();
            assert_eq!(header_value(&m, "Date"), date);
        }
    }

    #[test]
    fn a_name_with_a_dot_is_quoted_and_a_name_not_ascii_encoded_in_headers() {
        let m = message_bytes(
            &letter(
                "Zoë Ünal <z@x.org>",
                &["Bob.B <b@x.org>"],
                &["山田 太郎 <t@x.org>", "c@x.org"],
                "hi\n",
            ),
            0,
            "<i@x.org>",
        )
        .unwrap();
        let text = String::from_utf8(m.clone()).unwrap();
        let head = text.split("\n\n").next().unwrap();
        assert!(head.is_ascii(), "{head}");
        assert!(head.contains("To: \"Bob.B\" <b@x.org>"), "{head}");
        let single = |name: &str| -> Vec<(Option<String>, String)> {
            let (headers, _) = mailparse::parse_headers(&m).unwrap();
            let h = headers
                .iter()
                .find(|h| h.get_key_ref() == name)
                .unwrap_or_else(|| panic!("no {name}"));
            mailparse::addrparse_header(h)
                .unwrap()
                .iter()
                .map(|a| match a {
                    mailparse::MailAddr::Single(s) => (s.display_name.clone(), s.addr.clone()),
                    mailparse::MailAddr::Group(g) => panic!("a group: {g}"),
                })
                .collect()
        };
        assert_eq!(
            single("From"),
            [(Some("Zoë Ünal".into()), "z@x.org".into())]
        );
        assert_eq!(single("To"), [(Some("Bob.B".into()), "b@x.org".into())]);
        assert_eq!(
            single("Cc"),
            [
                (Some("山田 太郎".into()), "t@x.org".into()),
                (None, "c@x.org".into())
            ]
        );
    }

    #[test]
    fn an_address_list_stays_on_one_line_while_it_fits_and_folds_after_a_comma() {
        let short = ["castle2@example.org", "castle3@example.org"];
        let long: Vec<String> = (1..=6)
            .map(|k| format!("Player Number {k} <player{k}@example.org>"))
            .collect();
        let long: Vec<&str> = long.iter().map(String::as_str).collect();
        let m = message_bytes(&letter("a@x.org", &short, &long, "hi\n"), 0, "<i@x.org>").unwrap();
        let text = String::from_utf8(m.clone()).unwrap();
        assert!(
            text.contains("\nTo: castle2@example.org, castle3@example.org\n"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= MAIL_WIDTH), "{text}");
        let (headers, _) = mailparse::parse_headers(&m).unwrap();
        let cc = headers.iter().find(|h| h.get_key_ref() == "Cc").unwrap();
        let read = mailparse::addrparse_header(cc).unwrap();
        assert_eq!(read.len(), 6, "{text}");
        assert!(
            text.contains("Cc: Player Number 1 <player1@example.org>,\n"),
            "{text}"
        );
    }

    #[test]
    fn an_ascii_body_is_7bit_any_other_8bit_and_reads_back_as_written() {
        for (body, encoding) in [
            ("1. Blue: +C, Kc1-b1\n", "7bit"),
            // A diagram's line of 78 columns stays as it is.
            (&format!("{}\n", "=".repeat(78)), "7bit"),
            ("[Event \"Zoë's cup\"]\n", "8bit"),
        ] {
            let m =
                message_bytes(&letter("a@x.org", &["b@x.org"], &[], body), 0, "<i@x.org>").unwrap();
            assert_eq!(header_value(&m, "Content-Transfer-Encoding"), encoding);
            let parsed = mailparse::parse_mail(&m).unwrap();
            assert_eq!(parsed.get_body().unwrap(), body);
            let text = String::from_utf8(m).unwrap();
            assert!(text.ends_with(body), "the body as written: {text}");
        }
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
