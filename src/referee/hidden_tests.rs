//! Hidden values through the referee (spec section 3.7), with a small
//! game made for it. Duel: each side hides `x` and `y` (digits) and a
//! throw `t` (R, P or S); the throws, opened once both have committed,
//! decide who moves first (a tie: A). A turn is `wait` or `strike`: the
//! striker opens its `x` on its line, the other side opens its own on its
//! next line before acting, and the higher `x` wins (equal: a draw). The
//! audit opens the rest: a side whose `y` is below its `x` fails it.

use super::*;
use crate::fairness::chain_id;
use crate::game::{ActionParseError, Chance, Demand, DiagramStyle, OptionTag, Setup, SetupError};
use crate::record::{self, Source};
use crate::wallet::Wallet;

#[derive(Debug)]
struct Duel;

#[derive(Clone, Debug, Default)]
struct Arena {
    to_move: u8,
    throws: [Option<char>; 2],
    x: [Option<u8>; 2],
    striker: Option<u8>,
    outcome: Option<Outcome>,
    /// Drawn before turn 1 (`Game::begin_play`), for the tests of it.
    opening: Option<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Act {
    Wait,
    Strike,
}

fn beats(a: char, b: char) -> bool {
    matches!((a, b), ('R', 'S') | ('S', 'P') | ('P', 'R'))
}

impl Game for Duel {
    type State = Arena;
    type Action = Act;
    const ID: &'static str = "duel";
    const TITLE: &'static str = "Duel";
    const SIDES: &'static [&'static str] = &["A", "B"];
    const MIN_SIDES: usize = 2;
    const MAX_SIDES: usize = 2;
    const OPTIONS: &'static [OptionTag] = &[];

