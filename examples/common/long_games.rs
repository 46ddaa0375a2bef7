//! Long self-played Battlegates games with hidden hands, signed, for
//! measuring how time a turn and memory grow with a game (issue 30,
//! `benches/RESULTS.md`). Shared by `benches/deck.rs` and the example
//! `battlegates_long` (`#[path]`): bench and example code, not the
//! engine's.

#![allow(dead_code)]

use herald::game::{Game, Side};
use herald::games::battlegates::{Action, Battlegates, State};
use herald::selfplay::{self, Policy, SplitMix};

/// The longest self-played Battlegates game with hidden hands of seeds 0
/// to 7 (uniform random play), signed, up to 5,000 turns: 844 turns
/// (seed search; none of the eight lasts longer).
pub fn longest_of_seeds() -> String {
    (0..8)
        .map(|seed| {
            let mut options = selfplay::Options::new::<Battlegates>(seed, 2);
            options.tags = vec![("Hands".into(), "hidden".into())];
            options.signatures = true;
            options.max_turns = 5000;
            selfplay::record::<Battlegates>(&options).unwrap()
        })
        .max_by_key(String::len)
        .unwrap()
}

/// A signed Battlegates game with hidden hands of `turns` turns played
/// by [`Peaceful`] (seed `seed`): nobody is killed, so the game goes on
/// until it is cut at `turns` (its Result `*`).
pub fn peaceful(seed: u64, turns: u32) -> String {
    let mut options = selfplay::Options::new::<Battlegates>(seed, 2);
    options.tags = vec![("Hands".into(), "hidden".into())];
    options.signatures = true;
    options.max_turns = turns;
    selfplay::record_with::<Battlegates>(&options, &mut Peaceful).unwrap()
}

/// Play that keeps a game going: among the legal actions, one (at
/// random) after which as many characters are alive as before; the
/// turn ends as soon as it may. Every card is still drawn, played or
/// discarded and every roll spent, as the rules demand: the deck goes
/// round and is reshuffled as in any game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Peaceful;

/// The characters alive on the board, both sides.
fn alive(state: &State) -> usize {
    let board = state.board();
    board.alive(Side(0)).count() + board.alive(Side(1)).count()
}

impl Policy<Battlegates> for Peaceful {
    fn choose(
        &mut self,
        state: &State,
        legal: &[Action],
        can_end: bool,
        rng: &mut SplitMix,
    ) -> Option<usize> {
        if can_end {
            return None;
        }
        let now = alive(state);
        let calm: Vec<usize> = (0..legal.len())
            .filter(|&i| {
                let mut after = state.clone();
                Battlegates::apply(&mut after, legal[i]).is_ok() && alive(&after) == now
            })
            .collect();
        if calm.is_empty() {
            return Some(rng.below(legal.len()));
        }
        Some(calm[rng.below(calm.len())])
    }
}

/// The record `text` cut after its set-up lines and first `n` turns,
/// and the number of its turns.
pub fn first_turns(text: &str, n: usize) -> (String, usize) {
    let mut turns = 0;
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let t = line.as_bytes();
        if t.first().is_some_and(u8::is_ascii_digit) {
            turns += 1;
            if turns > n {
                break;
            }
        }
        out.push_str(line);
    }
    (out, turns.min(n))
}
