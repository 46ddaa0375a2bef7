//! Hidden hands through the referee (spec section 3.9), with a small
//! game made for it. Cards, for two to four sides A, B, C, D: each side
//! hides a throw `t` (R, P or S), opened once all have committed; with
//! two sides the winner moves first (a tie: A), with more A does. Hands
//! of 3 from a deck of 34 (two decks, 68 cards, for four sides), one
//! card drawn a turn; a turn is `play <card>` (a card of the mover's
//! hand, by its index) or `keep`; the game is a draw after 40 turns.

use super::deck::Hand;
use super::*;
use crate::fairness::chain_id;
use crate::game::{
    ActionParseError, CardKind, Chance, DiagramStyle, HiddenDeck, OptionTag, Setup, SetupError,
};
use crate::record::{self, Source};
use crate::wallet::Wallet;

/// The deck's hand at `index` (a hand's holder's place among the
/// holders, in header order).
fn hand_at(index: usize) -> Hand {
    Hand::at(index)
}

#[derive(Debug)]
struct Cards;

#[derive(Clone, Debug, Default)]
struct Table {
    to_move: u8,
    throws: Vec<Option<char>>,
    hidden: Vec<u32>,
    known: Vec<Vec<u32>>,
    played: Vec<u32>,
    turns: u32,
    outcome: Option<Outcome>,
    /// `Hands "shared"`: A and C play from A's hand, B and D from B's.
    shared: bool,
    /// `Out "C"`: C takes no turns after turn [`OUT_AFTER`] (A's line
    /// with four sides); `Out "C-on-B"`: nor after B's first line from
    /// turn [`OUT_AFTER`] on (another hand's line); `Out "C-at-set-up"`:
    /// none at all (out before turn 1, as a castle whose maze broke the
    /// rules).
    out: Out,
    /// `Resign "drops"`: a side that resigns drops out and the others
    /// play on (while two are left); each side's, whether it did.
    drops: bool,
    dropped: Vec<bool>,
    /// C is out (`Out "C-on-B"`).
    c_gone: bool,
}

/// When C is put out of the game (the `Out` tag).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Out {
    #[default]
    None,
    AfterTurn,
    OnB,
    AtSetup,
}

/// With `Out "C"`, C is skipped in the turn order after this many turns.
const OUT_AFTER: u32 = 5;

/// Whether side `side` is skipped in the turn order now.
fn skipped(s: &Table, side: u8) -> bool {
    let c = side == 2
        && (s.c_gone || s.out == Out::AtSetup || (s.out == Out::AfterTurn && s.turns >= OUT_AFTER));
    c || s.dropped.get(usize::from(side)).copied().unwrap_or(false)
}

/// The side after `side` in the turn order, skipping those that are.
fn next_side(s: &Table, side: u8) -> u8 {
    let n = s.known.len() as u8;
    (1..=n)
        .map(|k| (side + k) % n)
        .find(|&o| !skipped(s, o))
        .unwrap_or(side)
}

/// The hand side `side` plays from (an index into `known`).
fn hand_of(s: &Table, side: u8) -> usize {
    if s.shared {
        usize::from(side % 2)
    } else {
        usize::from(side)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Act {
    Keep,
    Play(u32),
}

const TURNS: u32 = 40;

impl Game for Cards {
    type State = Table;
    type Action = Act;
    const ID: &'static str = "cards";
    const TITLE: &'static str = "Cards";
    const SIDES: &'static [&'static str] = &["A", "B", "C", "D"];
    const MIN_SIDES: usize = 2;
    const MAX_SIDES: usize = 4;
    const OPTIONS: &'static [OptionTag] = &[
        OptionTag {
            name: "Hands",
            default: "own",
            help: "own: a hand a side; shared: A and C play from A's hand, B and D from B's",
        },
        OptionTag {
            name: "Out",
            default: "none",
            help: "C: C takes no turns after turn 5; C-on-B: nor after B's first line from turn \
                   5; C-at-set-up: none at all",
        },
        OptionTag {
            name: "Resign",
            default: "ends",
            help: "ends: a resignation ends the game; drops: the resigner drops out",
        },
    ];

    fn new_game(setup: &Setup<'_>) -> Result<Table, SetupError> {
        let n = setup.sides.len();
        Ok(Table {
            throws: vec![None; n],
            hidden: vec![0; n],
            known: vec![Vec::new(); n],
            shared: setup.tag("Hands") == Some("shared"),
            out: match setup.tag("Out") {
                Some("C") => Out::AfterTurn,
                Some("C-on-B") => Out::OnB,
                Some("C-at-set-up") => Out::AtSetup,
                _ => Out::None,
            },
            drops: setup.tag("Resign") == Some("drops"),
            dropped: vec![false; n],
            ..Table::default()
        })
    }
    fn hand_holder(s: &Table, side: Side) -> Side {
        Side(hand_of(s, side.0) as u8)
    }
    fn to_move(s: &Table) -> Side {
        Side(s.to_move)
    }
    fn outcome(s: &Table) -> Outcome {
        s.outcome.unwrap_or(Outcome::Ongoing)
    }
    fn begin_turn(_: &mut Table, _: &mut dyn Chance) -> Result<(), Illegal> {
        Ok(())
    }
    fn parse_action(_: &Table, text: &str) -> Result<Act, ActionParseError> {
        match text.strip_prefix("play ") {
            _ if text == "keep" => Ok(Act::Keep),
            Some(n) => n
                .parse()
                .map(Act::Play)
                .map_err(|_| ActionParseError::new(5, n.len(), "a card number")),
            None => Err(ActionParseError::new(0, text.len(), "play <card> or keep")),
        }
    }
    fn apply(s: &mut Table, a: Act) -> Result<(), Illegal> {
        if let Act::Play(card) = a {
            let i = hand_of(s, s.to_move);
            let hand = &mut s.known[i];
            let Some(k) = hand.iter().position(|&c| c == card) else {
                return crate::illegal!("the hand shows no card {card}");
            };
            hand.remove(k);
            s.played.push(card);
        }
        Ok(())
    }
    fn end_turn(s: &mut Table) -> Result<(), Illegal> {
        s.turns += 1;
        if s.turns == TURNS {
            s.outcome = Some(Outcome::Draw);
        }
        if s.out == Out::OnB && s.to_move == 1 && s.turns >= OUT_AFTER {
            s.c_gone = true;
        }
        s.to_move = next_side(s, s.to_move);
        Ok(())
    }
    fn takes_turns(s: &Table, side: Side) -> bool {
        !skipped(s, side.0)
    }
    fn resign(s: &mut Table, side: Side) {
        let left = (0..s.known.len() as u8).filter(|&o| !skipped(s, o)).count();
        if s.drops && left > 2 {
            s.dropped[usize::from(side.0)] = true;
            s.to_move = next_side(s, side.0);
            return;
        }
        let others: Vec<Side> = (0..s.known.len() as u8)
            .map(Side)
            .filter(|&o| o != side)
            .collect();
        s.outcome = Some(match others[..] {
            [one] => Outcome::Won(one),
            _ => Outcome::TeamWon(crate::game::Team::of(&others)),
        });
    }
    fn write_action(a: &Act, out: &mut String) {
        match a {
            Act::Keep => out.push_str("keep"),
            Act::Play(c) => out.push_str(&format!("play {c}")),
        }
    }
    fn legal_actions(s: &Table, out: &mut Vec<Act>) {
        out.push(Act::Keep);
        out.extend(s.known[hand_of(s, s.to_move)].iter().map(|&c| Act::Play(c)));
    }
    fn summary(_: &Table) -> String {
        String::new()
    }
    fn turn_comment(_: &Table, _: &Table) -> String {
        String::new()
    }
    fn diagram(_: &Table, _: DiagramStyle) -> String {
        String::new()
    }
    fn write_position(_: &Table, _: &mut String) {}
    fn parse_position(text: &str) -> Result<Table, crate::game::PositionParseError> {
        Err(crate::game::PositionParseError::within(
            text,
            0,
            text.len(),
            "a test game has no position notation",
        ))
    }
    fn hidden_slots(_: &Table, _: Side) -> &'static [&'static str] {
        &["t"]
    }
    fn opened_after_setup(_: &Table, _: Side) -> &'static [&'static str] {
        &["t"]
    }
    fn check_hidden(_: &str, value: &str) -> Result<(), Illegal> {
        if matches!(value, "R" | "P" | "S") {
            Ok(())
        } else {
            crate::illegal!("not a throw")
        }
    }
    fn open(s: &mut Table, side: Side, _: &str, value: &str) -> Result<(), Illegal> {
        s.throws[usize::from(side.0)] = value.chars().next();
        if let [Some(a), Some(b)] = s.throws[..] {
            let beats = matches!((b, a), ('R', 'S') | ('S', 'P') | ('P', 'R'));
            s.to_move = u8::from(beats);
        }
        Ok(())
    }
    fn hidden_deck(s: &Table) -> Option<HiddenDeck> {
        // Four sides deal from two decks.
        let cards = if s.known.len() == 4 { 68 } else { 34 };
        Some(HiddenDeck { cards, hand: 3 })
    }
    fn receive_cards(s: &mut Table, side: Side, cards: &[Option<u32>]) -> Result<(), Illegal> {
        let i = hand_of(s, side.0);
        for card in cards {
            match card {
                Some(c) => s.known[i].push(*c),
                None => s.hidden[i] += 1,
            }
        }
        Ok(())
    }
    fn card_text(card: u32) -> String {
        format!("card {card}")
    }
    fn card_spent(_: &Table, a: &Act) -> Option<CardKind> {
        match a {
            Act::Keep => None,
            Act::Play(c) => Some(Self::card_kind(*c)),
        }
    }
    fn open_card(s: &mut Table, side: Side, card: u32) -> Result<(), Illegal> {
        let i = hand_of(s, side.0);
        if s.hidden[i] == 0 {
            return crate::illegal!("no hidden card in the hand");
        }
        s.hidden[i] -= 1;
        s.known[i].push(card);
        Ok(())
    }
}