    fn new_game(_: &Setup<'_>) -> Result<Arena, SetupError> {
        Ok(Arena::default())
    }
    fn to_move(s: &Arena) -> Side {
        Side(s.to_move)
    }
    fn outcome(s: &Arena) -> Outcome {
        s.outcome.unwrap_or(Outcome::Ongoing)
    }
    fn begin_play(s: &mut Arena, chance: &mut dyn Chance) -> Result<(), Illegal> {
        let v = chance.draw("opening", 100)?;
        chance.describe(format!("n{v}"));
        s.opening = Some(v);
        Ok(())
    }
    fn begin_turn(_: &mut Arena, _: &mut dyn Chance) -> Result<(), Illegal> {
        Ok(())
    }
    fn parse_action(_: &Arena, text: &str) -> Result<Act, ActionParseError> {
        match text {
            "wait" => Ok(Act::Wait),
            "strike" => Ok(Act::Strike),
            _ => Err(ActionParseError::new(0, text.len(), "wait or strike")),
        }
    }
    fn apply(s: &mut Arena, a: Act) -> Result<(), Illegal> {
        if a == Act::Strike {
            if s.striker.is_some() {
                return crate::illegal!("a strike is under way");
            }
            s.striker = Some(s.to_move);
        }
        Ok(())
    }
    fn end_turn(s: &mut Arena) -> Result<(), Illegal> {
        s.to_move = 1 - s.to_move;
        Ok(())
    }
    fn resign(s: &mut Arena, side: Side) {
        s.outcome = Some(Outcome::Won(Side(1 - side.0)));
    }
    fn write_action(a: &Act, out: &mut String) {
        out.push_str(if *a == Act::Wait { "wait" } else { "strike" });
    }
    fn legal_actions(s: &Arena, out: &mut Vec<Act>) {
        out.push(Act::Wait);
        if s.striker.is_none() {
            out.push(Act::Strike);
        }
    }
    fn summary(_: &Arena) -> String {
        String::new()
    }
    fn turn_comment(_: &Arena, _: &Arena) -> String {
        String::new()
    }
    fn diagram(_: &Arena, _: DiagramStyle) -> String {
        String::new()
    }
    fn write_position(_: &Arena, _: &mut String) {}
    fn parse_position(text: &str) -> Result<Arena, crate::game::PositionParseError> {
        Err(crate::game::PositionParseError::within(
            text,
            0,
            text.len(),
            "a test game has no position notation",
        ))
    }
    fn hidden_slots(_: &Arena, _: Side) -> &'static [&'static str] {
        &["x", "y", "t"]
    }
    fn opened_after_setup(_: &Arena, _: Side) -> &'static [&'static str] {
        &["t"]
    }
    fn check_hidden(slot: &str, value: &str) -> Result<(), Illegal> {
        let ok = match slot {
            "t" => matches!(value, "R" | "P" | "S"),
            _ => matches!(value.parse::<u8>(), Ok(1..=9)),
        };
        if ok {
            Ok(())
        } else {
            crate::illegal!("not a value for {slot}")
        }
    }
    fn demands(s: &Arena) -> Vec<Demand> {
        let Some(striker) = s.striker else {
            return Vec::new();
        };
        [striker, 1 - striker]
            .into_iter()
            .filter(|&i| s.x[usize::from(i)].is_none())
            .map(|i| Demand {
                side: Side(i),
                slot: "x",
            })
            .collect()
    }
    fn open(s: &mut Arena, side: Side, slot: &str, value: &str) -> Result<(), Illegal> {
        let i = usize::from(side.0);
        match slot {
            "t" => {
                s.throws[i] = value.chars().next();
                if let [Some(a), Some(b)] = s.throws {
                    s.to_move = u8::from(beats(b, a));
                }
            }
            "x" => s.x[i] = value.parse().ok(),
            _ => {}
        }
        if let [Some(a), Some(b)] = s.x {
            s.outcome = Some(match a.cmp(&b) {
                std::cmp::Ordering::Greater => Outcome::Won(Side(0)),
                std::cmp::Ordering::Less => Outcome::Won(Side(1)),
                std::cmp::Ordering::Equal => Outcome::Draw,
            });
        }
        Ok(())
    }
    fn audit(_: &Arena, _: Side, values: &[(&str, &str)]) -> Result<(), Illegal> {
        let get = |slot: &str| values.iter().find(|(s, _)| *s == slot).map(|(_, v)| *v);
        match (get("x"), get("y")) {
            (Some(x), Some(y)) if y.parse::<u8>().ok() >= x.parse::<u8>().ok() => Ok(()),
            _ => crate::illegal!("y is below x"),
        }
    }
}

const TAGS: [(&str, &str); 3] = [("Game", "duel"), ("A", "a@x"), ("B", "b@x")];

/// Two wallets with these choices (x, y, t) and the header naming them.
fn table(a: (&str, &str, &str), b: (&str, &str, &str)) -> (String, [Wallet; 2]) {
    let chain = chain_id(TAGS);
    let wallet = |side: &str, k: u8, (x, y, t): (&str, &str, &str)| {
        let mut w = Wallet::from_secret("duel", side, chain, [k; 32]);
        w.choose("x", x);
        w.choose("y", y);
        w.choose("t", t);
        w
    };
    let wallets = [wallet("A", 1, a), wallet("B", 2, b)];
    let mut header = String::new();
    for (n, v) in TAGS {
        header.push_str(&format!("[{n} \"{v}\"]\n"));
    }
    for w in &wallets {
        header.push_str(&format!(
            "[{}Commit \"{}\"]\n",
            w.side(),
            hex::encode(w.commit())
        ));
    }
    header.push_str("[Result \"*\"]\n\n");
    (header, wallets)
}

/// `header` with both players' signing keys: every line sealed.
fn with_keys(header: &str, wallets: &[Wallet; 2]) -> String {
    let keys: String = wallets
        .iter()
        .map(|w| format!("[{}Key \"{}\"]\n", w.side(), hex::encode(w.public_key())))
        .collect();
    header.replace("[Result \"*\"]", &(keys + "[Result \"*\"]"))
}

