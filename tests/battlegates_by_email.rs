//! Battlegates by email, through the real binary: South and North each in
//! their own directory with their own key file and copy of the record,
//! mailing it back and forth (here: copying the file). The hidden mazes
//! (one given on the command line, one read from a file), the opening
//! roll and the deal read back from `fate`, four turns written with
//! `move --key` and looked at with `legal`, `show`, `annotate` and `fate`
//! as a player would; then tampering with a maze opening and a die fact.
//!
//! The rolls and cards come from the players' fresh keys, so the turns are
//! chosen to be legal whatever they are: a Crusader's run of exactly the
//! roll along a lane no maze piece crosses, then an Archer's shot.

mod common;
use common::{herald, json, refused, run};

use std::path::{Path, PathBuf};

use serde_json::Value;

/// South's maze, given on the command line. The Long gate Le1nw is fixed
/// (the Brick wall Wd1n touches its hinge post d1ne).
const SOUTH_MAZE: &str = "Wd1n Wa2n Wh3n Wi3n Gh1nw Gd3nw Gf3ne Le1nw Lb1ne Lg4nw";
/// North's maze, in a file with comments, separated by commas.
const NORTH_MAZE_FILE: &str = "# North's maze for the game with ann\n\
     Wa9n, Wb9n, Wh9n, Wi9n   # the Brick walls\n\
     Ge11nw, Gb10ne, Gh10nw   # the Gates\n\
     Lc8nw, Lf8nw, Lb11nw     # the Long gates\n";
const NORTH_MAZE: [&str; 10] = [
    "Wa9n", "Wb9n", "Wh9n", "Wi9n", "Ge11nw", "Gb10ne", "Gh10nw", "Lc8nw", "Lf8nw", "Lb11nw",
];

/// Each side's Crusader lane: no wall or gate lies across it in the mazes
/// above, so its first `roll` steps are a legal run for any roll.
fn lane(side: &str) -> [&'static str; 5] {
    match side {
        "South" => ["b1", "c1", "c2", "c3", "c4"],
        _ => ["h12", "g12", "g11", "g10", "g9"],
    }
}

/// Each side's second turn: an Archer's shot whose first square holds its
/// own Gatekeeper (legal and harmless: it spends the roll).
fn shot(side: &str) -> &'static str {
    match side {
        "South" => "shoot d1 e",
        _ => "shoot d12 e",
    }
}

const CARDS: [(&str, char); 6] = [
    ("scale", 's'),
    ("climb", 'c'),
    ("move-wall", 'w'),
    ("move-gate", 'g'),
    ("rotate90", 'r'),
    ("rotate180", 't'),
];

fn card_letter(word: &str) -> char {
    CARDS.iter().find(|(w, _)| *w == word).unwrap().1
}

fn card_word(letter: char) -> &'static str {
    CARDS.iter().find(|(_, l)| *l == letter).unwrap().0
}

fn other(side: &str) -> &'static str {
    if side == "South" {
        "North"
    } else {
        "South"
    }
}

/// `check --format json` on the player's copy.
fn status(dir: &Path) -> Value {
    json(dir, &["check", "game.pbem", "--format", "json"])
}

/// Mail the record from one player to the other.
fn mail(from: &Path, to: &Path) {
    std::fs::copy(from.join("game.pbem"), to.join("game.pbem")).unwrap();
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

/// The fields of the position notation: characters, maze, to-move, cards,
/// points, result.
fn fields(status: &Value) -> Vec<String> {
    let position = status["position"].as_str().unwrap();
    position.split(' ').map(str::to_owned).collect()
}

/// A side's hand, as card words, from the position's cards field.
fn hand(status: &Value, side: &str) -> Vec<&'static str> {
    let cards = &fields(status)[3];
    let part = cards.split('/').nth(usize::from(side == "North")).unwrap();
    part.chars().filter(|c| *c != '-').map(card_word).collect()
}

