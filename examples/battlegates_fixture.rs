//! Battlegates fixture records from greedy self-play, signed, with their
//! key files: how the Misery Run records under `fixtures/battlegates/`
//! (`misery-*.pbem` beside `.south.key` and `.north.key`) were made.
//!
//! ```text
//! cargo run --release --example battlegates_fixture scan PLAY SETUP FROM TO [MAX]
//! cargo run --release --example battlegates_fixture game PLAY SETUP SEED MAX STEM
//! cargo run --release --example battlegates_fixture alter PLAY SETUP SEED TURN FROM TO STEM
//! ```
//!
//! PLAY is `greedy` ([`Greedy`]) or `daring`: greedy play that, one time
//! in three, takes a run ending on Misery Run's deadly row when it has
//! one (greedy play keeps off it), so that characters die there when
//! turns end. `scan` plays seeds FROM to TO - 1 (at most MAX turns each, 600 unless
//! given) and prints each game's length and its Misery Run deaths: a
//! character carried onto the Run by the opponent's card, or standing on
//! it when a turn ended. `game` writes the game of SEED to `STEM.pbem`,
//! `STEM.south.key` and `STEM.north.key`. `alter` writes the same game
//! cut before turn TURN, then that turn's line with FROM replaced by TO in
//! its items (its reveal and the deck's shares kept, signed again with the
//! side's key): a line the rules may refuse, as `herald move` would never
//! write it.
//!
//! Every line is composed as `herald move` and `herald setup` compose a
//! player's (self-play, [`herald::selfplay`]), with the hands hidden (the
//! default) and each side's key derived from the seed: anyone can make
//! these keys again, so they are for fixtures only.

use herald::fairness::{self, SealedKind};
use herald::game::{action_text, Game, Side};
use herald::games::battlegates::layouts::Layout;
use herald::games::battlegates::selfplay::Greedy;
use herald::games::battlegates::{Action, Battlegates, State};
use herald::record::{self, Source};
use herald::referee::{self, Line, Referee};
use herald::selfplay::{record_with, secret, Options, Policy, SplitMix};
use herald::wallet::Wallet;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let done = match words.as_slice() {
        ["scan", play, setup, from, to, rest @ ..] => {
            how(play, setup).and_then(|how| scan(how, from, to, rest.first()))
        }
        ["game", play, setup, seed, max, stem] => {
            how(play, setup).and_then(|how| write_game(how, seed, max, stem))
        }
        ["alter", play, setup, seed, turn, from, to, stem] => {
            how(play, setup).and_then(|how| alter(how, seed, turn, from, to, stem))
        }
        _ => Err("usage: see the top of examples/battlegates_fixture.rs".into()),
    };
    if let Err(e) = done {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// How the games are played: the set-up, and whether daringly.
#[derive(Clone, Copy)]
struct How {
    layout: Layout,
    daring: bool,
}

/// The policy named `play` on the set-up named by the `Setup` word `tag`.
fn how(play: &str, tag: &str) -> Result<How, String> {
    let layout = Layout::from_tag(tag).ok_or_else(|| format!("no such set-up: {tag}"))?;
    let daring = match play {
        "greedy" => false,
        "daring" => true,
        _ => return Err(format!("no such play: {play} (greedy or daring)")),
    };
    Ok(How { layout, daring })
}

/// [`Greedy`] play, but one time in three a run that ends on the Run
/// (row 13) when there is one.
struct Daring;

impl Policy<Battlegates> for Daring {
    fn choose(
        &mut self,
        state: &State,
        legal: &[Action],
        can_end: bool,
        rng: &mut SplitMix,
    ) -> Option<usize> {
        let onto_run: Vec<usize> = (0..legal.len())
            .filter(|&i| matches!(legal[i], Action::Run(_)))
            .filter(|&i| {
                let text = action_text::<Battlegates>(&legal[i]);
                let last = text.rsplit('-').next().unwrap_or("");
                last.get(1..) == Some("13")
            })
            .collect();
        if !onto_run.is_empty() && rng.below(3) == 0 {
            return Some(onto_run[rng.below(onto_run.len())]);
        }
        Greedy.choose(state, legal, can_end, rng)
    }
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("not a number: {text}"))
}

/// The self-play options of a signed game on `layout`.
fn options(layout: Layout, seed: u64, max_turns: u32) -> Options {
    let mut options = Options::new::<Battlegates>(seed, 2);
    options.sides = layout.geometry().side_list();
    options.max_turns = max_turns;
    options.signatures = true;
    if layout != Layout::OneBoard {
        options.tags = vec![("Setup".into(), layout.tag().into())];
    }
    options
}

/// The signed self-play game of `seed`.
fn play(how: How, seed: u64, max_turns: u32) -> Result<String, String> {
    let options = options(how.layout, seed, max_turns);
    match how.daring {
        true => record_with::<Battlegates>(&options, &mut Daring),
        false => record_with::<Battlegates>(&options, &mut Greedy),
    }
}

/// Replay `text`, calling `each` with every turn's number, side and
/// comment; the referee after it.
fn replay(
    text: &str,
    mut each: impl FnMut(u32, Side, String),
) -> Result<Referee<Battlegates>, String> {
    let source = Source::new(text.as_bytes()).map_err(|e| format!("{e:?}"))?;
    let parsed = record::parse(&source).map_err(|e| e.message.clone())?;
    referee::replay::<Battlegates>(&parsed, |played, referee| {
        if let Some(before) = &played.before {
            let comment = Battlegates::turn_comment(before, referee.state());
            each(played.number, played.side, comment);
        }
    })
    .map_err(|e| e.message)
}