/// Play `choices` in turn (each the actions of the next line, composed
/// with the due side's wallet) and return the record's text.
fn play(header: &str, wallets: &[Wallet; 2], choices: &[&str]) -> String {
    let source = Source::new(header.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    let mut referee = Referee::<Duel>::start(&rec).unwrap();
    let mut log = String::new();
    for choice in choices {
        let side = referee.to_move().expect("a line is due");
        let line = Line {
            kind: LineKind::Turn,
            number: referee.next_turn(),
            side: side.name::<Duel>(),
            entries: choice
                .split(", ")
                .filter(|a| !a.is_empty() && *a != "pass")
                .map(|a| Entry::Action(a.into()))
                .collect(),
            ending: if choice.is_empty() || *choice == "pass" {
                Ending::Pass
            } else {
                Ending::Actions
            },
            proofs: Vec::new(),
            claimant: None,
        };
        let played = referee
            .compose(line, Keys::own(&wallets[usize::from(side.0)]))
            .unwrap_or_else(|e| panic!("{choice}: {e:?}"));
        log.push_str(&played.line());
    }
    let mut text = String::new();
    referee
        .header()
        .write(&result_text::<Duel>(referee.outcome()), &mut text);
    text.push('\n');
    text.push_str(&log);
    text
}

fn replayed(text: &str) -> Result<Referee<Duel>, RefereeError> {
    let source = Source::new(text.as_bytes()).unwrap();
    let rec = record::parse(&source).map_err(|e| RefereeError::record(Some(e.span), e.message))?;
    let referee = replay::<Duel>(&rec, |_, _| {})?;
    referee.check_result()?;
    Ok(referee)
}

/// Four set-up lines (commit, commit, open, open), then the turns.
const SETUP: [&str; 4] = ["", "", "", ""];

#[test]
fn hidden_values_flow_from_the_setup_to_the_audit() {
    // A throws P, B throws R: A moves first, strikes with x=7 against 5.
    let (header, wallets) = table(("7", "8", "P"), ("5", "9", "R"));
    let mut choices = SETUP.to_vec();
    choices.extend(["strike", "pass", "", ""]);
    let text = play(&header, &wallets, &choices);
    let lines: Vec<&str> = text.lines().collect();
    assert!(text.contains("S1. A:\n    reveal "), "{text}");
    assert!(text.contains("S3. A:\n    reveal "), "{text}");
    assert!(text.contains("1. A: strike\n"), "{text}");
    assert!(text.contains("2. B: pass\n"), "{text}");
    assert!(text.contains("3. A: audit\n"), "{text}");
    assert!(text.contains("4. B: audit\n"), "{text}");
    assert!(lines.iter().all(|l| l.len() <= 78), "{text}");
    assert!(text.contains("[Result \"A\"]"), "{text}");
    // Each side's x was opened on its strike line and the answer to it.
    let strike = &text[text.find("\n1. A:").unwrap()..text.find("\n2. B:").unwrap()];
    assert!(strike.contains("open x 7\n"), "{strike}");
    let answer = &text[text.find("\n2. B:").unwrap()..text.find("\n3. A:").unwrap()];
    assert!(answer.contains("open x 5\n"), "{answer}");
    // y is never written before the audit.
    let before_audit = &text[..text.find("\n3. A:").unwrap()];
    assert!(!before_audit.contains("open y"), "{before_audit}");
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Over);
    assert_eq!(referee.outcome(), Outcome::Won(Side(0)));
    assert!(referee.failed_audits().is_empty());
}

