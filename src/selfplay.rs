//! Random self-play: whole records of legal games, made by choosing random
//! legal actions (legal by construction, through [`Game::legal_actions`]).
//! Used by the property tests and the benchmarks; deterministic for a seed.

use std::borrow::Cow;

use crate::fairness::{chain_prefix, Hash};
use crate::game::{action_text, Game, Side};
use crate::record::{self, Item, ItemKind, Reveal, Span, Turn};
use crate::referee::Referee;

/// SplitMix64: a small, fast, deterministic generator for choosing moves
/// (not for anything that must be fair; that is [`crate::fairness`]).
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator for this seed.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0; slightly biased, fine for choosing moves).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// How to make a self-play game.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seed of the move choices and of the players' keys.
    pub seed: u64,
    /// Stop after this many turns even if the game goes on.
    pub max_turns: u32,
    /// The sides, in turn order (at least the game's minimum).
    pub sides: Vec<Side>,
    /// Extra header tags (options).
    pub tags: Vec<(String, String)>,
    /// Give every side a Commit tag and every line a reveal.
    pub commitments: bool,
    /// Chance of ending a turn after each action when that is legal
    /// (in percent).
    pub stop_percent: u32,
}

impl Options {
    /// The first `n` sides of game `G`, with commitments, up to 200 turns.
    pub fn new<G: Game>(seed: u64, n: usize) -> Self {
        Options {
            seed,
            max_turns: 200,
            sides: (0..n.clamp(G::MIN_SIDES, G::MAX_SIDES))
                .map(|i| Side(i as u8))
                .collect(),
            tags: Vec::new(),
            commitments: true,
            stop_percent: 25,
        }
    }
}

/// The key of a side in a self-play game: derived from the seed, so known
/// to anyone (never use it in a real game). Tests use it to write the key
/// file of a self-play side and play on from a self-play record.
pub fn secret(seed: u64, side: Side) -> Hash {
    let mut mix = SplitMix::new(seed ^ (u64::from(side.0) << 56) ^ 0x5EC2E7);
    let mut h = [0u8; 32];
    for chunk in h.chunks_mut(8) {
        chunk.copy_from_slice(&mix.next_u64().to_le_bytes());
    }
    h
}

/// Play a random legal game of `G` and return its record text. Fails
/// only when the engine breaks the [`Game::legal_actions`] contract (an
/// action it listed is refused, or a turn cannot be ended), saying where.
pub fn record<G: Game>(options: &Options) -> Result<String, String> {
    let mut rng = SplitMix::new(options.seed);
    let mut tags: Vec<(String, String)> = vec![("Game".into(), G::ID.into())];
    for &side in &options.sides {
        let name = side.name::<G>();
        tags.push((
            name.into(),
            format!("{}@example.org", name.to_ascii_lowercase()),
        ));
    }
    // Each side's chain values s_0 ..= s_max_turns, computed once.
    let mut plain = tags.clone();
    plain.extend(options.tags.iter().cloned());
    let chain = crate::fairness::chain_id(plain.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let chains: Vec<Vec<Hash>> = if options.commitments {
        options
            .sides
            .iter()
            .map(|&side| chain_prefix(&secret(options.seed, side), &chain, options.max_turns))
            .collect()
    } else {
        Vec::new()
    };
    for (side, chain) in options.sides.iter().zip(&chains) {
        tags.push((format!("{}Commit", side.name::<G>()), hex::encode(chain[0])));
    }
    tags.extend(options.tags.iter().cloned());
    tags.push(("Result".into(), "*".into()));
    let mut header = String::new();
    record::write_header(
        tags.iter().map(|(n, v)| (n.as_str(), v.as_str())),
        &mut header,
    );
    let source = record::Source::new(header.as_bytes()).expect("header text");
    let parsed = record::parse(&source).expect("header parses");
    let mut referee = Referee::<G>::start(&parsed).expect("self-play header is valid");

    let mut log = String::new();
    let mut legal = Vec::new();
    while referee.turns < options.max_turns && !G::outcome(&referee.state).is_over() {
        let side = G::to_move(&referee.state);
        let reveal = options
            .sides
            .iter()
            .position(|&s| s == side)
            .and_then(|i| chains.get(i))
            .map(|chain| chain[referee.lines_of(side) as usize + 1]);
        let number = referee.next_turn();
        let (mut state, _) = referee
            .start_turn(reveal)
            .map_err(|e| format!("turn {number}: cannot start: {e}"))?;
        let mut actions = Vec::new();
        for _ in 0..64 {
            // A chance event settled at the start of the turn may have
            // ended the game or put this side out: its line only passes.
            if crate::referee::line_only_passes::<G>(&state, side) {
                break;
            }
            legal.clear();
            G::legal_actions(&state, &mut legal);
            let can_end = G::end_turn(&mut state.clone()).is_ok();
            if legal.is_empty() || (can_end && (rng.below(100) as u32) < options.stop_percent) {
                break;
            }
            let action = legal[rng.below(legal.len())];
            G::apply(&mut state, action).map_err(|e| {
                format!(
                    "turn {number}: listed action {} refused: {e}",
                    action_text::<G>(&action)
                )
            })?;
            actions.push(action_text::<G>(&action));
        }
        let items: Vec<Item<'_>> = actions
            .iter()
            .map(|a| Item {
                text: Cow::Borrowed(a.as_str()),
                span: Span::default(),
                kind: ItemKind::Action,
            })
            .collect();
        let turn = Turn {
            number,
            number_span: Span::default(),
            side: side.name::<G>(),
            side_span: Span::default(),
            pass: items.is_empty().then(Span::default),
            items,
            resign: None,
            reveal: reveal.map(|value| Reveal {
                value,
                span: Span::default(),
            }),
            span: Span::default(),
            lines_end: 0,
        };
        let played = referee
            .play(&turn)
            .map_err(|e| format!("turn {number}: {}", e.message))?;
        record::write_turn(&played.text(reveal), &mut log);
    }
    let result = crate::referee::result_text::<G>(G::outcome(&referee.state));
    let mut text = String::new();
    record::write_header(
        tags.iter().map(|(n, v)| {
            if n == "Result" {
                (n.as_str(), result.as_str())
            } else {
                (n.as_str(), v.as_str())
            }
        }),
        &mut text,
    );
    text.push('\n');
    text.push_str(&log);
    Ok(text)
}