const TAGS: [(&str, &str); 3] = [("Game", "cards"), ("A", "a@x"), ("B", "b@x")];

/// Two wallets with these throws and the header naming them.
fn table(a: &str, b: &str) -> (String, [Wallet; 2]) {
    let chain = chain_id(TAGS);
    let wallet = |side: &str, k: u8, t: &str| {
        let mut w = Wallet::from_secret("cards", side, chain, [k; 32]);
        w.choose("t", t);
        w
    };
    let wallets = [wallet("A", 1, a), wallet("B", 2, b)];
    let mut header = String::new();
    for (n, v) in TAGS {
        header.push_str(&format!("[{n} \"{v}\"]\n"));
    }
    for w in &wallets {
        let commit = hex::encode(w.commit());
        header.push_str(&format!("[{}Commit \"{commit}\"]\n", w.side()));
    }
    header.push_str("[Result \"*\"]\n\n");
    (header, wallets)
}

/// `n` wallets (sides A, B, ...), each throwing rock, and the header
/// naming them.
fn table_of(n: usize) -> (String, Vec<Wallet>) {
    table_with(n, &[])
}

/// [`table_of`] with these option tags.
fn table_with(n: usize, options: &[(&str, &str)]) -> (String, Vec<Wallet>) {
    let names = &Cards::SIDES[..n];
    let mut tags = vec![("Game".to_owned(), "cards".to_owned())];
    tags.extend(names.iter().map(|s| ((*s).to_owned(), format!("{s}@x"))));
    tags.extend(
        options
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned())),
    );
    let chain = chain_id(tags.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let wallets: Vec<Wallet> = names
        .iter()
        .enumerate()
        .map(|(k, side)| {
            let mut w = Wallet::from_secret("cards", side, chain, [k as u8 + 1; 32]);
            w.choose("t", "R");
            w
        })
        .collect();
    let mut header = String::new();
    for (n, v) in &tags {
        header.push_str(&format!("[{n} \"{v}\"]\n"));
    }
    for w in &wallets {
        let commit = hex::encode(w.commit());
        header.push_str(&format!("[{}Commit \"{commit}\"]\n", w.side()));
    }
    header.push_str("[Result \"*\"]\n\n");
    (header, wallets)
}

/// Play the game to its end and through the audit, each side playing
/// the lowest card of its hand on every other turn of its own; returns
/// the record's text and the cards each side saw in its hand.
fn play(header: &str, wallets: &[Wallet]) -> (String, Vec<Vec<u32>>) {
    play_cheating(header, wallets, &|_| None)
}

/// A cheat: the text of a line as herald composed it, altered (or
/// `None` to leave it).
type Cheat<'a> = &'a dyn Fn(&str) -> Option<String>;

/// [`play`], each line composed on a copy of the game, altered by
/// `cheat` where it says so, and then played as written: the lines after
/// it are composed honestly on the game as the cheat left it.
fn play_cheating(header: &str, wallets: &[Wallet], cheat: Cheat<'_>) -> (String, Vec<Vec<u32>>) {
    play_scripted(header, wallets, cheat, None)
}