/// Two players' directories, `new` and `keygen` done.
struct Table {
    _root: tempfile::TempDir,
    south: PathBuf,
    north: PathBuf,
}

impl Table {
    fn new() -> Table {
        let root = tempfile::tempdir().unwrap();
        let (south, north) = (root.path().join("ann"), root.path().join("bob"));
        std::fs::create_dir(&south).unwrap();
        std::fs::create_dir(&north).unwrap();
        run(
            &south,
            &[
                "new",
                "--protocol",
                "2",
                "battlegates",
                "--side",
                "South=ann@example.org",
                "--side",
                "North=bob@example.org",
                "--option",
                "Hands=open",
                "-o",
                "game.pbem",
            ],
        );
        run(
            &south,
            &["keygen", "--side", "South", "game.pbem", "-o", "my.key"],
        );
        mail(&south, &north);
        run(
            &north,
            &["keygen", "--side", "North", "game.pbem", "-o", "my.key"],
        );
        mail(&north, &south);
        std::fs::write(north.join("maze.txt"), NORTH_MAZE_FILE).unwrap();
        Table {
            _root: root,
            south,
            north,
        }
    }

    fn dir(&self, side: &str) -> &Path {
        match side {
            "South" => &self.south,
            _ => &self.north,
        }
    }

    /// The whole set-up: both commitments, then both openings, mailing
    /// after each, with the checks a player makes on the way.
    fn setup(&self) {
        let s = status(&self.south);
        assert_eq!(s["phase"], "setup");
        assert_eq!(strings(&s["due"]), ["South"]);
        run(
            &self.south,
            &[
                "setup",
                "game.pbem",
                "--key",
                "my.key",
                "--maze",
                SOUTH_MAZE,
            ],
        );
        mail(&self.south, &self.north);
        // North sees South's ten commitments, not its maze.
        let record = std::fs::read_to_string(self.north.join("game.pbem")).unwrap();
        assert_eq!(record.matches("commit ").count(), 10);
        for piece in SOUTH_MAZE.split(' ') {
            assert!(!record.contains(piece), "{piece} shows before it is opened");
        }
        let s = status(&self.north);
        assert_eq!(strings(&s["due"]), ["North"]);
        assert_eq!(fields(&s)[1], "-", "no maze piece is public yet");
        run(
            &self.north,
            &[
                "setup",
                "game.pbem",
                "--key",
                "my.key",
                "--maze",
                "@maze.txt",
            ],
        );
        mail(&self.north, &self.south);
        assert_eq!(strings(&status(&self.south)["due"]), ["South"]);
        run(&self.south, &["setup", "game.pbem", "--key", "my.key"]);
        mail(&self.south, &self.north);
        assert_eq!(strings(&status(&self.north)["due"]), ["North"]);
        run(&self.north, &["setup", "game.pbem", "--key", "my.key"]);
        mail(&self.north, &self.south);
    }

    fn record(&self) -> String {
        std::fs::read_to_string(self.south.join("game.pbem")).unwrap()
    }
}

