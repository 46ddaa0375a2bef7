//! Battlegates' four-castle games with hidden hands (spec section 3.9,
//! "Leaving and farewell lines") through the real binary. Two players
//! hold two castles each (`four-castles`), each player's two key files in
//! its own directory: a castle killed on the other player's line writes
//! its farewell line with `herald move pass --key ... --hand-key ...`,
//! as `legal` says, and `check` replays it; a farewell line that leaves
//! out a share is caught. Four players alone (`four-castles-solo`): a
//! castle put out publishes its card secret and the others play on.
//! Neither the record nor `show` without a key names an unplayed card.

mod common;
use common::{herald, json, run};

use herald::game::{Game, Side};
use herald::games::battlegates::layouts::Layout;
use herald::games::battlegates::selfplay::{hidden_game, Play};
use herald::games::battlegates::{Battlegates, State};
use herald::record::{self, Source};
use herald::selfplay;

const CASTLES: [&str; 4] = ["Castle1", "Castle2", "Castle3", "Castle4"];

/// The turns of `text` that are farewell lines: written by a side other
/// than the one the position had to move.
fn farewells(text: &str) -> Vec<(u32, Side)> {
    let source = Source::new(text.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    let mut out = Vec::new();
    herald::referee::replay::<Battlegates>(&rec, |played, _| {
        if let Some(before) = &played.before {
            let before: &State = before;
            if played.kind == record::LineKind::Turn
                && !played.audit
                && Battlegates::to_move(before) != played.side
            {
                out.push((played.number, played.side));
            }
        }
    })
    .unwrap();
    out
}

/// A self-played hidden game on `layout` with a farewell line (the first
/// seed from 0 that has one), its record, and that line's turn and side.
fn with_farewell(layout: Layout) -> (u64, String, u32, Side) {
    for seed in 0..20 {
        let text = hidden_game(layout, seed, Play::Greedy, 400).unwrap();
        if let Some(&(turn, side)) = farewells(&text).first() {
            return (seed, text, turn, side);
        }
    }
    panic!("no farewell line in 20 games");
}

/// Write the key file of each castle of a self-played `layout` game of
/// `seed`: player `p`'s castles into `dirs[p]` as `castleK.key`.
fn key_files(layout: Layout, seed: u64, dirs: &[&std::path::Path]) {
    let mut tags: Vec<(String, String)> = vec![("Game".into(), "battlegates".into())];
    for c in CASTLES {
        tags.push((c.into(), format!("{}@example.org", c.to_lowercase())));
    }
    tags.push(("Hands".into(), "hidden".into()));
    tags.push(("Setup".into(), layout.tag().into()));
    let chain = herald::fairness::chain_id(tags.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    for (i, c) in CASTLES.iter().enumerate() {
        let secret = selfplay::secret(seed, Side(2 + i as u8));
        let wallet = herald::wallet::Wallet::from_secret("battlegates", c, chain, secret);
        let dir = dirs[i % dirs.len()];
        std::fs::write(
            dir.join(format!("{}.key", c.to_lowercase())),
            wallet.to_text(),
        )
        .unwrap();
    }
}

/// `text` cut before turn `turn`, its result `*`.
fn cut_before(text: &str, turn: u32) -> String {
    let at = text.find(&format!("\n{turn}. ")).unwrap();
    let head = &text[..at + 1];
    let end = head.find("[Result \"").unwrap();
    let close = end + head[end..].find("\"]").unwrap();
    format!("{}[Result \"*\"]{}", &head[..end], &head[close + 2..])
}

/// `show`'s lines of the hands name no card: `none`, or a count of
/// unseen cards.
fn assert_no_card_shown(text: &str) {
    let hands: Vec<&str> = text.lines().filter(|l| l.contains("hand: ")).collect();
    assert!(!hands.is_empty(), "{text}");
    for line in hands {
        let rest = line.split("hand: ").nth(1).unwrap().trim();
        let unseen = rest
            .strip_suffix(" unseen")
            .is_some_and(|n| n.parse::<u32>().is_ok());
        assert!(rest == "none" || unseen, "{line}");
    }
}

#[test]
fn a_castle_killed_on_the_other_players_line_writes_its_farewell_line_by_email() {
    let (seed, text, turn, side) = with_farewell(Layout::FourCastles);
    let root = tempfile::tempdir().unwrap();
    let ann = root.path().join("ann");
    let bob = root.path().join("bob");
    std::fs::create_dir_all(&ann).unwrap();
    std::fs::create_dir_all(&bob).unwrap();
    // Ann holds Castle1 and Castle3 (hand: Castle1's), Bob Castle2 and
    // Castle4 (hand: Castle2's).
    key_files(Layout::FourCastles, seed, &[&ann, &bob]);
    let name = CASTLES[usize::from(side.0) - 2];
    let k = usize::from(side.0) - 2;
    let (dir, holder) = if k % 2 == 0 {
        (&ann, "castle1.key")
    } else {
        (&bob, "castle2.key")
    };
    let own = format!("{}.key", name.to_lowercase());
    std::fs::write(dir.join("game.pbem"), cut_before(&text, turn)).unwrap();
    let mut keys = vec!["--key", own.as_str()];
    if own != holder {
        keys.extend(["--hand-key", holder]);
    }
    // `check` names the castle whose line is due: its farewell line.
    let status = json(dir, &["check", "game.pbem", "--format", "json"]);
    assert_eq!(status["due"], serde_json::json!([name]), "{status}");
    let mut legal = vec!["legal", "game.pbem"];
    legal.extend(&keys);
    let said = run(dir, &legal);
    assert!(
        said.contains(&format!("{name} was put out on turn {}", turn - 1))
            || said.contains(&format!("{name} was put out on turn")),
        "{said}"
    );
    assert!(said.contains("farewell line"), "{said}");
    // An action on it is refused, with the reason.
    let mut bad = vec!["move", "game.pbem", "shoot d1 n"];
    bad.extend(&keys);
    let out = herald(dir).args(&bad).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("this is its farewell line"), "{err}");
    let mut pass = vec!["move", "game.pbem", "pass"];
    pass.extend(&keys);
    run(dir, &pass);
    let record = std::fs::read_to_string(dir.join("game.pbem")).unwrap();
    assert!(
        record.contains(&format!("\n{turn}. {name}: pass\n")),
        "{record}"
    );
    assert!(!record.contains("cardsecret"));
    let checked = run(dir, &["check", "game.pbem"]);
    assert!(checked.contains("OK: Battlegates"), "{checked}");
    // The whole self-played game checks, and shows no hand's card
    // without a key.
    std::fs::write(dir.join("all.pbem"), &text).unwrap();
    let checked = run(dir, &["check", "all.pbem"]);
    assert!(checked.contains("OK: Battlegates"), "{checked}");
    assert_no_card_shown(&run(dir, &["show", "game.pbem"]));
}

#[test]
fn a_farewell_line_that_leaves_out_a_share_is_caught_naming_the_castle() {
    let (_, text, turn, side) = with_farewell(Layout::FourCastles);
    let name = CASTLES[usize::from(side.0) - 2];
    let head = format!("\n{turn}. {name}: pass\n");
    let at = text.find(&head).unwrap();
    let share = at + text[at..].find("\n    share ").expect("a farewell share");
    // The share item: its line and the lines of hex digits that
    // continue it.
    let mut end = share + 1 + text[share + 1..].find('\n').unwrap() + 1;
    while let Some(next) = text[end..].split('\n').next() {
        let hex = next.trim();
        if !next.starts_with("    ")
            || hex.is_empty()
            || !hex.bytes().all(|b| b.is_ascii_hexdigit())
        {
            break;
        }
        end += next.len() + 1;
    }
    let forged = format!("{}\n{}", &text[..share], &text[end..]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.pbem"), forged).unwrap();
    let out = herald(dir.path())
        .args(["check", "t.pbem"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{name} shares every card the others draw before its next line"
        )),
        "{err}"
    );
}

#[test]
fn alone_a_castle_put_out_leaves_with_its_card_secret_and_the_game_checks() {
    let text = (0..10)
        .map(|seed| hidden_game(Layout::FourCastlesSolo, seed, Play::Greedy, 400).unwrap())
        .find(|t| t.contains("\n    cardsecret\n"))
        .expect("a castle that leaves");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.pbem"), &text).unwrap();
    let checked = run(dir.path(), &["check", "g.pbem"]);
    assert!(checked.contains("OK: Battlegates"), "{checked}");
    assert_no_card_shown(&run(dir.path(), &["show", "g.pbem"]));
}