/// [`play_cheating`], the side to move on turn `resign_at` resigning (a
/// farewell line due writes `pass`).
fn play_scripted(
    header: &str,
    wallets: &[Wallet],
    cheat: Cheat<'_>,
    resign_at: Option<u32>,
) -> (String, Vec<Vec<u32>>) {
    let source = Source::new(header.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    let mut referee = Referee::<Cards>::start(&rec).unwrap();
    let mut log = String::new();
    let mut seen: Vec<Vec<u32>> = vec![Vec::new(); wallets.len()];
    while let Some(side) = referee.to_move() {
        let i = usize::from(side.0);
        // The hand's holder: its key file draws, shows and opens the
        // hand, whichever of its sides writes.
        let h = usize::from(Cards::hand_holder(referee.state(), side).0);
        let mut choice = String::from("keep");
        let farewell = referee.farewell_note().is_some();
        let resigns = resign_at == Some(referee.next_turn()) && referee.phase() == Phase::Play;
        if referee.phase() == Phase::Play && !farewell && !resigns {
            // A hand with a card that opens to no card of the game
            // cannot be listed: its line opens that card and plays none.
            let hand = referee.hand(side, &wallets[h]).unwrap_or_default();
            seen[h].extend(hand.iter().map(|(_, c)| *c));
            if referee.next_turn() % 4 < 2 {
                if let Some((_, card)) = hand.iter().min_by_key(|(_, c)| *c) {
                    choice = format!("play {card}");
                }
            }
        }
        let line = Line {
            kind: LineKind::Turn,
            number: referee.next_turn(),
            side: side.name::<Cards>(),
            entries: if referee.phase() == Phase::Play && !farewell && !resigns {
                vec![Entry::Action(choice.clone().into())]
            } else {
                Vec::new()
            },
            ending: match (farewell, resigns) {
                (true, _) => Ending::Pass,
                (_, true) => Ending::Resign,
                _ => Ending::Actions,
            },
            proofs: Vec::new(),
            claimant: None,
        };
        let mut honest = referee.clone();
        let played = if h == i {
            honest.compose(line, Keys::own(&wallets[i]))
        } else {
            honest.compose(line, Keys::given(Some(&wallets[i]), Some(&wallets[h])))
        }
        .unwrap_or_else(|e| panic!("{choice}: {e:?}\n{log}"));
        let mut text = String::new();
        record::write_turn(&played.text(), &mut text);
        match cheat(&text) {
            Some(altered) => {
                let source = Source::typed(&altered);
                let (turns, _) = record::parse_lines(&source).unwrap();
                referee
                    .play_line(&Line::from_turn(&turns[0]))
                    .unwrap_or_else(|e| panic!("{altered}: {e:?}"));
                log.push_str(&altered);
            }
            None => {
                referee = honest;
                log.push_str(&text);
            }
        }
    }
    let mut text = String::new();
    referee
        .header()
        .write(&result_text::<Cards>(referee.outcome()), &mut text);
    text.push('\n');
    text.push_str(&log);
    for s in &mut seen {
        s.sort_unstable();
        s.dedup();
    }
    (text, seen)
}

fn replayed(text: &str) -> Result<Referee<Cards>, RefereeError> {
    let source = Source::new(text.as_bytes()).unwrap();
    let rec = record::parse(&source).map_err(|e| RefereeError::record(Some(e.span), e.message))?;
    let referee = replay::<Cards>(&rec, |_, _| {})?;
    referee.check_result()?;
    Ok(referee)
}

/// The card numbers played in the record (`play <n>` items).
fn played_cards(text: &str) -> Vec<u32> {
    text.split("play ")
        .skip(1)
        .filter_map(|rest| {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            n.parse().ok()
        })
        .collect()
}

#[test]
fn a_game_with_hidden_hands_is_composed_replayed_and_audited() {
    for (a, b) in [("P", "R"), ("R", "P")] {
        let (header, wallets) = table(a, b);
        let (text, seen) = play(&header, &wallets);
        let block = |from: &str, to: &str| {
            let at = text.find(from).unwrap();
            &text[at..at + text[at..].find(to).unwrap()]
        };
        assert!(
            block("S1. A:", "S2. B:").contains("\n    cardkey "),
            "{text}"
        );
        let s3 = block("S3. A:", "S4. B:");
        assert!(s3.contains("\n    commit shuffle-0\n"), "{s3}");
        assert!(
            s3.contains("\n    deck 0 ") && s3.contains("\n    deck 33 "),
            "{s3}"
        );
        assert!(
            text.contains("\n    commit shuffle-1\n"),
            "a reshuffle: {text}"
        );
        assert!(text.contains("\n    open shuffle-1\n"), "its audit: {text}");
        assert!(text.contains("[Result \"draw\"]"), "{text}");
        let referee = replayed(&text).unwrap();
        assert_eq!(referee.phase(), Phase::Over);
        assert_eq!(referee.outcome(), Outcome::Draw);
        assert!(
            referee.failed_audits().is_empty(),
            "{:?}",
            referee.failed_audits()
        );
        // Each side saw its own cards only; every card played was one
        // its player saw.
        for card in played_cards(&text) {
            assert!(seen[0].contains(&card) || seen[1].contains(&card));
        }
        assert!(!seen[0].is_empty() && !seen[1].is_empty());
    }
}

#[test]
fn the_second_in_the_header_moving_first_makes_the_first_write_a_shares_line() {
    // B's paper beats A's rock: B moves first and draws 0, 2, 4 and 6,
    // which need A's shares, written after B's last pass (S4).
    let (header, wallets) = table("R", "P");
    let (text, _) = play(&header, &wallets);
    let s5 = &text[text.find("\nS5. A:").expect("a shares line")..text.find("\n1. B:").unwrap()];
    for p in [0, 2, 4, 6] {
        assert!(s5.contains(&format!("share {p} ")), "{s5}");
    }
    // A moving first: no shares line.
    let (header, wallets) = table("P", "R");
    let (text, _) = play(&header, &wallets);
    assert!(!text.contains("\nS5."), "{text}");
}

#[test]
fn no_line_opens_a_card_before_it_is_played() {
    // Every share a side gives of a card it drew itself stands on the
    // line that plays that card.
    let (header, wallets) = table("P", "R");
    let (text, _) = play(&header, &wallets);
    let referee = replayed(&text).unwrap();
    let deck = referee.deck().unwrap();
    let opened = played_cards(&text).len();
    let held: usize = (0..2).map(|s| deck.held(hand_at(s)).len()).sum();
    // 34 first-deck cards and the reshuffled ones: each drawn card is
    // either opened by a play or still held.
    assert!(opened + held >= 40, "{opened} + {held}");
    assert!(held > 0);
}

#[test]
fn a_share_whose_proof_fails_is_refused_naming_its_side_and_line() {
    let (header, wallets) = table("P", "R");
    let (text, _) = play(&header, &wallets);
    // A's turn 3 line: its first share's proof, one digit changed.
    let at = text.find("\n3. A:").unwrap();
    let share = at + text[at..].find("    share ").unwrap();
    let proof_start = share + text[share..].find('\n').unwrap() + 5;
    let digit = &text[proof_start + 10..proof_start + 11];
    let flipped = if digit == "0" { "1" } else { "0" };
    let forged = format!(
        "{}{flipped}{}",
        &text[..proof_start + 10],
        &text[proof_start + 11..]
    );
    let err = replayed(&forged).unwrap_err();
    assert_eq!(err.turn, Some(3));
    assert!(
        err.message.starts_with("A's share for deck position ")
            && err
                .message
                .ends_with(" does not verify against A's card key"),
        "{}",
        err.message
    );
}

/// `text` with the first share proof of the line starting `head`
/// changed in one digit.
fn forge_share(text: &str, head: &str) -> String {
    let at = text.find(head).unwrap();
    let share = at + text[at..].find("    share ").unwrap();
    let digit_at = share + text[share..].find('\n').unwrap() + 15;
    let flipped = if &text[digit_at..digit_at + 1] == "0" {
        "1"
    } else {
        "0"
    };
    format!("{}{flipped}{}", &text[..digit_at], &text[digit_at + 1..])
}

#[test]
fn a_bad_share_is_named_before_a_later_bad_share_and_a_later_lines_problem() {
    // The shares' proofs of a replay wait for a batch: the first bad one
    // in the record is still the one named, whatever comes after it.
    let (header, wallets) = table("P", "R");
    let (text, _) = play(&header, &wallets);
    let both = forge_share(&forge_share(&text, "\n3. A:"), "\n4. B:");
    let err = replayed(&both).unwrap_err();
    assert_eq!(err.turn, Some(3), "{}", err.message);
    assert!(
        err.message.starts_with("A's share for deck position "),
        "{}",
        err.message
    );
    let second = forge_share(&text, "\n4. B:");
    let err = replayed(&second).unwrap_err();
    assert_eq!(err.turn, Some(4), "{}", err.message);
    assert!(
        err.message.starts_with("B's share for deck position "),
        "{}",
        err.message
    );
    // Turn 3's share bad, and turn 4 numbered 5: the share is named.
    let renumbered = forge_share(&text, "\n3. A:").replacen("\n4. B:", "\n5. B:", 1);
    let err = replayed(&renumbered).unwrap_err();
    assert_eq!(err.turn, Some(3), "{}", err.message);
    assert!(
        err.message
            .ends_with(" does not verify against A's card key"),
        "{}",
        err.message
    );
}

/// The game set up by composing every set-up line, A to play turn 1
/// (its paper beats B's rock).
fn set_up(wallets: &[Wallet; 2]) -> Referee<Cards> {
    let (header, _) = table("P", "R");
    let source = Source::new(header.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    let mut referee = Referee::<Cards>::start(&rec).unwrap();
    while referee.phase() == Phase::Setup {
        let side = referee.to_move().unwrap();
        let line = Line {
            kind: LineKind::Setup,
            number: 0,
            side: side.name::<Cards>(),
            entries: Vec::new(),
            ending: Ending::Actions,
            proofs: Vec::new(),
            claimant: None,
        };
        referee
            .compose(line, Keys::own(&wallets[usize::from(side.0)]))
            .unwrap();
    }
    assert_eq!(referee.to_move(), Some(Side(0)));
    referee
}

/// A's turn 1 line playing `choice` as herald composes it, as text.
fn composed(referee: &Referee<Cards>, wallet: &Wallet, choice: &str) -> String {
    let line = Line {
        kind: LineKind::Turn,
        number: 1,
        side: "A",
        entries: vec![Entry::Action(choice.to_owned().into())],
        ending: Ending::Actions,
        proofs: Vec::new(),
        claimant: None,
    };
    let played = referee.clone().compose(line, Keys::own(wallet)).unwrap();
    let mut text = String::new();
    record::write_turn(&played.text(), &mut text);
    text
}

/// The error of playing `text` (one line), with `extra` shares of A's
/// added to it, on `referee`.
fn refused(referee: &Referee<Cards>, text: &str, extra: &[(u32, [u8; 32], [u8; 96])]) -> LineError {
    let source = Source::typed(text);
    let (turns, _) = record::parse_lines(&source).unwrap();
    let mut line = Line::from_turn(&turns[0]);
    for &(position, share, proof) in extra {
        line.proofs.push(ProofKind::Share {
            position,
            share,
            proof,
        });
    }
    referee.clone().play_line(&line).unwrap_err()
}

/// A's hand at turn 1 (with its draw), by position, and its deck after
/// the draw.
fn hand_at_turn_one(
    referee: &Referee<Cards>,
    wallet: &Wallet,
) -> (Vec<(u32, u32)>, deck::DeckLedger) {
    let hand = referee.hand(Side(0), wallet).unwrap();
    let mut deck = referee.deck().unwrap().clone();
    deck.draw(hand_at(0)).unwrap();
    (hand, deck)
}

#[test]
fn a_line_that_plays_another_card_than_it_opens_is_refused() {
    let (_, wallets) = table("P", "R");
    let referee = set_up(&wallets);
    let (hand, _) = hand_at_turn_one(&referee, &wallets[0]);
    // A opens its first card (by position) but says it plays its second.
    let (p, card) = hand[0];
    let other = hand.iter().map(|h| h.1).find(|&c| c != card).unwrap();
    let text = composed(&referee, &wallets[0], &format!("play {card}"));
    let forged = text.replace(&format!("play {card}"), &format!("play {other}"));
    let err = refused(&referee, &forged, &[]);
    assert_eq!((err.turn, err.side.as_str()), (1, "A"));
    assert_eq!(
        err.message,
        format!(
            "play {other}: the line plays card {other} but opens card {card}: deck position \
             {p} holds card {card}, not card {other}"
        )
    );
}

#[test]
fn a_card_opened_on_a_line_must_leave_the_hand_on_it() {
    let (_, wallets) = table("P", "R");
    let referee = set_up(&wallets);
    let (hand, deck) = hand_at_turn_one(&referee, &wallets[0]);
    let (p, card) = hand[0];
    let (q, kept) = hand[1];
    let second = referee.compose_shares(&deck, referee.header.first_seat(), &wallets[0], &[q]);
    // A plays its first card and opens its second as well, keeping it.
    let text = composed(&referee, &wallets[0], &format!("play {card}"));
    let err = refused(&referee, &text, &second);
    assert_eq!((err.turn, err.side.as_str()), (1, "A"));
    assert_eq!(
        err.message,
        format!(
            "the line opens card {kept} (deck position {q}) but no action plays or discards \
             it: a card of a hidden hand is opened only as it leaves the hand"
        )
    );
    // A keeps its hand but opens a card of it.
    let first = referee.compose_shares(&deck, referee.header.first_seat(), &wallets[0], &[p]);
    let text = composed(&referee, &wallets[0], "keep");
    let err = refused(&referee, &text, &first);
    assert!(
        err.message.starts_with(&format!(
            "the line opens card {card} (deck position {p}) but no action"
        )),
        "{}",
        err.message
    );
}

#[test]
fn a_card_played_without_the_share_that_opens_it_is_refused() {
    let (_, wallets) = table("P", "R");
    let referee = set_up(&wallets);
    let (hand, _) = hand_at_turn_one(&referee, &wallets[0]);
    let card = hand[0].1;
    // A's line keeps its hand (no opening), then claims a play.
    let text = composed(&referee, &wallets[0], "keep");
    let forged = text.replace(": keep", &format!(": play {card}"));
    let err = refused(&referee, &forged, &[]);
    assert_eq!((err.turn, err.side.as_str()), (1, "A"));
    assert_eq!(
        err.message,
        format!(
            "play {card}: the line plays card {card} but opens no card for it: a card of a \
             hidden hand is played with the share that opens it (herald move --key adds it)"
        )
    );
}

/// `line` with the card at deck position `to` replaced by the card at
/// `from` (both as the line's `deck` items write them: a word, then the
/// 128 digits over two continuation lines), if the line has both.
fn copy_deck_item(line: &str, from: u32, to: u32) -> Option<String> {
    let digits = |p: u32| -> Option<(usize, usize)> {
        let head = format!("\n    deck {p} ");
        let at = line.find(&head)? + head.len();
        let end = at + line[at..].find('\n')? + 1;
        let end = end + line[end..].find('\n')?;
        Some((at, end))
    };
    let (a, b) = digits(from)?;
    let (c, d) = digits(to)?;
    Some(format!("{}{}{}", &line[..c], &line[a..b], &line[d..]))
}

#[test]
fn the_audit_names_the_side_whose_pass_duplicated_a_card() {
    let (header, wallets) = table("P", "R");
    // B's pass over the first deck puts position 4's card at 5 as well.
    let cheat = |line: &str| {
        line.starts_with("S4. B:")
            .then(|| copy_deck_item(line, 4, 5))
            .flatten()
    };
    let (text, _) = play_cheating(&header, &wallets, &cheat);
    let referee = replayed(&text).unwrap();
    let failed = referee.failed_audits();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].0, Side(1));
    assert!(
        failed[0]
            .1
            .starts_with("B's pass over deck 0 (line S4): deck position 5 holds "),
        "{}",
        failed[0].1
    );
    // On the board a draw; B failed its audit, so A wins.
    assert_eq!(referee.outcome(), Outcome::Won(Side(0)));
}