fn scan(how: How, from: &str, to: &str, max: Option<&&str>) -> Result<(), String> {
    let max = max.map_or(Ok(600), |m| number(m))?;
    for seed in number::<u64>(from)?..number(to)? {
        let text = play(how, seed, max)?;
        let (mut carried, mut ended) = (Vec::new(), Vec::new());
        let referee = replay(&text, |turn, _, comment| {
            if comment.contains("carried into the Misery Run") {
                carried.push(turn);
            }
            if comment.contains("the turn ended with") {
                ended.push(turn);
            }
        })?;
        println!(
            "seed {seed}: {} turns, {}; card-carry deaths on turns {carried:?}, \
             turn-end deaths on turns {ended:?}",
            referee.turns(),
            referee.summary()
        );
    }
    Ok(())
}

/// Each side's key file of the game `text` (self-play `seed`): its wallet
/// with the hidden values it chose, as the record opened them.
fn key_files(layout: Layout, seed: u64, text: &str) -> Result<Vec<(Side, String)>, String> {
    let referee = replay(text, |_, _, _| {})?;
    let options = options(layout, seed, 0);
    let mut tags = vec![("Game".to_owned(), Battlegates::ID.to_owned())];
    for &side in &options.sides {
        let name = side.name::<Battlegates>();
        tags.push((name.into(), format!("{}@example.org", name.to_lowercase())));
    }
    tags.extend(options.tags.iter().cloned());
    let chain = fairness::chain_id(tags.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let mut out = Vec::new();
    for &side in &options.sides {
        let name = side.name::<Battlegates>();
        let mut wallet = Wallet::from_secret(Battlegates::ID, name, chain, secret(seed, side));
        let tag = format!("[{name}Commit \"{}\"]", hex::encode(wallet.commit()));
        if !text.contains(&tag) {
            return Err(format!("{name}'s key does not match its Commit tag"));
        }
        for (slot, value) in referee.opened(side) {
            if let Some(value) = value {
                wallet.choose(slot, &value);
            }
        }
        out.push((side, wallet.to_text()));
    }
    Ok(out)
}

/// Write `STEM.pbem` (`text`) and a key file per side, with the hidden
/// values opened in `played` (`text`, or the part of it that checks).
fn write_files(
    layout: Layout,
    seed: u64,
    text: &str,
    played: &str,
    stem: &str,
) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{stem}: {e}");
    let keys = key_files(layout, seed, played)?;
    std::fs::write(format!("{stem}.pbem"), text).map_err(io)?;
    for (side, key) in keys {
        let name = side.name::<Battlegates>().to_lowercase();
        std::fs::write(format!("{stem}.{name}.key"), key).map_err(io)?;
    }
    Ok(())
}

fn write_game(how: How, seed: &str, max: &str, stem: &str) -> Result<(), String> {
    let seed = number(seed)?;
    let text = play(how, seed, number(max)?)?;
    write_files(how.layout, seed, &text, &text, stem)
}

fn alter(how: How, seed: &str, turn: &str, from: &str, to: &str, stem: &str) -> Result<(), String> {
    let layout = how.layout;
    let seed = number(seed)?;
    let turn: u32 = number(turn)?;
    let text = play(how, seed, turn)?;
    let head = format!("\n{turn}. ");
    let start = text
        .find(&head)
        .ok_or(format!("the game has no turn {turn}"))?
        + 1;
    let end = text[start..]
        .find("\n    sig ")
        .map(|at| start + at + 1)
        .ok_or("the turn has no signature")?;
    let result = text
        .lines()
        .find(|l| l.starts_with("[Result "))
        .ok_or("no Result tag")?;
    let before = text[..start].replace(result, "[Result \"*\"]");
    let (first, proofs) = text[start..end].split_once('\n').ok_or("a one-line turn")?;
    if !first.contains(from) {
        return Err(format!("turn {turn} does not hold `{from}`: {first}"));
    }
    let unsigned = format!("{}\n{proofs}", first.replacen(from, to, 1));
    let sig = seal(layout, seed, &before, &unsigned)?;
    let mut out = before.clone() + &unsigned;
    record::write_proof(&record::ProofKind::Sign(sig), &mut out);
    write_files(layout, seed, &out, &before, stem)
}

/// The signature of `line` (a turn's text without its `sig`) as the next
/// line of the record `before`, with the key of the side it names.
fn seal(layout: Layout, seed: u64, before: &str, line: &str) -> Result<[u8; 64], String> {
    let referee = replay(before, |_, _, _| {})?;
    let source = Source::typed(line);
    let (turns, _) = record::parse_lines(&source).map_err(|e| e.message.clone())?;
    let turn = turns.first().ok_or("no line")?;
    let line = Line::from_turn(turn);
    let side = referee.to_move().ok_or("nobody is to move")?;
    let (_, number) = referee.next_line();
    let bytes = fairness::line_bytes(
        SealedKind::Turn,
        number,
        side.name::<Battlegates>(),
        &line.sealed_text(None),
    );
    let digest = referee.digest().ok_or("the record keeps no digest")?;
    let message = fairness::seal_message(referee.header().game_id(), &bytes, digest);
    let keys = key_files(layout, seed, before)?;
    let (_, key) = keys
        .iter()
        .find(|(s, _)| *s == side)
        .ok_or("no key for the side to move")?;
    let wallet = Wallet::parse(key).map_err(|e| e.0)?;
    Ok(wallet.sign(&message))
}
