//! Writes the seed corpora under `fuzz/seeds/<target>/`: records made by
//! self-play (short and long, with and without commitments, one quoted in
//! an email with CRLF, one cut off mid-line), any `fixtures/<game>/*.pbem`,
//! and the distinct action texts of the self-play games.
//!
//! `cargo run --release --example seeds` (in `fuzz/`).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use herald::game::{position_text, Game, Side};
use herald::games::battlegates::Battlegates;
use herald::games::GAMES;
use herald::record::{self, ItemKind, Source};
use herald::selfplay::{self, Options};

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    fs::create_dir_all(dir).expect("seed dir");
    fs::write(dir.join(name), bytes).expect("seed file");
}

/// Where seeds of one parser of one game go: a run kept to that game
/// (`HERALD_FUZZ_GAME`, seeds `action_castle_danger`), or a run of every game (`action`,
/// `position`) whose inputs begin with the byte that picks the game (its
/// index in `GAMES`), named after the game.
struct Seeds {
    dir: PathBuf,
    every_game: Option<(u8, &'static str)>,
}

impl Seeds {
    fn own(seeds: &Path, target: &str) -> Seeds {
        Seeds {
            dir: seeds.join(target),
            every_game: None,
        }
    }

    fn every_game<G: Game>(seeds: &Path, target: &str) -> Seeds {
        let pick = GAMES
            .iter()
            .position(|g| g.id == G::ID)
            .expect("a registered game");
        Seeds {
            dir: seeds.join(target),
            every_game: Some((u8::try_from(pick).expect("under 256 games"), G::ID)),
        }
    }

    fn write(&self, name: &str, text: &[u8]) {
        match self.every_game {
            None => write(&self.dir, name, text),
            Some((pick, id)) => {
                let bytes: Vec<u8> = [pick].iter().chain(text).copied().collect();
                write(&self.dir, &format!("{id}-{name}"), &bytes);
            }
        }
    }
}

/// Self-play records of `G` for the record and check targets.
fn records<G: Game>() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (seed, max_turns, commitments, sides) in [
        (1, 4, false, G::MIN_SIDES),
        (2, 30, false, G::MIN_SIDES),
        (3, 30, true, G::MIN_SIDES),
        (4, 300, true, G::MAX_SIDES),
        (5, 300, false, G::MIN_SIDES),
    ] {
        let mut options = Options::new::<G>(seed, sides);
        options.max_turns = max_turns;
        options.commitments = commitments;
        // A game that needs commitments fails without them: skip that one.
        let Ok(text) = selfplay::record::<G>(&options) else {
            continue;
        };
        let c = if commitments { "commit" } else { "plain" };
        out.push((format!("{}-{seed}-{max_turns}-{c}.pbem", G::ID), text));
    }
    let (_, short) = out
        .iter()
        .find(|(name, _)| name.contains("-30-"))
        .expect("a 30-turn self-play game")
        .clone();
    let quoted: String = short.lines().map(|l| format!("> {l}\r\n")).collect();
    out.push((
        format!("{}-quoted.eml", G::ID),
        format!("Hi,\r\n\r\nmy move:\r\n\r\n{quoted}\r\nCheers\r\n"),
    ));
    let cut = short.len() * 2 / 3;
    let cut = (cut..short.len())
        .find(|&i| short.is_char_boundary(i))
        .unwrap_or(0);
    out.push((format!("{}-cut.pbem", G::ID), short[..cut].to_owned()));
    out
}

/// The distinct action texts of the records, plus a few variants.
fn actions(records: &[(String, String)]) -> BTreeSet<String> {
    let mut texts = BTreeSet::new();
    for (_, text) in records {
        let Ok(source) = Source::new(text.as_bytes()) else {
            continue;
        };
        let Ok(parsed) = record::parse(&source) else {
            continue;
        };
        for turn in &parsed.turns {
            for item in &turn.items {
                if item.kind == ItemKind::Action {
                    texts.insert(item.text.to_string());
                }
            }
        }
    }
    let variants: Vec<String> = texts
        .iter()
        .take(40)
        .flat_map(|t| {
            [
                t.to_ascii_lowercase(),
                t.replace('-', " - "),
                t[1..].to_owned(),
            ]
        })
        .collect();
    texts.extend(variants);
    texts
}

/// Written forms from each game's notation that self-play does not make,
/// by game id (optional: a game without a line here gets its self-play
/// texts only).
const EXTRA: &[(&str, &[&str])] = &[
    (
        "castle-danger",
        &[
            "+W",
            "+C",
            "Kc1-b1-b2",
            "Bc2xc3",
            "Bc2+c3",
            "Cd3*d7",
            "kc1 - c2",
        ],
    ),
    (
        "breach-the-keep",
        &[
            "Z-a1",
            "d3:2-d4-d5",
            "breach home+c3",
            "breach d7 + e7 + f7",
            "a1 - a2",
            "d2-c3 apart",
            "breach c3 +d2 +b4 APART",
        ],
    ),
    (
        "battle-of-the-dale",
        &[
            "R@B1",
            "rally Elf @C2",
            "offer-exchange Elf",
            "force D3-C2",
            "chip - fog",
        ],
    ),
    (
        "playground-battles",
        &[
            "c1-c2-c3",
            "c1-c5",
            "d6-d7-d8-base",
            "c2-c3 P>a1",
            "c2-c3 S>out",
            "C1 - c2 - BASE",
        ],
    ),
    (
        "battlegates",
        &[
            "discard move-wall",
            "scale c4-c5",
            "climb c1 - K",
            "move-wall Wd5s Wf6e",
            "move-gate Ld4nw Le4ne",
            "rotate180 Gd5sw CCW",
            "c1-K-g1",
            "shoot K c1",
            "shoot d4 n",
        ],
    ),
];