#[test]
fn sealed_lines_cover_set_up_lines_openings_and_the_audit() {
    let (header, wallets) = table(("7", "8", "P"), ("5", "9", "R"));
    let header = with_keys(&header, &wallets);
    let mut choices = SETUP.to_vec();
    choices.extend(["strike", "pass", "", ""]);
    let text = play(&header, &wallets, &choices);
    let lines = text.matches("\n    sig ").count();
    assert_eq!(lines, SETUP.len() + 4, "every line is signed: {text}");
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Over);
    assert_eq!(referee.outcome(), Outcome::Won(Side(0)));
    // An opening changed after B signed the line breaks B's seal.
    let at = text.find("\n2. B:").unwrap();
    let forged = format!(
        "{}{}",
        &text[..at],
        text[at..].replacen("open x 5\n", "open x 6\n", 1)
    );
    let err = replayed(&forged).unwrap_err();
    assert_eq!(err.turn, Some(2));
    assert!(
        err.message
            .starts_with("B's signature does not match this line here"),
        "{}",
        err.message
    );
}

#[test]
fn the_setup_is_due_side_by_side_and_the_throws_decide_who_moves_first() {
    // A throws R, B throws P: B moves first.
    let (header, wallets) = table(("7", "8", "R"), ("5", "9", "P"));
    let text = play(&header, &wallets, &SETUP);
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Play);
    assert_eq!(referee.to_move(), Some(Side(1)));
    let half = play(&header, &wallets, &SETUP[..1]);
    let referee = replayed(&half).unwrap();
    assert_eq!(referee.phase(), Phase::Setup);
    assert_eq!(referee.to_move(), Some(Side(1)));
    assert_eq!(referee.setup_due(), Some(SetupStep::Commit));
    assert_eq!(referee.next_line(), (LineKind::Setup, 2));
}

#[test]
fn a_turn_before_the_setup_is_finished_is_refused() {
    let (header, wallets) = table(("7", "8", "R"), ("5", "9", "P"));
    let text = play(&header, &wallets, &SETUP[..2]) + "1. A: wait\n";
    let err = replayed(&text).unwrap_err();
    assert_eq!(
        err.message,
        "the set-up is not finished: the next line is S3, a set-up line"
    );
}

#[test]
fn a_setup_line_without_every_commitment_is_refused() {
    let (header, wallets) = table(("7", "8", "R"), ("5", "9", "P"));
    let text = play(&header, &wallets, &SETUP[..1]);
    // The commitment to t: its word, and its digest on the next line.
    let cut = text.rfind("    commit t").unwrap();
    let first = cut + text[cut..].find('\n').unwrap() + 1;
    let end = first + text[first..].find('\n').unwrap() + 1;
    let mut text = format!("{}{}", &text[..cut], &text[end..]);
    text.truncate(text.trim_end().len());
    text.push('\n');
    let err = replayed(&text).unwrap_err();
    assert_eq!(
        err.message,
        "A commits to every hidden value on its set-up line: t is missing"
    );
}

#[test]
fn an_opening_that_does_not_match_its_commitment_is_refused() {
    let (header, wallets) = table(("7", "8", "P"), ("5", "9", "R"));
    let mut choices = SETUP.to_vec();
    choices.push("strike");
    let text = play(&header, &wallets, &choices).replace("open x 7\n", "open x 9\n");
    let err = replayed(&text).unwrap_err();
    assert_eq!((err.turn, err.side.as_deref()), (Some(1), Some("A")));
    assert_eq!(
        err.message,
        "open x 9: this does not match A's commitment to x: the opening (value or salt) or the commitment was altered"
    );
}

#[test]
fn a_demanded_opening_left_out_is_an_error_naming_the_side_and_slot() {
    let (header, wallets) = table(("7", "8", "P"), ("5", "9", "R"));
    let mut choices = SETUP.to_vec();
    choices.push("wait");
    let text = play(&header, &wallets, &choices);
    // The striker's line without its opening.
    let reveal = text.rfind("    reveal").unwrap();
    let strike = format!(
        "{}\n1. A: strike\n{}",
        &text[..text.rfind("\n1. A:").unwrap()],
        &text[reveal..]
    );
    let err = replayed(&strike).unwrap_err();
    assert_eq!((err.turn, err.side.as_deref()), (Some(1), Some("A")));
    assert_eq!(
        err.message,
        "A must open x on this line (herald move --key adds it)"
    );
}