#[test]
fn the_audit_names_the_side_whose_reshuffle_pass_dropped_a_card() {
    let (header, wallets) = table("P", "R");
    // The first pass over the reshuffled deck drops its second card for
    // a copy of its first; its writer is the cheat.
    let cheater = std::cell::RefCell::new(None::<String>);
    let cheat = |line: &str| {
        if cheater.borrow().is_some() {
            return None;
        }
        let at = line.find("\n    commit shuffle-1\n")?;
        let first: u32 = line[at..]
            .split("\n    deck ")
            .nth(1)?
            .split(' ')
            .next()?
            .parse()
            .ok()?;
        let side = line.split(": ").next()?.split(". ").nth(1)?;
        *cheater.borrow_mut() = Some(side.to_owned());
        copy_deck_item(line, first, first + 1)
    };
    let (text, _) = play_cheating(&header, &wallets, &cheat);
    let referee = replayed(&text).unwrap();
    let failed = referee.failed_audits();
    assert_eq!(failed.len(), 1, "{failed:?}");
    let cheater = cheater.borrow().clone().expect("a reshuffle");
    assert_eq!(failed[0].0.name::<Cards>(), cheater);
    assert!(
        failed[0]
            .1
            .starts_with(&format!("{cheater}'s pass over deck 1 (turn ")),
        "{}",
        failed[0].1
    );
}

/// `line` with the two halves (`C1`, `C2`) of the card at deck position
/// `p` swapped: a ciphertext that opens to no card of the game.
fn plant_no_card(line: &str, p: u32) -> Option<String> {
    let head = format!("\n    deck {p} ");
    let at = line.find(&head)? + head.len();
    let end = at + line[at..].find('\n')?;
    let next = end + 1 + line[end + 1..].find('\n')?;
    let first = &line[at..end];
    let second = line[end + 1..next].trim_start();
    let indent = &line[end + 1..next - second.len()];
    Some(format!(
        "{}{second}\n{indent}{first}{}",
        &line[..at],
        &line[next..]
    ))
}

/// B's pass over the first deck (S4) with a card that opens to no card
/// of the game at deck position 8.
fn plant_at_8(line: &str) -> Option<String> {
    line.starts_with("S4. B:")
        .then(|| plant_no_card(line, 8))
        .flatten()
}