fn main() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds = fuzz.join("seeds");
    // The mail target: every message and mailbox of fixtures/mail/.
    let mail = seeds.join("mail");
    std::fs::create_dir_all(&mail).expect("seeds/mail");
    for entry in std::fs::read_dir(fuzz.join("../fixtures/mail")).expect("fixtures/mail") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "eml" || e == "mbox") {
            let name = path.file_name().expect("file name");
            std::fs::copy(&path, mail.join(name)).expect("copy a seed");
        }
    }
    // Every game of the registry: its records, and its action texts for
    // the `action` target, and for a run kept to it (`action_<module>`).
    macro_rules! each {
        ($($module:ident: $game:ty),*) => {
            $(game::<$game>(&seeds, stringify!($module));)*
        };
    }
    herald::for_each_game!(each);
    position_seeds::<Battlegates>(&Seeds::own(&seeds, "position_battlegates"));
    // The `position` target: the positions of every game.
    macro_rules! positions {
        ($($module:ident: $game:ty),*) => {
            $(position_seeds::<$game>(&Seeds::every_game::<$game>(&seeds, "position"));)*
        };
    }
    herald::for_each_game!(positions);
    maze_seeds(&seeds);
}

/// Positions of `G` for its position target: the start, and the positions
/// after some lines of two self-play games (the set-up among them).
fn position_seeds<G: Game>(dir: &Seeds) {
    for seed in [21, 22] {
        let mut options = Options::new::<G>(seed, G::MIN_SIDES);
        options.max_turns = 60;
        let text = selfplay::record::<G>(&options).expect("self-play");
        let source = Source::new(text.as_bytes()).expect("a record");
        let parsed = record::parse(&source).expect("it parses");
        let start = herald::referee::Referee::<G>::start(&parsed).expect("a header");
        dir.write("start", position_text::<G>(start.state()).as_bytes());
        let mut n = 0;
        herald::referee::replay::<G>(&parsed, |played, referee| {
            if played.number % 9 == 4 || n == 0 || referee.outcome().is_over() {
                let name = format!("{seed}-{n:03}");
                dir.write(&name, position_text::<G>(referee.state()).as_bytes());
            }
            n += 1;
        })
        .expect("it replays");
    }
}

/// Battlegates' maze set-up texts: random legal mazes of both sides, in
/// canonical order, shuffled with commas and a comment, and one broken.
fn maze_seeds(seeds: &Path) {
    let dir = seeds.join("maze_battlegates");
    let state = herald::games::battlegates::State::start();
    let mut rng = selfplay::SplitMix::new(5);
    for (i, side) in [Side(0), Side(1), Side(0), Side(1)].into_iter().enumerate() {
        let mut pick = |n: usize| rng.below(n.max(1));
        let values = Battlegates::sample_choice(&state, side, "maze", &mut pick);
        let pieces: Vec<&str> = values.iter().map(|(_, v)| v.as_str()).collect();
        let text = match i {
            0 | 1 => pieces.join(" "),
            2 => format!("# South's maze\n{}\n", pieces.join(",\n")),
            _ => pieces.iter().rev().copied().collect::<Vec<_>>().join(", "),
        };
        write(&dir, &format!("{i:03}"), text.as_bytes());
    }
    write(&dir, "odd", b"Wd4n Wc1s Gc1sw Ld4nw Lx9nw G");
}

/// The seeds of game `G`: its records (self-play and up to 6 fixtures) for
/// the record and check targets, its action texts for the `action`
/// target and for a run of it kept to the game (`action_<module>`,
/// `module` its folder).
fn game<G: Game>(seeds: &Path, module: &str) {
    let made = records::<G>();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(G::ID);
    let mut fixture_files: Vec<PathBuf> = fs::read_dir(&fixtures)
        .into_iter()
        .flatten()
        .flatten()
        .map(|f| f.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pbem"))
        .collect();
    fixture_files.sort();
    let step = (fixture_files.len() / 6).max(1);
    for target in ["record", "check"] {
        let dir = seeds.join(target);
        for (name, text) in &made {
            write(&dir, name, text.as_bytes());
        }
        for path in fixture_files.iter().step_by(step) {
            let name = format!(
                "{}-fixture-{}",
                G::ID,
                path.file_name().unwrap().to_string_lossy()
            );
            write(&dir, &name, &fs::read(path).expect("fixture"));
        }
    }
    let extra = EXTRA
        .iter()
        .find(|(id, _)| *id == G::ID)
        .map_or(&[][..], |(_, extra)| extra);
    action_seeds(
        &Seeds::own(seeds, &format!("action_{module}")),
        &made,
        extra,
    );
    action_seeds(&Seeds::every_game::<G>(seeds, "action"), &made, extra);
}

/// The action texts of `records` (about 60) and `extra` (written forms
/// from the game's notation that self-play does not make).
fn action_seeds(dir: &Seeds, records: &[(String, String)], extra: &[&str]) {
    let all: Vec<String> = actions(records).into_iter().collect();
    let step = (all.len() / 60).max(1);
    for (i, text) in all.iter().step_by(step).enumerate() {
        dir.write(&format!("{i:03}"), text.as_bytes());
    }
    for (i, text) in extra.iter().enumerate() {
        dir.write(&format!("extra-{i:02}"), text.as_bytes());
    }
}