#[test]
fn an_opening_the_rules_do_not_call_for_is_refused() {
    let (header, wallets) = table(("7", "8", "P"), ("5", "9", "R"));
    let mut choices = SETUP.to_vec();
    choices.push("strike");
    let text = play(&header, &wallets, &choices);
    // A also opens y, which only the audit opens.
    let y = Wallet::chosen(&wallets[0], "y").unwrap().to_owned();
    let mut extra = String::new();
    record::write_proof(
        &ProofKind::Open {
            slot: "y",
            value: &y,
            salt: wallets[0].salt("y"),
        },
        &mut extra,
    );
    let err = replayed(&format!("{text}{extra}")).unwrap_err();
    assert_eq!(err.message, "open y: the rules do not open y now");
}

#[test]
fn a_failed_audit_loses_for_the_provisional_winner() {
    // A wins the duel, but its y (3) is below its x (7).
    let (header, wallets) = table(("7", "3", "P"), ("5", "9", "R"));
    let mut choices = SETUP.to_vec();
    choices.extend(["strike", "pass"]);
    let text = play(&header, &wallets, &choices);
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Audit);
    assert_eq!(referee.provisional(), Some(Outcome::Won(Side(0))));
    assert_eq!(referee.outcome(), Outcome::Ongoing);
    assert_eq!(referee.to_move(), Some(Side(0)));
    choices.extend(["", ""]);
    let text = play(&header, &wallets, &choices);
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.outcome(), Outcome::Won(Side(1)));
    assert_eq!(
        referee.failed_audits(),
        vec![(Side(0), "y is below x".to_owned())]
    );
}

/// `pass` typed when the line due is the player's audit is written as
/// the audit, and the referee says so; in play it is a pass as typed.
#[test]
fn pass_typed_when_the_audit_is_due_is_written_as_the_audit() {
    let (header, wallets) = table(("7", "3", "P"), ("5", "9", "R"));
    let mut choices = SETUP.to_vec();
    choices.push("strike");
    let referee = replayed(&play(&header, &wallets, &choices)).unwrap();
    assert_eq!(referee.phase(), Phase::Play);
    assert_eq!(referee.typed_as("pass"), None);
    choices.push("pass");
    let mut referee = replayed(&play(&header, &wallets, &choices)).unwrap();
    assert_eq!(referee.phase(), Phase::Audit);
    assert_eq!(referee.to_move(), Some(Side(0)));
    let read = referee.typed_as(" PASS ").expect("written as the audit");
    assert_eq!(read, crate::referee::TypedAs::PassAsAudit);
    assert_eq!(
        read.note(),
        "the game is over, so the line due from you is your audit: `pass` was written as `audit`"
    );
    assert_eq!(referee.typed_as("strike"), None);
    // With the turn's head in front, as a player may type it, too.
    let headed = format!("{}. A: pass", referee.next_turn());
    assert_eq!(referee.typed_as(&headed), Some(read));
    assert!(crate::referee::writer::written_as_audit(
        &headed,
        referee.phase()
    ));
    let mut again = referee.clone();
    let line = again
        .compose_typed(&headed, Keys::own(&wallets[0]))
        .unwrap()
        .line();
    assert!(line.contains(": audit"), "{line}");
    // Composed, the line typed `pass` is A's audit.
    let line = referee
        .compose_typed("pass", Keys::own(&wallets[0]))
        .unwrap()
        .line();
    assert!(line.contains(": audit"), "{line}");
    assert!(!line.contains("pass"), "{line}");
}