#[test]
fn a_pass_that_plants_a_card_opening_to_no_card_is_named_by_the_audit_at_once() {
    let (header, wallets) = table("P", "R");
    // B's pass (the last over the first deck) plants at position 8 a
    // ciphertext that opens to no card; A, moving first, draws it on
    // turn 3 (B shares it on turn 2, against the planted card).
    let (text, _) = play_cheating(&header, &wallets, &plant_at_8);
    // A's turn 3 opens position 8 and plays nothing: play stops there,
    // and the closing lines follow at once.
    let turn3 = &text[text.find("\n3. A:").unwrap()..];
    assert!(turn3.starts_with("\n3. A: pass\n"), "{turn3}");
    assert!(turn3.contains("\n    share 8 "), "{turn3}");
    assert!(
        text.contains("\n4. A: audit") && text.contains("\n5. B: audit"),
        "{text}"
    );
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.deck_broken(), Some((8, 3)));
    let failed = referee.failed_audits();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].0, Side(1));
    assert_eq!(
        failed[0].1,
        "B's pass over deck 0 (line S4): deck position 8 holds a card that the seed does not \
         put there and that is no card of the deck before the pass"
    );
    assert_eq!(referee.outcome(), Outcome::Won(Side(0)));
    assert!(text.contains("[Result \"A\"]"), "{text}");
}

#[test]
fn a_line_that_opens_a_card_to_no_card_carries_no_action() {
    let (header, wallets) = table("P", "R");
    let (text, _) = play_cheating(&header, &wallets, &plant_at_8);
    // The same line, with an action added to it.
    let forged = text.replace("\n3. A: pass\n", "\n3. A: keep\n");
    let err = replayed(&forged).unwrap_err();
    assert_eq!((err.turn, err.side.as_deref()), (Some(3), Some("A")));
    assert_eq!(
        err.message,
        "keep: deck position 8, which this line opens, holds no card of the game: the deck is \
         broken, play stops for the audit of the passes, and the line carries no actions"
    );
}

/// The header of a game of `n` sides (A, B, ...), read.
fn header_of(n: usize) -> Header {
    let (text, _) = table_with(n, &[]);
    let source = Source::new(text.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    Header::read::<Cards>(&rec).unwrap().0
}

#[test]
fn when_every_pass_checks_out_the_side_that_opened_no_card_is_blamed() {
    let sides = [Side(0), Side(1), Side(2)];
    let (two, three) = (header_of(2), header_of(3));
    let seat = |header: &Header, i: u8| header.seat_of(Side(i)).unwrap();
    let (a, b) = (seat(&two, 0), seat(&two, 1));
    // A failed audit loses, whoever opened the position.
    assert_eq!(
        super::cards::broken_deck_outcome(&two, &[b], Some(a)),
        Outcome::Won(Side(0))
    );
    // No audit failed: the side that opened it loses.
    assert_eq!(
        super::cards::broken_deck_outcome(&two, &[], Some(a)),
        Outcome::Won(Side(1))
    );
    assert_eq!(
        super::cards::broken_deck_outcome(&three, &[], Some(seat(&three, 2))),
        Outcome::TeamWon(crate::game::Team::of(&sides[..2]))
    );
    assert_eq!(
        super::cards::broken_deck_outcome(&two, &[a, b], Some(a)),
        Outcome::Draw
    );
}

#[test]
fn three_and_four_players_deal_hidden_hands_through_the_referee() {
    for n in [3, 4] {
        let (header, wallets) = table_of(n);
        let (text, seen) = play(&header, &wallets);
        let referee = replayed(&text).unwrap();
        assert_eq!(referee.phase(), Phase::Over, "{text}");
        assert_eq!(referee.outcome(), Outcome::Draw);
        assert!(referee.failed_audits().is_empty(), "{text}");
        let deck = referee.deck().unwrap();
        // Every side gave its key and passed over the first deck, the
        // turn order is A, B, C (, D), and every side saw cards.
        assert_eq!(deck.order(), &(0..n).map(hand_at).collect::<Vec<_>>()[..]);
        for (side, cards) in seen.iter().enumerate() {
            assert_eq!(deck.passed(hand_at(side)).first(), Some(&0), "{n} players");
            assert!(!cards.is_empty());
        }
        // Three players: one deck of 34 and reshuffles (a card played
        // comes back and may be drawn by another). Four: two decks (68
        // cards), no reshuffle in 40 turns, so each card was seen in one
        // hand only, and cards of the second deck among them.
        if n == 3 {
            assert!(text.contains("\n    commit shuffle-1\n"), "{text}");
            assert!(seen.iter().flatten().all(|&c| c < 34));
        } else {
            assert!(text.contains("\n    deck 67 "), "{text}");
            assert!(!text.contains("shuffle-1"), "{text}");
            assert!(seen.iter().flatten().any(|&c| c >= 34), "{seen:?}");
            for a in 0..n {
                for b in a + 1..n {
                    assert!(
                        seen[a].iter().all(|c| !seen[b].contains(c)),
                        "{a} and {b} saw the same card"
                    );
                }
            }
        }
    }
}

#[test]
fn with_three_players_each_line_shares_what_both_others_draw_before_its_next() {
    let (header, wallets) = table_of(3);
    let (text, _) = play(&header, &wallets);
    // C's turn 3 line shares what A draws on turn 4 (and B on turn 5):
    // without C's share of A's card, A's turn 4 is refused, naming C.
    let at = text.find("\n3. C:").unwrap();
    let end = at + 1 + text[at + 1..].find("\n4. A:").unwrap();
    let line = &text[at..end];
    let share = line.find("\n    share ").expect("C's shares");
    let position: u32 = line[share + 11..]
        .split([' ', '\n'])
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let mut close = share + 1 + line[share + 1..].find('\n').unwrap();
    while let Some(next) = line[close + 1..].find('\n') {
        let body = line[close + 1..close + 1 + next].trim_start();
        if body.len() != 64 || !body.bytes().all(|b| b.is_ascii_hexdigit()) {
            break;
        }
        close += 1 + next;
    }
    let forged = format!("{}{}{}", &text[..at + share], &line[close..], &text[end..]);
    let err = replayed(&forged).unwrap_err();
    assert_eq!(err.turn, Some(3), "{}", err.message);
    assert_eq!(
        err.message,
        format!(
            "C shares every card the others draw before its next line: its share of deck \
             position {position} is missing (herald move --key adds it)"
        )
    );
}

#[test]
fn sides_that_share_a_hand_play_it_with_its_holders_key_file() {
    // A and C play from A's hand, B and D from B's: two hands, two card
    // keys (on A's and B's first lines), two passes over the first deck
    // (on C's and D's set-up lines, made with A's and B's key files).
    let (header, wallets) = table_with(4, &[("Hands", "shared")]);
    let (text, seen) = play(&header, &wallets);
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Over, "{text}");
    assert!(referee.failed_audits().is_empty(), "{text}");
    let deck = referee.deck().unwrap();
    assert_eq!(deck.order(), &[hand_at(0), hand_at(1)]);
    assert_eq!(deck.passed(hand_at(0)), vec![0]);
    assert_eq!(deck.passed(hand_at(1)), vec![0]);
    let block = |from: &str, to: &str| {
        let at = text.find(from).unwrap();
        text[at..at + text[at..].find(to).unwrap()].to_owned()
    };
    assert!(block("S1. A:", "S2. B:").contains("\n    cardkey "));
    assert!(block("S2. B:", "S3. C:").contains("\n    cardkey "));
    assert!(!block("S3. C:", "S4. D:").contains("cardkey"), "{text}");
    assert!(block("S3. C:", "S4. D:").contains("\n    commit shuffle-0\n"));
    assert!(block("S4. D:", "S5. A:").contains("\n    commit shuffle-0\n"));
    // Each hand saw cards, the other hand's none of them (no reshuffle:
    // 68 cards).
    assert!(!seen[0].is_empty() && !seen[1].is_empty());
    assert!(seen[0].iter().all(|c| !seen[1].contains(c)));
    assert!(seen[2].is_empty() && seen[3].is_empty());
    // D's turn 4 plays a card of B's hand, opened by B's share (checked
    // against B's card key): the game replayed clean above.
    let d_turn = block("\n4. D:", "\n5. A:");
    assert!(d_turn.contains(": play "), "{d_turn}");
}