/// The opening roll and the deal, read from `fate`: who moves first, and
/// the cards dealt to each side, in card letters (sorted).
fn opening_and_deal(dir: &Path) -> (String, [String; 2]) {
    let fate = json(dir, &["fate", "game.pbem", "--format", "json"]);
    let events = fate["events"].as_array().unwrap();
    let of = |label: &str| -> Vec<String> {
        events
            .iter()
            .filter(|e| e["label"] == label)
            .map(|e| {
                assert_eq!(e["turn"], 0, "{e}");
                assert_eq!(strings(&e["reveals_of"]), ["South", "North"]);
                e["value"].as_str().unwrap().to_owned()
            })
            .collect()
    };
    // South rolls, then North, again while the two are equal.
    let rolls = of("opening");
    assert!(rolls.len() >= 2 && rolls.len() % 2 == 0, "{rolls:?}");
    let pairs: Vec<&[String]> = rolls.chunks(2).collect();
    for pair in &pairs[..pairs.len() - 1] {
        assert_eq!(pair[0], pair[1], "only a tie is rolled again");
    }
    let last = pairs[pairs.len() - 1];
    assert!(last
        .iter()
        .all(|r| ["1", "2", "3", "4"].contains(&r.as_str())));
    assert_ne!(last[0], last[1]);
    let first = if last[0] > last[1] { "South" } else { "North" };
    // Six cards, one at a time, starting with the side that does not deal
    // (the dealer is the side that moves first).
    let deal = of("deal");
    assert_eq!(deal.len(), 6);
    let mut hands = [String::new(), String::new()];
    let dealt_first = usize::from(other(first) == "North");
    for (i, card) in deal.iter().enumerate() {
        let to = if i % 2 == 0 {
            dealt_first
        } else {
            1 - dealt_first
        };
        hands[to].push(card_letter(card));
    }
    for h in &mut hands {
        let mut letters: Vec<char> = h.chars().collect();
        letters.sort_by_key(|l| CARDS.iter().position(|(_, c)| c == l));
        *h = letters.into_iter().collect();
    }
    (first.to_owned(), hands)
}

/// The card action a careful player picks: discard a card it holds (one
/// whose name has no hyphen), else play a move card that puts its piece on
/// rows 6 or 7, out of both lanes.
fn card_action(held: &[&str], legal: &[String]) -> String {
    if let Some(card) = held.iter().find(|c| !c.contains('-')) {
        return format!("discard {card}");
    }
    legal
        .iter()
        .find(|a| {
            a.starts_with("move-") && {
                let to = a.rsplit(' ').next().unwrap();
                matches!(&to[2..3], "6" | "7") && !to[3..4].chars().all(char::is_numeric)
            }
        })
        .unwrap_or_else(|| panic!("no move card to rows 6 or 7 in {legal:?}"))
        .clone()
}