/// The audit line of `side` composed from its wallet, whatever other
/// audit is due: its text.
fn audit_of(referee: &mut Referee<Duel>, wallets: &[Wallet; 2], side: u8) -> String {
    let line = Line {
        kind: LineKind::Turn,
        number: referee.next_turn(),
        side: Side(side).name::<Duel>(),
        entries: Vec::new(),
        ending: Ending::Pass,
        proofs: Vec::new(),
        claimant: None,
    };
    referee
        .compose(line, Keys::own(&wallets[usize::from(side)]))
        .unwrap_or_else(|e| panic!("{side}'s audit: {e:?}"))
        .line()
}

/// Both sides hold hidden values when the rules end the game: B, second
/// in turn order, audits first, and A after it; the outcome is the one
/// the turn order gives, and the record replays so.
#[test]
fn the_audits_come_in_any_order() {
    let (header, wallets) = table(("7", "3", "P"), ("5", "9", "R"));
    let mut choices = SETUP.to_vec();
    choices.extend(["strike", "pass"]);
    let text = play(&header, &wallets, &choices);
    let mut referee = replayed(&text).unwrap();
    assert_eq!(referee.audits_due(), vec![Side(0), Side(1)]);
    let b = audit_of(&mut referee, &wallets, 1);
    assert!(b.starts_with("3. B: audit"), "{b}");
    assert_eq!(referee.audits_due(), vec![Side(0)]);
    // B has nothing left to write: refused, naming the audit due.
    let line = Line {
        kind: LineKind::Turn,
        number: referee.next_turn(),
        side: "B",
        entries: Vec::new(),
        ending: Ending::Pass,
        proofs: Vec::new(),
        claimant: None,
    };
    let Err(ComposeError::Closed(_, why)) = referee.clone().compose(line, Keys::own(&wallets[1]))
    else {
        panic!("B's second audit was composed");
    };
    assert_eq!(
        why,
        "B has no audit due: its closing line is in this record already, or it had nothing left to open; the audits still due are A's (each side writes its own: herald move audit --key)"
    );
    let a = audit_of(&mut referee, &wallets, 0);
    assert_eq!(referee.outcome(), Outcome::Won(Side(1)));
    let done = text.replace("[Result \"*\"]", "[Result \"B\"]");
    let replay = replayed(&format!("{done}{b}{a}")).unwrap();
    assert_eq!(replay.outcome(), Outcome::Won(Side(1)));
    assert_eq!(
        replay.failed_audits(),
        vec![(Side(0), "y is below x".to_owned())]
    );
    // A line of a side whose audit is in already is refused by the
    // referee too, naming the audits due.
    let again = b.replacen("3. B:", "4. B:", 1);
    let err = replayed(&format!("{text}{b}{again}")).unwrap_err();
    assert_eq!(
        err.message,
        "B has no audit due (it opened everything, or was audited already): the audits due are A's"
    );
}

#[test]
fn both_sides_failing_the_audit_is_a_draw() {
    let (header, wallets) = table(("7", "3", "P"), ("5", "2", "R"));
    let mut choices = SETUP.to_vec();
    choices.extend(["strike", "pass", "", ""]);
    let referee = replayed(&play(&header, &wallets, &choices)).unwrap();
    assert_eq!(referee.outcome(), Outcome::Draw);
}

/// A, the provisional winner, stops answering in the audit: B, which
/// lost on the board, claims A's forfeit in A's place and audits. The
/// refusal takes A's win, but a claim gives the game to nobody the board
/// did not: a draw (spec section 3.8).
#[test]
fn refusing_to_open_in_the_audit_loses_the_win_but_the_claimant_wins_nothing() {
    let (header, wallets) = table(("7", "8", "P"), ("5", "9", "R"));
    let header = with_keys(&header, &wallets);
    let mut choices = SETUP.to_vec();
    choices.extend(["strike", "pass"]);
    let text = play(&header, &wallets, &choices);
    assert_eq!(
        replayed(&text).unwrap().provisional(),
        Some(Outcome::Won(Side(0)))
    );
    let text = forfeit_by(&text, &wallets[1]).replace("[Result \"*\"]", "[Result \"draw\"]");
    assert!(text.contains("3. A: forfeit claimed by B\n"), "{text}");
    let text = play_on_from(&text, &wallets[1]);
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.outcome(), Outcome::Draw);
    assert_eq!(
        referee.failed_audits(),
        vec![(Side(0), "A refused to open its hidden values".to_owned())]
    );
}