#[test]
fn a_side_of_a_shared_hand_cannot_write_its_holders_shares_with_its_own_key() {
    let (header, wallets) = table_with(4, &[("Hands", "shared")]);
    let source = Source::new(header.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    let mut referee = Referee::<Cards>::start(&rec).unwrap();
    // S1 (A) and S2 (B) as composed; then C's S3 owes A's hand's pass.
    for (i, wallet) in wallets.iter().take(2).enumerate() {
        let side = referee.to_move().unwrap();
        assert_eq!(usize::from(side.0), i);
        let line = Line::of_actions(LineKind::Setup, 0, side.name::<Cards>(), &[]);
        referee.compose(line, Keys::own(wallet)).unwrap();
    }
    let line = Line::of_actions(LineKind::Setup, 0, "C", &[]);
    let err = referee
        .clone()
        .compose(line.clone(), Keys::own(&wallets[2]))
        .unwrap_err();
    assert_eq!(
        err,
        ComposeError::Keys(
            "C plays from A's hand: its cards are drawn and shown with A's key file, given as \
             the hand's key (herald --hand-key): give A's key file of this game as the hand's \
             key: --key c.key --hand-key a.key (your names for those key files)"
                .into()
        )
    );
    // With B's key file as the hand's: refused, it is not A's.
    assert_eq!(
        referee
            .clone()
            .compose(
                line.clone(),
                Keys::given(Some(&wallets[2]), Some(&wallets[1]))
            )
            .unwrap_err(),
        ComposeError::HandKey(
            "(made for B in cards) is B's key in this game, but C's hand is A's: give A's key \
             file of this game as the hand's key: --key c.key --hand-key a.key (your names for \
             those key files)"
                .into()
        )
    );
    // With A's: C's line carries A's hand's pass.
    let played = referee
        .compose(line, Keys::given(Some(&wallets[2]), Some(&wallets[0])))
        .unwrap();
    assert!(played.line().contains("\n    commit shuffle-0\n"));
}

#[test]
fn a_hand_key_is_the_holders_and_only_for_a_side_that_plays_from_its_hand() {
    let (header, wallets) = table_with(4, &[("Hands", "shared")]);
    let (text, _) = play(&header, &wallets);
    // The game after its set-up and two turns: C is to move, B's hand
    // draws nothing now.
    let at = text.find("\n3. C:").unwrap();
    let source = Source::new(&text.as_bytes()[..at + 1]).unwrap();
    let rec = record::parse(&source).unwrap();
    let referee = replay::<Cards>(&rec, |_, _| {}).unwrap();
    let b = Side(1);
    let d = Side(3);
    assert_eq!(referee.to_move(), Some(Side(2)));
    // B holds its hand: its own key file shows it, a hand key is refused.
    let own = referee.hand_wallet(b, &wallets[1], None).unwrap();
    assert_eq!(own.side(), "B");
    assert_eq!(
        referee
            .hand_wallet(b, &wallets[1], Some(&wallets[3]))
            .unwrap_err(),
        ComposeError::HandKey(
            "(made for D in cards): B holds its own hand, drawn and shown with its own key \
             file: drop --hand-key (it is for a side that plays from another side's hand)"
                .into()
        )
    );
    // D plays from B's hand: B's key file is its hand key, none or
    // another side's is refused.
    let held = referee
        .hand_wallet(d, &wallets[3], Some(&wallets[1]))
        .unwrap();
    assert_eq!(held.side(), "B");
    assert_eq!(
        referee.hand_wallet(d, &wallets[3], None).unwrap_err(),
        ComposeError::Keys(
            "D plays from B's hand: its cards are drawn and shown with B's key file, given as \
             the hand's key (herald --hand-key): give B's key file of this game as the hand's \
             key: --key d.key --hand-key b.key (your names for those key files)"
                .into()
        )
    );
    assert_eq!(
        referee
            .hand_wallet(d, &wallets[3], Some(&wallets[0]))
            .unwrap_err(),
        ComposeError::HandKey(
            "(made for A in cards) is A's key in this game, but D's hand is B's: give B's key \
             file of this game as the hand's key: --key d.key --hand-key b.key (your names for \
             those key files)"
                .into()
        )
    );
    // D's view: with B's key file as the hand key it knows B's hand (the
    // cards B's key file shows), without it the view is refused.
    let cards = referee.hand(b, &wallets[1]).unwrap();
    assert!(!cards.is_empty());
    let seen = referee
        .view(Keys::given(Some(&wallets[3]), Some(&wallets[1])))
        .unwrap();
    let mut known = seen.known[hand_of(&seen, 3)].clone();
    known.sort_unstable();
    let mut expected: Vec<u32> = cards.iter().map(|(_, c)| *c).collect();
    expected.sort_unstable();
    assert_eq!(known, expected);
    assert!(referee.view(Keys::given(Some(&wallets[3]), None)).is_err());
    // The view of D's own key file alone shows its own values, no card.
    let alone = referee.view(Keys::as_shown(&wallets[3])).unwrap();
    assert!(alone.known[hand_of(&alone, 3)].is_empty());
}

#[test]
fn the_shares_owed_follow_the_turn_order_once_a_side_is_skipped() {
    // A and C play from A's hand, B and D from B's; C takes no turns
    // after turn 5 (A's line: the game knows it once that line is
    // played), so the hands go A, B, B, A, B, B, ...: A's line owes its
    // shares of both of B's draws before its next turn, B's first line
    // of two none.
    let (header, wallets) = table_with(4, &[("Hands", "shared"), ("Out", "C")]);
    let (text, _) = play(&header, &wallets);
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Over, "{text}");
    assert!(referee.failed_audits().is_empty(), "{text}");
    let block = |from: &str, to: &str| {
        let at = text.find(from).unwrap();
        text[at..at + text[at..].find(to).unwrap()].to_owned()
    };
    let shares = |b: &str| b.matches("\n    share ").count();
    // C's last turn is turn 3; turn 7 is D's (C skipped), turn 8 A's.
    assert!(text.contains("\n3. C:") && !text.contains("\n7. C:"));
    assert!(text.contains("\n7. D:") && text.contains("\n8. A:"));
    // A's turn 5 shares B's draws on turns 6 and 7.
    let a5 = block("\n5. A:", "\n6. B:");
    assert!((2..=3).contains(&shares(&a5)), "{a5}");
    // A's turn 8 shares B's draws on turns 9 and 10 (and opens no more
    // than one card of its own: at most one share more).
    let a8 = block("\n8. A:", "\n9. B:");
    assert!((2..=3).contains(&shares(&a8)), "{a8}");
    // B's turn 9 owes nothing to D's turn 10, only A's turn 11 draw.
    let b9 = block("\n9. B:", "\n10. D:");
    let d10 = block("\n10. D:", "\n11. A:");
    assert!(shares(&b9) <= 1, "{b9}");
    assert!((1..=2).contains(&shares(&d10)), "{d10}");
}

/// The block of `text` from `from` up to `to`.
fn block<'t>(text: &'t str, from: &str, to: &str) -> &'t str {
    let at = text.find(from).unwrap_or_else(|| panic!("{from}: {text}"));
    &text[at..at + text[at..].find(to).unwrap_or(text.len() - at)]
}