/// One turn of the side to move; returns the line's card and die facts.
fn play_turn(t: &Table, number: u32) -> (String, String) {
    let before = status(&t.south);
    assert_eq!(before, status(&t.north), "both copies agree");
    assert_eq!(before["turns"], number - 1);
    let me = before["to_move"].as_str().unwrap().to_owned();
    assert_eq!(strings(&before["due"]), [me.as_str()]);
    let dir = t.dir(&me);
    // Without the key the turn's card is not drawn yet: it needs the
    // mover's next reveal.
    let blind = json(dir, &["legal", "game.pbem", "--format", "json"]);
    assert_eq!(blind["chance"], serde_json::json!([]));
    assert!(blind["note"].as_str().unwrap().contains("not drawn yet"));
    // With it, the card drawn and the roll, and every card of the hand.
    let legal = json(
        dir,
        &["legal", "game.pbem", "--key", "my.key", "--format", "json"],
    );
    let chance: Vec<(String, String)> = legal["chance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["label"].as_str().unwrap().to_owned(),
                c["value"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(chance.len(), 2, "{chance:?}");
    assert_eq!(chance[0].0, "card");
    assert_eq!(chance[1].0, "die");
    let (card, die) = (chance[0].1.clone(), chance[1].1.clone());
    assert!(CARDS.iter().any(|(w, _)| *w == card), "{card}");
    let roll: usize = die.parse().unwrap();
    assert!((1..=4).contains(&roll), "{die}");
    let actions: Vec<String> = legal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap().to_owned())
        .collect();
    let mut held = hand(&before, &me);
    assert_eq!(held.len(), 3, "a hand of three before the draw");
    held.push(CARDS.iter().find(|(w, _)| *w == card).unwrap().0);
    for c in &held {
        assert!(
            actions.contains(&format!("discard {c}")),
            "discard {c} missing"
        );
    }
    // A Crusader's run of the whole roll, or an Archer's shot.
    let dice = if number <= 2 {
        lane(&me)[..=roll].join("-")
    } else {
        shot(&me).to_owned()
    };
    let chosen = card_action(&held, &actions);
    let turn = format!("{chosen}, {dice}");
    run(
        dir,
        &[
            "move",
            "game.pbem",
            &turn,
            "--key",
            "my.key",
            "--expect-turn",
            &number.to_string(),
        ],
    );
    mail(dir, t.dir(other(&me)));
    let after = status(t.dir(other(&me)));
    assert_eq!(after["turns"], number);
    assert_eq!(after["to_move"], other(&me));
    // The line as written, and its comment for the readers.
    let notes = json(&t.north, &["annotate", "game.pbem", "--format", "json"]);
    let last = notes["turns"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["side"], me.as_str());
    assert_eq!(
        last["line"],
        format!("card={card}, die={die}, {chosen}, {dice}").as_str()
    );
    let comment = last["comment"].as_str().unwrap();
    assert!(
        comment.starts_with(&format!("drew {card}; rolled {die}; ")),
        "{comment}"
    );
    if number <= 2 {
        assert!(
            comment.contains(&format!("{me}'s Crusader ran {dice}; ")),
            "{comment}"
        );
        assert!(comment.ends_with(&format!("{roll} of the roll of {roll} spent")));
    } else {
        assert!(comment.ends_with("an arrow hit nothing"), "{comment}");
    }
    // fate lists the turn's draw and roll, from the mover's reveal and
    // the other side's latest.
    let fate = json(&t.south, &["fate", "game.pbem", "--format", "json"]);
    let events: Vec<&Value> = fate["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["turn"] == number)
        .collect();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(
        (&events[0]["label"], &events[0]["value"]),
        (&"card".into(), &card.as_str().into())
    );
    assert_eq!(
        (&events[1]["label"], &events[1]["value"]),
        (&"die".into(), &die.as_str().into())
    );
    for e in events {
        assert_eq!(strings(&e["reveals_of"]), [me.as_str(), other(&me)]);
    }
    (card, die)
}

#[test]
fn two_players_set_up_hidden_mazes_and_play_four_turns_by_email() {
    let t = Table::new();
    t.setup();
    let s = status(&t.north);
    assert_eq!(s, status(&t.south));
    assert_eq!(s["phase"], "play");
    assert_eq!(s["turns"], 0);
    assert_eq!(s["result"], "*");
    // Both mazes are public now, all twenty pieces.
    let maze: Vec<String> = fields(&s)[1].split(',').map(str::to_owned).collect();
    let mut want: Vec<&str> = SOUTH_MAZE.split(' ').chain(NORTH_MAZE).collect();
    want.sort_unstable();
    let mut got: Vec<&str> = maze.iter().map(String::as_str).collect();
    got.sort_unstable();
    assert_eq!(got, want);
    // The opening roll decides turn 1; the deal gives three cards each.
    let (first, dealt) = opening_and_deal(&t.south);
    assert_eq!(s["to_move"], first.as_str());
    assert_eq!(strings(&s["due"]), [first.as_str()]);
    let cards = fields(&s)[3].clone();
    assert_eq!(cards, format!("{}/{}/-", dealt[0], dealt[1]));
    let shown = run(&t.north, &["show", "game.pbem"]);
    assert!(shown.contains("Battlegates, after turn 0"), "{shown}");
    for (side, letters) in ["South", "North"].iter().zip(&dealt) {
        let words: Vec<&str> = letters.chars().map(card_word).collect();
        assert!(
            shown.contains(&format!("{side}'s hand: {}", words.join(", "))),
            "{shown}"
        );
    }
    assert!(shown.contains("Deck: 28 cards, discard pile: 0"), "{shown}");

    let mut drawn = Vec::new();
    for number in 1..=4 {
        drawn.push(play_turn(&t, number));
    }
    // Each side's Crusader stands where its run ended, everything else
    // where it began.
    let s = status(&t.south);
    let characters = fields(&s)[0].clone();
    let end = |side: &str| {
        let n = usize::from(side != first);
        let roll: usize = drawn[n].1.parse().unwrap();
        lane(side)[roll]
    };
    assert_eq!(
        characters,
        format!(
            "{},d1,e1,f1,h1/b12,d12,e12,f12,{}",
            end("South"),
            end("North")
        )
    );
    // Four cards went to the discard pile or moved a piece; the hands are
    // still three each; the deck gave four.
    assert_eq!(hand(&s, "South").len(), 3);
    assert_eq!(hand(&s, "North").len(), 3);
    assert!(s["summary"].as_str().unwrap().contains("deck 24"), "{s}");
    // show draws the diagram with both Crusaders on their squares.
    let shown = run(&t.south, &["show", "game.pbem"]);
    assert!(shown.contains("Battlegates, after turn 4"), "{shown}");
    assert!(shown.contains("South's Keep: -") && shown.contains("North's Keep: -"));
    assert!(t.record().contains("4. "));
}

/// A table whose set-up is done and whose first turn is written.
fn after_turn_one() -> (Table, String) {
    let t = Table::new();
    t.setup();
    play_turn(&t, 1);
    let first = if t.record().lines().any(|l| l.starts_with("1. South:")) {
        "South"
    } else {
        "North"
    };
    (t, first.to_owned())
}

#[test]
fn a_maze_opening_altered_in_transit_is_caught_and_names_south() {
    let (t, first) = after_turn_one();
    let second = other(&first);
    // In the copy on its way to the second player, South's opening of its
    // Brick wall on a2n says a2e instead (South's salt kept).
    let sent = t.record();
    let opening = sent
        .lines()
        .find(|l| l.trim_start().starts_with("open w") && l.ends_with(" Wa2n"))
        .unwrap()
        .to_owned();
    let tampered = sent.replace(&opening, &opening.replace("Wa2n", "Wa2e"));
    assert_ne!(tampered, sent);
    let dir = t.dir(second);
    std::fs::write(dir.join("game.pbem"), &tampered).unwrap();
    let e = refused(dir);
    // The opening stands on South's set-up line S3.
    assert_eq!(
        (&e["kind"], &e["turn"], &e["setup_line"], &e["side"]),
        (&"record".into(), &Value::Null, &3.into(), &"South".into())
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("South's signature does not match this line here"),
        "{e}"
    );
    // The second player cannot play on from it; the file stays as it was.
    let out = herald(dir)
        .args(["move", "game.pbem", "discard scale", "--key", "my.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.join("game.pbem")).unwrap(),
        tampered
    );
}

#[test]
fn a_die_fact_altered_in_transit_is_caught_and_names_the_mover() {
    let (t, first) = after_turn_one();
    let sent = t.record();
    let line = sent
        .lines()
        .find(|l| l.starts_with(&format!("1. {first}: ")))
        .unwrap()
        .to_owned();
    let die = line.split("die=").nth(1).unwrap().chars().next().unwrap();
    let forged_die = if die == '4' { '1' } else { '4' };
    let forged = line.replace(&format!("die={die}"), &format!("die={forged_die}"));
    let tampered = sent.replace(&line, &forged);
    assert_ne!(tampered, sent);
    let dir = t.dir(other(&first));
    std::fs::write(dir.join("game.pbem"), &tampered).unwrap();
    let e = refused(dir);
    assert_eq!(
        (&e["kind"], &e["turn"], &e["side"]),
        (&"record".into(), &1.into(), &first.as_str().into())
    );
    assert!(
        e["message"].as_str().unwrap().contains(&format!(
            "{first}'s signature does not match this line here"
        )),
        "{e}"
    );
    // The other player's turn 2 is refused on it, the file left alone.
    let out = herald(dir)
        .args(["move", "game.pbem", "discard scale", "--key", "my.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("signature does not match"));
    assert_eq!(
        std::fs::read_to_string(dir.join("game.pbem")).unwrap(),
        tampered
    );
}