/// Add the forfeit of the side to move to `text`, claimed with `wallet`.
fn forfeit_by(text: &str, wallet: &Wallet) -> String {
    let source = Source::new(text.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    let mut referee = replay::<Duel>(&rec, |_, _| {}).unwrap();
    let played = referee.compose_forfeit(wallet).unwrap();
    format!("{text}{}", played.line())
}

/// Add the due side's next line to `text` with `wallet` (an audit).
fn play_on_from(text: &str, wallet: &Wallet) -> String {
    let source = Source::new(text.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    let mut referee = Referee::<Duel>::start(&rec).unwrap();
    for turn in &rec.turns {
        referee.play(turn).unwrap();
    }
    let line = Line {
        kind: LineKind::Turn,
        number: referee.next_turn(),
        side: wallet.side(),
        entries: Vec::new(),
        ending: Ending::Audit,
        proofs: Vec::new(),
        claimant: None,
    };
    let played = referee.compose(line, Keys::own(wallet)).unwrap();
    format!("{text}{}", played.line())
}

#[test]
fn a_typed_line_is_refused_in_the_set_up_and_nothing_typed_is_the_audit() {
    let (header, wallets) = table(("7", "8", "P"), ("5", "9", "R"));
    // The set-up steps are `herald setup`'s, not typed.
    let mut referee = replayed(&header).unwrap();
    match referee.compose_typed("strike", Keys::own(&wallets[0])) {
        Err(super::TypedError::Usage(m)) => assert_eq!(
            m,
            "the set-up is not finished: S1 is A's set-up step, its commitments (herald setup)"
        ),
        other => panic!("not refused: {other:?}"),
    }
    // Once the rules ended the game, nothing typed is the side's audit.
    let mut choices = SETUP.to_vec();
    choices.extend(["strike", "pass"]);
    let mut referee = replayed(&play(&header, &wallets, &choices)).unwrap();
    assert_eq!(referee.phase(), Phase::Audit);
    let line = referee
        .compose_typed(" ", Keys::own(&wallets[0]))
        .unwrap()
        .line();
    assert!(line.starts_with("3. A: audit\n"), "{line}");
    assert!(line.contains("\n    open y 8\n"), "{line}");
}

#[test]
fn chance_before_turn_1_is_drawn_once_the_set_up_is_over_from_every_sides_latest_reveal() {
    let (header, wallets) = table(("7", "8", "R"), ("5", "9", "P"));
    let half = play(&header, &wallets, &SETUP[..3]);
    let referee = replayed(&half).unwrap();
    assert!(referee.chance().is_empty(), "not before the set-up is over");
    assert_eq!(referee.state().opening, None);
    let mut choices = SETUP.to_vec();
    choices.extend(["wait", "wait"]);
    let text = play(&header, &wallets, &choices);
    let referee = replayed(&text).unwrap();
    // Turn 0's seed: the first side's latest reveal (A's, on S3) in the
    // mover's place, then B's (on S4); set-up lines carry no facts.
    let events: Vec<&ChanceEvent> = referee.chance().iter().collect();
    assert_eq!(events.len(), 1, "drawn once: {events:?}");
    let e = events[0];
    assert_eq!((e.turn, e.label), (0, "opening"));
    assert_eq!(e.reveals_of, ["A", "B"]);
    let reveals: Vec<Hash> = wallets
        .iter()
        .map(|w| w.reveal(2).unwrap().unwrap())
        .collect();
    let seed = crate::fairness::turn_seed(
        referee.header().game_id(),
        0,
        "opening",
        &reveals[0],
        &reveals[1..],
    );
    let want = crate::fairness::Sampler::new(&seed).below(100);
    assert_eq!(e.value, want);
    assert_eq!(e.text, format!("n{want}"), "the engine names the value");
    assert_eq!(referee.state().opening, Some(want));
    assert!(!text.contains("opening="), "{text}");
}

/// The Duel under `[Protocol "3"]`: both wallets bound to their keys, the
/// header with both sides' Commit and Key tags.
fn table_protocol_3() -> (String, [Wallet; 2]) {
    let tags = [
        ("Game", "duel"),
        ("A", "a@x"),
        ("B", "b@x"),
        ("Protocol", "3"),
    ];
    let chain = chain_id(tags);
    let wallet = |side: &str, k: u8, (x, y, t): (&str, &str, &str)| {
        let protocol = crate::fairness::Protocol::Three;
        let mut w = Wallet::for_protocol("duel", side, chain, [k; 32], protocol);
        w.choose("x", x);
        w.choose("y", y);
        w.choose("t", t);
        w
    };
    let wallets = [
        wallet("A", 1, ("7", "8", "R")),
        wallet("B", 2, ("5", "9", "P")),
    ];
    let mut header = String::new();
    for (n, v) in tags {
        header.push_str(&format!("[{n} \"{v}\"]\n"));
    }
    for w in &wallets {
        header.push_str(&format!(
            "[{0}Commit \"{1}\"]\n[{0}Key \"{2}\"]\n",
            w.side(),
            hex::encode(w.commit()),
            hex::encode(w.public_key())
        ));
    }
    header.push_str("[Result \"*\"]\n\n");
    (header, wallets)
}

/// Under protocol 3 the last side to commit opens on the same line (spec
/// section 3.7): the Duel's set-up is three lines, A's commitments, B's
/// commitments with its throw opened, A's throw; then B (P beats R)
/// moves first.
#[test]
fn the_last_side_to_commit_opens_on_the_same_line_under_protocol_3() {
    let (header, wallets) = table_protocol_3();
    let first = play(&header, &wallets, &[""]);
    let referee = replayed(&first).unwrap();
    assert_eq!(referee.setup_due(), Some(SetupStep::CommitOpen));
    assert_eq!(referee.to_move(), Some(Side(1)));
    let text = play(&header, &wallets, &["", "", ""]);
    let s2 = &text[text.find("S2. B:").unwrap()..text.find("S3. A:").unwrap()];
    assert!(
        s2.contains("commit t\n") && s2.contains("open t P\n"),
        "{s2}"
    );
    let s3 = &text[text.find("S3. A:").unwrap()..];
    assert!(s3.contains("open t R\n") && !s3.contains("commit"), "{s3}");
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Play);
    assert_eq!(referee.to_move(), Some(Side(1)));
}

/// Under protocol 3 whichever side has its key may write `S1`, and the
/// set-up goes on in turn order from it: B begins, A commits and opens,
/// B opens.
#[test]
fn any_side_with_its_key_may_begin_the_set_up_under_protocol_3() {
    let (header, wallets) = table_protocol_3();
    let source = Source::new(header.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    let mut referee = Referee::<Duel>::start(&rec).unwrap();
    assert_eq!(referee.to_move(), Some(Side(0)));
    assert_eq!(referee.side_beginning_setup("B"), Some(Side(1)));
    let line = Line {
        kind: LineKind::Setup,
        number: 1,
        side: "B",
        entries: Vec::new(),
        ending: Ending::Actions,
        proofs: Vec::new(),
        claimant: None,
    };
    let played = referee.compose(line, Keys::own(&wallets[1])).unwrap();
    assert_eq!(played.side, Side(1));
    assert_eq!(referee.to_move(), Some(Side(0)));
    assert_eq!(referee.setup_due(), Some(SetupStep::CommitOpen));
    assert_eq!(referee.side_beginning_setup("B"), None);
}