#[test]
fn a_side_put_out_on_another_hands_line_writes_a_farewell_line_with_its_shares() {
    // A and C play from A's hand, B and D from B's. B's turn 6 puts C
    // out: D (B's hand) moves next and draws, and A's hand, whose last
    // line (A's turn 5) shared only B's turn-6 draw, as C was to write
    // turn 7, gives its share of D's draw on C's farewell line, turn 7.
    let (header, wallets) = table_with(4, &[("Hands", "shared"), ("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    let farewell = block(&text, "\n7. C:", "\n8. D:");
    assert!(farewell.starts_with("\n7. C: pass\n"), "{farewell}");
    // Its share of D's turn-8 draw, and nothing of its hand's own.
    let shares = farewell.matches("\n    share ").count();
    assert_eq!(shares, 1, "{farewell}");
    assert!(!farewell.contains("cardsecret") && !farewell.contains("open "));
    // A's turn 5 shared B's turn-6 draw only; C writes no more.
    let a5 = block(&text, "\n5. A:", "\n6. B:");
    assert!(a5.matches("\n    share ").count() <= 2, "{a5}");
    assert!(!text[text.find("\n8. D:").unwrap()..].contains(". C:"));
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Over, "{text}");
    assert!(referee.failed_audits().is_empty(), "{text}");
    // Without C's farewell line: turn 7 is C's.
    let cut = text.replace(farewell, "\n").replace("\n8. D:", "\n7. D:");
    let err = replayed(&cut).unwrap_err();
    assert_eq!(err.turn, Some(7), "{}", err.message);
    assert_eq!(err.message, "it is C's turn, not D's");
}

/// `block` without its first item starting `word` (the item's line and
/// the lines of hex digits that continue it).
fn without_item(block: &str, word: &str) -> String {
    let at = block.find(&format!("\n    {word}")).unwrap();
    let mut end = at + 1 + block[at + 1..].find('\n').unwrap_or(block.len() - at - 1);
    while let Some(next) = block.get(end + 1..).and_then(|r| r.split('\n').next()) {
        let hex = next.trim();
        if next.starts_with("    ") && !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit())
        {
            end += 1 + next.len();
        } else {
            break;
        }
    }
    format!("{}{}", &block[..at], &block[end..])
}

#[test]
fn a_farewell_line_that_leaves_out_a_share_it_owes_is_refused() {
    let (header, wallets) = table_with(4, &[("Hands", "shared"), ("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    let farewell = block(&text, "\n7. C:", "\n8. D:");
    let at = farewell.find("\n    share ").unwrap();
    let position: u32 = farewell[at + 11..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let forged = text.replace(farewell, &without_item(farewell, "share "));
    let err = replayed(&forged).unwrap_err();
    assert_eq!(err.turn, Some(7));
    assert_eq!(
        err.message,
        format!(
            "C shares every card the others draw before its next line: its share of deck \
             position {position} is missing (herald move --key adds it)"
        )
    );
}

#[test]
fn a_farewell_line_carries_no_actions_and_no_resignation() {
    let (header, wallets) = table_with(4, &[("Hands", "shared"), ("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    let reason = "C was put out on turn 6: this is its farewell line, which carries no \
                  actions, draws no card and cannot resign (herald move pass --key)";
    let keep = text.replace("\n7. C: pass\n", "\n7. C: keep\n");
    let err = replayed(&keep).unwrap_err();
    assert_eq!(
        (err.turn, err.message.clone()),
        (Some(7), format!("keep: {reason}"))
    );
    let resign = text.replace("\n7. C: pass\n", "\n7. C: resign\n");
    let err = replayed(&resign).unwrap_err();
    assert_eq!(err.turn, Some(7));
    assert_eq!(err.message, format!("resign: {reason}"));
}

#[test]
fn a_farewell_line_neither_offers_nor_accepts_a_draw() {
    let (header, wallets) = table_with(4, &[("Hands", "shared"), ("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    for word in ["offer draw", "accept draw"] {
        let changed = text.replace("\n7. C: pass\n", &format!("\n7. C: {word}\n"));
        let err = replayed(&changed).unwrap_err();
        assert_eq!(err.turn, Some(7));
        assert_eq!(
            err.message,
            format!(
                "{word}: C is out of the game and this is its farewell line: it can neither \
                 offer nor accept a draw (herald move pass --key)"
            )
        );
    }
}

#[test]
fn a_hand_with_no_side_left_opens_its_cards_and_publishes_its_card_secret() {
    // Three sides, each its own hand: B's turn 5 puts C out, and C's
    // farewell line (turn 6) is its leaving line: its cards opened, the
    // seed of its pass opened, its card secret published. The game
    // then draws on without C, whose shares every reader makes.
    let (header, wallets) = table_with(3, &[("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    let leaving = block(&text, "\n6. C:", "\n7. A:");
    assert!(leaving.starts_with("\n6. C: pass\n"), "{leaving}");
    assert!(leaving.contains("\n    open shuffle-0\n"), "{leaving}");
    assert!(leaving.contains("\n    cardsecret\n"), "{leaving}");
    // C held its three dealt cards and two turns' cards less what it
    // played: each opened here.
    assert!(leaving.matches("\n    share ").count() >= 3, "{leaving}");
    assert!(!text[text.find("\n7. A:").unwrap()..].contains(". C:"));
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Over, "{text}");
    assert!(referee.failed_audits().is_empty(), "{text}");
    let deck = referee.deck().unwrap();
    assert!(deck.has_left(hand_at(2)) && !deck.has_left(hand_at(0)));
    assert!(deck.held(hand_at(2)).is_empty());
    // A reshuffle after C left is passed by A and B alone.
    assert!(text.contains("\n    commit shuffle-1\n"), "{text}");
    let passes = text.matches("\n    commit shuffle-1\n").count();
    assert_eq!(passes, 2, "{text}");
}

#[test]
fn a_side_out_before_turn_1_leaves_at_its_place_in_the_first_round() {
    // Three sides, each its own hand; C is out once the set-up is over
    // (a castle whose maze broke the rules). It wrote its set-up lines
    // (its card key and its pass are in the deck); its leaving line is
    // turn 3, its place after A and B, and then A and B play on alone.
    let (header, wallets) = table_with(3, &[("Out", "C-at-set-up")]);
    let (text, _) = play(&header, &wallets);
    assert!(text.contains("\n2. B:"), "{text}");
    let leaving = block(&text, "\n3. C:", "\n4. A:");
    assert!(leaving.starts_with("\n3. C: pass\n"), "{leaving}");
    assert!(leaving.contains("\n    open shuffle-0\n"), "{leaving}");
    assert!(leaving.contains("\n    cardsecret\n"), "{leaving}");
    // It never drew: no card of its hand to open.
    assert!(!leaving.contains("\n    share "), "{leaving}");
    assert!(!text[text.find("\n4. A:").unwrap()..].contains(". C:"));
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Over, "{text}");
    assert!(referee.failed_audits().is_empty(), "{text}");
    assert!(referee.deck().unwrap().has_left(hand_at(2)));
}

#[test]
fn a_side_out_before_turn_1_cannot_be_passed_over() {
    // B writes turn 3 where C's leaving line is due.
    let (header, wallets) = table_with(3, &[("Out", "C-at-set-up")]);
    let (text, _) = play(&header, &wallets);
    let (referee, _) = before_line(&text, "\n3. C:", "\n4. A:");
    assert_eq!(referee.to_move().map(|s| s.name::<Cards>()), Some("C"));
    let note = referee.farewell_note().expect("C's leaving line is due");
    assert!(
        note.starts_with("C was put out before turn 1: turn 3 is its farewell line"),
        "{note}"
    );
    let e = refused(&referee, "3. A: pass\n", &[]);
    assert!(e.message.contains("C's"), "{}", e.message);
}

#[test]
fn a_leaving_line_with_a_card_secret_that_is_not_its_keys_is_refused() {
    let (header, wallets) = table_with(3, &[("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    let leaving = block(&text, "\n6. C:", "\n7. A:");
    let at = leaving.find("cardsecret\n    ").unwrap() + 15;
    let digit = &leaving[at..at + 1];
    let flipped = if digit == "0" { "1" } else { "0" };
    let forged_line = format!("{}{flipped}{}", &leaving[..at], &leaving[at + 1..]);
    let err = replayed(&text.replace(leaving, &forged_line)).unwrap_err();
    assert_eq!(err.turn, Some(6));
    assert_eq!(err.message, "C's card secret does not match its card key");
    // Without it: refused, saying what the leaving line carries.
    let without = without_item(leaving, "cardsecret");
    let err = replayed(&text.replace(leaving, &without)).unwrap_err();
    assert_eq!(err.turn, Some(6));
    assert_eq!(
        err.message,
        "C leaves the game on this line, its hand with it: the line opens every card the \
         hand holds, the seed of each of its passes and publishes its card secret (herald \
         move --key adds them); its card secret is missing"
    );
}

#[test]
fn a_line_from_a_side_that_left_is_refused() {
    let (header, wallets) = table_with(3, &[("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    // Turn 7 written as C's: it is A's.
    let at = text.find("\n7. A:").unwrap();
    let forged = format!("{}\n7. C: keep\n", &text[..at]);
    let err = replayed(&forged).unwrap_err();
    assert_eq!(err.turn, Some(7));
    assert_eq!(err.message, "it is A's turn, not C's");
}

#[test]
fn a_card_secret_on_a_line_whose_hand_stays_is_refused() {
    let (header, wallets) = table_with(3, &[("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    // A's turn 7 publishing C's secret (copied): A's hand plays on.
    let leaving = block(&text, "\n6. C:", "\n7. A:");
    let at = leaving.find("\n    cardsecret\n").unwrap();
    let secret = &leaving[at..at + 16 + 4 + 64];
    let a7 = block(&text, "\n7. A:", "\n8. B:");
    let reveal = a7.find("\n    reveal ").unwrap();
    let forged = format!("{}{secret}{}", &a7[..reveal], &a7[reveal..]);
    let err = replayed(&text.replace(a7, &forged)).unwrap_err();
    assert_eq!(err.turn, Some(7));
    assert_eq!(
        err.message,
        "cardsecret: A publishes its card secret only when its hand leaves a game that goes \
         on drawing without it"
    );
}

#[test]
fn a_side_that_resigns_and_drops_out_leaves_on_its_resignation_line() {
    // Three sides; C resigns on turn 3 and drops out: the resignation is
    // its leaving line, and A and B play on, C's shares made from its
    // published secret.
    let (header, wallets) = table_with(3, &[("Resign", "drops")]);
    let (text, _) = play_scripted(&header, &wallets, &|_| None, Some(3));
    let line = block(&text, "\n3. C:", "\n4. A:");
    assert!(line.starts_with("\n3. C: resign\n"), "{line}");
    assert!(line.contains("\n    cardsecret\n") && line.contains("\n    open shuffle-0\n"));
    // Its three dealt cards and its turn's card, opened.
    assert!(line.matches("\n    share ").count() >= 4, "{line}");
    assert!(!text[text.find("\n4. A:").unwrap()..].contains(". C:"));
    let referee = replayed(&text).unwrap();
    assert_eq!(referee.phase(), Phase::Over, "{text}");
    assert!(referee.failed_audits().is_empty(), "{text}");
    assert!(referee.deck().unwrap().has_left(hand_at(2)));
}

/// The game of `text` replayed up to the line that starts `at`, and that
/// line's text.
fn before_line(text: &str, at: &str, next: &str) -> (Referee<Cards>, String) {
    let start = text.find(at).unwrap();
    let source = Source::new(&text.as_bytes()[..start + 1]).unwrap();
    let rec = record::parse(&source).unwrap();
    let referee = replay::<Cards>(&rec, |_, _| {}).unwrap();
    (referee, block(text, at, next)[1..].to_owned())
}

#[test]
fn a_farewell_line_opens_no_card_of_a_hand_that_plays_on() {
    let (header, wallets) = table_with(4, &[("Hands", "shared"), ("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    let (referee, line) = before_line(&text, "\n7. C:", "\n8. D:");
    // C's farewell line with A's hand's share of a card it holds.
    let deck = referee.deck().unwrap();
    let p = deck.held(hand_at(0))[0];
    let secret = super::deck::CardSecret::of(&wallets[0], referee.header().game_id(), "A");
    let share = secret.share(deck.deck_of(p).unwrap(), p).unwrap();
    let err = refused(
        &referee,
        &line,
        &[(p, share.point_bytes(), share.proof_bytes())],
    );
    assert_eq!((err.turn, err.side.as_str()), (7, "C"));
    assert_eq!(
        err.message,
        "a farewell line opens no card of its hand: C's hand plays on"
    );
}

#[test]
fn a_leaving_line_opens_every_card_of_its_hand_and_the_seed_of_each_pass() {
    let (header, wallets) = table_with(3, &[("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    let leaving = block(&text, "\n6. C:", "\n7. A:");
    let leaves = "C leaves the game on this line, its hand with it: the line opens every \
                  card the hand holds, the seed of each of its passes and publishes its card \
                  secret (herald move --key adds them)";
    let err =
        replayed(&text.replace(leaving, &without_item(leaving, "open shuffle-0"))).unwrap_err();
    assert_eq!(err.turn, Some(6));
    assert_eq!(
        err.message,
        format!("{leaves}; the seed of its pass over deck 0 is not opened")
    );
    let at = leaving.find("\n    share ").unwrap();
    let p: u32 = leaving[at + 11..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let err = replayed(&text.replace(leaving, &without_item(leaving, "share "))).unwrap_err();
    assert_eq!(err.turn, Some(6));
    assert_eq!(
        err.message,
        format!("{leaves}; deck position {p} is not opened")
    );
}

#[test]
fn a_card_its_drawer_shared_for_another_is_passed_over() {
    // Three sides, hands of 3: turn 1 A draws 0, 3, 6 and 9, turn 2 B
    // 1, 4, 7 and 10, turn 3 C 2, 5, 8 and 11, turn 4 A 12, turn 5 B 13.
    // A's turn 4 shared 14, C's draw on turn 6 as the order stood; B's
    // turn 5 puts C out, and A's turn 7 would draw 14, whose share it
    // gave: it draws 15, and 14 stays out of play.
    let (header, wallets) = table_with(3, &[("Out", "C-on-B")]);
    let (text, _) = play(&header, &wallets);
    let a4 = block(&text, "\n4. A:", "\n5. B:");
    assert!(
        a4.contains("\n    share 14 ") || a4.contains("\n    share 14\n"),
        "{a4}"
    );
    let referee = replayed(&text).unwrap();
    let deck = referee.deck().unwrap();
    assert_eq!(deck.drawer(14), None);
    assert_eq!(deck.drawer(15), Some(hand_at(0)));
    assert_eq!(deck.drawer(16), Some(hand_at(1)));
}

#[test]
fn battlegates_cards_compared_by_kind_not_by_copy() {
    use crate::games::battlegates::Battlegates as B;
    // The deck in card order: six Scales (0..=5), then the Climbs (6..);
    // card 34 + i is card i of the second deck.
    assert_eq!(B::card_kind(0), B::card_kind(5));
    assert_eq!(B::card_kind(0), B::card_kind(34));
    assert_ne!(B::card_kind(5), B::card_kind(6));
    assert_eq!(B::kind_text(B::card_kind(6)), "climb");
    assert_eq!(B::kind_text(B::card_kind(40)), "climb");
    // Past the 68 cards: a kind of no card, spent by no action.
    assert_eq!(B::card_kind(68), CardKind(u32::MAX));
}

#[test]
fn a_composed_line_refused_leaves_the_game_as_it_was() {
    let (_, wallets) = table("P", "R");
    let referee = set_up(&wallets);
    let mut tried = referee.clone();
    let line = Line {
        kind: LineKind::Turn,
        number: 1,
        side: "A",
        entries: vec![Entry::Action("play 99".into())],
        ending: Ending::Actions,
        proofs: Vec::new(),
        claimant: None,
    };
    let e = tried.compose(line, Keys::own(&wallets[0])).unwrap_err();
    assert!(format!("{e:?}").contains("play 99"), "{e:?}");
    // Nothing moved: the line due, the digest, the deck; and the line
    // composed next is the one composed on the game untouched.
    assert_eq!(tried.next_turn(), 1);
    assert_eq!(tried.to_move(), Some(Side(0)));
    assert_eq!(tried.digest(), referee.digest());
    assert_eq!(
        tried.deck().unwrap().held(hand_at(0)),
        referee.deck().unwrap().held(hand_at(0))
    );
    assert_eq!(
        tried.deck().unwrap().order(),
        referee.deck().unwrap().order()
    );
    assert_eq!(
        composed(&tried, &wallets[0], "keep"),
        composed(&referee, &wallets[0], "keep")
    );
}
