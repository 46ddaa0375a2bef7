//! Random self-play: whole records of legal games, made by choosing random
//! legal actions (legal by construction, through [`Game::legal_actions`]).
//! Used by the property tests and the benchmarks; deterministic for a seed.

use crate::fairness::Hash;
use crate::game::{action_text, Game, Phase, Side};
use crate::record::{self, LineKind};
use crate::referee::{result_text, ComposeError, Keys, Line, Preview, Referee};
use crate::wallet::Wallet;

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
    /// Give every side a Key tag too, and seal every line with its
    /// signature (spec section 3.8; needs `commitments`).
    pub signatures: bool,
    /// Chance of ending a turn after each action when that is legal
    /// (in percent).
    pub stop_percent: u32,
    /// A cheat, for tests of what the referee catches: given the text of
    /// each line as it was composed, the text to play instead (`None`:
    /// the line as composed). The lines after an altered one are
    /// composed on the game as it left it.
    pub alter: Option<Alter>,
    /// Each side's contact, in turn order (empty: `castle1@example.org`
    /// and so on, each side its own player): one address on two sides
    /// makes them one player's (Battlegates' `four-castles`).
    pub contacts: Vec<String>,
}

/// A line's text as composed, altered ([`Options::alter`]).
pub type Alter = fn(&str) -> Option<String>;

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
            signatures: false,
            stop_percent: 25,
            alter: None,
            contacts: Vec::new(),
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

/// The header tags of a self-play game (all but Result) and each side's
/// wallet (none without commitments), in turn order.
fn table<G: Game>(options: &Options) -> (Vec<(String, String)>, Vec<Option<Wallet>>) {
    let mut tags: Vec<(String, String)> = vec![("Game".into(), G::ID.into())];
    for (k, &side) in options.sides.iter().enumerate() {
        let name = side.name::<G>();
        let contact = options
            .contacts
            .get(k)
            .cloned()
            .unwrap_or_else(|| format!("{}@example.org", name.to_ascii_lowercase()));
        tags.push((name.into(), contact));
    }
    // A `Protocol` tag among the options: the wallets are that
    // protocol's (their chains bound to their signing keys).
    let protocol = options
        .tags
        .iter()
        .find(|(n, _)| n == crate::fairness::Protocol::TAG)
        .and_then(|(_, v)| crate::fairness::Protocol::from_tag(v))
        .unwrap_or_default();
    let mut plain = tags.clone();
    plain.extend(options.tags.iter().cloned());
    let chain = crate::fairness::chain_id(plain.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let wallets: Vec<Option<Wallet>> = options
        .sides
        .iter()
        .map(|&side| {
            options.commitments.then(|| {
                Wallet::for_protocol(
                    G::ID,
                    side.name::<G>(),
                    chain,
                    secret(options.seed, side),
                    protocol,
                )
            })
        })
        .collect();
    for (side, wallet) in options.sides.iter().zip(&wallets) {
        if let Some(wallet) = wallet {
            let name = side.name::<G>();
            tags.push((format!("{name}Commit"), hex::encode(wallet.commit())));
            if options.signatures {
                tags.push((format!("{name}Key"), hex::encode(wallet.public_key())));
            }
        }
    }
    tags.extend(options.tags.iter().cloned());
    (tags, wallets)
}

/// Every side's hidden choices, drawn with `rng` until they obey the
/// set-up rules ([`Game::audit`]), kept in its wallet. A game with hidden
/// values needs the wallets (commitments) for its salts.
fn choose_hidden<G: Game>(
    referee: &Referee<G>,
    options: &Options,
    mut wallets: Vec<Option<Wallet>>,
    rng: &mut SplitMix,
) -> Result<Vec<Option<Wallet>>, String> {
    for (&side, wallet) in options.sides.iter().zip(&mut wallets) {
        let slots = G::hidden_slots(referee.state(), side);
        if slots.is_empty() {
            continue;
        }
        let Some(wallet) = wallet else {
            return Err(format!(
                "{} has hidden values: self-play needs commitments (Options::commitments)",
                G::TITLE
            ));
        };
        // Random letters obey the rules most of the time (an army with one
        // of each kind); draw again until they do.
        for _ in 0..1000 {
            for choice in G::SETUP_CHOICES {
                let mut pick = |n: usize| rng.below(n.max(1));
                for (slot, value) in G::sample_choice(referee.state(), side, choice.name, &mut pick)
                {
                    wallet.choose(slot, &value);
                }
            }
            let values: Vec<(&str, &str)> = slots
                .iter()
                .filter_map(|&slot| wallet.chosen(slot).map(|v| (slot, v)))
                .collect();
            if G::audit(referee.state(), side, &values).is_ok() {
                break;
            }
        }
    }
    Ok(wallets)
}

/// How a self-play side chooses its actions, one at a time.
pub trait Policy<G: Game> {
    /// The index in `legal` (never empty) of the next action to make in
    /// `state`, or `None` to end the turn (only heeded when `can_end`,
    /// i.e. when ending the turn now is legal).
    fn choose(
        &mut self,
        state: &G::State,
        legal: &[G::Action],
        can_end: bool,
        rng: &mut SplitMix,
    ) -> Option<usize>;
}

/// Uniform random play: any legal action, each as likely as the others;
/// the turn ends, when that is legal, with a chance of `stop_percent`
/// before each action.
#[derive(Clone, Copy, Debug)]
pub struct Uniform {
    /// Chance of ending a turn when that is legal (in percent).
    pub stop_percent: u32,
}

impl<G: Game> Policy<G> for Uniform {
    fn choose(
        &mut self,
        _state: &G::State,
        legal: &[G::Action],
        can_end: bool,
        rng: &mut SplitMix,
    ) -> Option<usize> {
        if can_end && (rng.below(100) as u32) < self.stop_percent {
            return None;
        }
        Some(rng.below(legal.len()))
    }
}

/// Actions chosen by `policy` from `state` (the turn begun), until no
/// action is legal or the policy ends the turn.
fn choose_actions<G: Game>(
    mut state: G::State,
    rng: &mut SplitMix,
    policy: &mut dyn Policy<G>,
    number: u32,
) -> Result<Vec<String>, String> {
    let mut actions = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..64 {
        legal.clear();
        G::legal_actions(&state, &mut legal);
        let can_end = G::end_turn(&mut state.clone()).is_ok();
        if legal.is_empty() {
            break;
        }
        let Some(i) = policy.choose(&state, &legal, can_end, rng) else {
            if can_end {
                break;
            }
            return Err(format!(
                "turn {number}: the policy ended a turn that cannot end yet"
            ));
        };
        let Some(&action) = legal.get(i) else {
            return Err(format!("turn {number}: the policy chose no listed action"));
        };
        G::apply(&mut state, action).map_err(|e| {
            format!(
                "turn {number}: listed action {} refused: {e}",
                action_text::<G>(&action)
            )
        })?;
        actions.push(action_text::<G>(&action));
    }
    Ok(actions)
}

/// Play a random legal game of `G` and return its record text. Each line
/// is composed as a player's would be ([`Referee::compose`]), from the
/// actions chosen and the side's [`Wallet`]. The game stops when it ends,
/// after `max_turns`, or when a side's hash chain is used up (a record
/// with commitments holds at most [`CHAIN_LENGTH`] lines of a side). Fails
/// only when the engine breaks the [`Game::legal_actions`] contract (an
/// action it listed is refused, or a turn cannot be ended), saying where.
pub fn record<G: Game>(options: &Options) -> Result<String, String> {
    let mut uniform = Uniform {
        stop_percent: options.stop_percent,
    };
    record_with::<G>(options, &mut uniform)
}

/// [`record`] with the actions chosen by `policy` (for every side) instead
/// of uniformly at random; `options.stop_percent` is then unused.
pub fn record_with<G: Game>(
    options: &Options,
    policy: &mut dyn Policy<G>,
) -> Result<String, String> {
    let mut rng = SplitMix::new(options.seed);
    let (tags, wallets) = table::<G>(options);
    let mut header = String::new();
    record::write_header(
        tags.iter().map(|(n, v)| (n.as_str(), v.as_str())),
        "*",
        &mut header,
    );
    let source = record::Source::new(header.as_bytes()).expect("header text");
    let parsed = record::parse(&source).expect("header parses");
    // Options the game refuses (a number of sides its set-up does not
    // take) are an error, not a panic.
    let mut referee = Referee::<G>::start(&parsed).map_err(|e| e.message)?;
    let wallets = choose_hidden(&referee, options, wallets, &mut rng)?;
    let mut log = String::new();
    while referee.turns() < options.max_turns {
        let Some(side) = referee.to_move() else {
            break;
        };
        let wallet_of = |side: Side| {
            options
                .sides
                .iter()
                .position(|&s| s == side)
                .and_then(|i| wallets[i].as_ref())
        };
        let wallet = wallet_of(side);
        // A side that plays from another side's hand (spec section 3.9,
        // "Shared hands") writes the hand's items with the holder's key.
        let holder = G::hand_holder(referee.state(), side);
        let hand = (holder != side && referee.deck().is_some())
            .then(|| wallet_of(holder))
            .flatten();
        if matches!(referee.phase(), Phase::Setup | Phase::Audit) {
            // A set-up step or a closing line of openings: the referee
            // composes it all from the wallet.
            let (kind, number) = referee.next_line();
            let line = Line::of_actions(kind, number, side.name::<G>(), &[]);
            let text = compose_altered(&mut referee, line, (wallet, hand), options.alter)
                .map_err(|e| format!("{kind:?} line {number}: {e}"))?;
            log.push_str(&text);
            continue;
        }
        let number = referee.next_turn();
        let keys = match (wallet, hand) {
            (_, Some(_)) => Keys::given(wallet, hand),
            (Some(own), None) => Keys::as_shown(own),
            (None, None) => Keys::NONE,
        };
        let preview = referee.preview_for(keys);
        let actions = match preview {
            Ok(Preview::Actions { state, .. }) => {
                choose_actions::<G>(state, &mut rng, policy, number)?
            }
            // A chance event settled at the start of the turn ended the
            // game or put this side out, or the line is a farewell line:
            // it only passes.
            Ok(Preview::OnlyPass(_)) => Vec::new(),
            Ok(Preview::Unknown(why)) => return Err(format!("turn {number}: cannot start: {why}")),
            // The side's hash chain is used up: the game cannot go on in
            // this record, as `move` says.
            Err(ComposeError::Keys(_)) => break,
            Err(e) => return Err(format!("turn {number}: cannot start: {e:?}")),
        };
        let line = Line::of_actions(LineKind::Turn, number, side.name::<G>(), &actions);
        let text = compose_altered(&mut referee, line, (wallet, hand), options.alter)
            .map_err(|e| format!("turn {number}: {e}"))?;
        log.push_str(&text);
    }
    let mut text = String::new();
    referee
        .header()
        .write(&result_text::<G>(referee.outcome()), &mut text);
    text.push('\n');
    text.push_str(&log);
    Ok(text)
}

/// Compose `line` with the side's wallet (and its hand holder's, for a
/// side that plays from another's hand) and play it, or, where `alter`
/// changes its text, play the altered text instead. Returns the text
/// played.
fn compose_altered<G: Game>(
    referee: &mut Referee<G>,
    line: Line<'_>,
    (wallet, hand): (Option<&Wallet>, Option<&Wallet>),
    alter: Option<Alter>,
) -> Result<String, String> {
    let composed = |e: ComposeError| match e {
        ComposeError::Line(e) => e.message,
        other => format!("{other:?}"),
    };
    let keys = match (wallet, hand) {
        (Some(own), Some(hand)) => Keys::given(Some(own), Some(hand)),
        _ => Keys::given(wallet, None),
    };
    let compose = |referee: &mut Referee<G>| referee.compose(line, keys);
    let Some(alter) = alter else {
        return compose(referee).map(|p| p.line()).map_err(composed);
    };
    let mut honest = referee.clone();
    let text = compose(&mut honest).map_err(composed)?.line();
    let Some(altered) = alter(&text) else {
        *referee = honest;
        return Ok(text);
    };
    let source = record::Source::typed(&altered);
    let (turns, _) = record::parse_lines(&source).map_err(|e| e.message.clone())?;
    let turn = turns.first().ok_or("the altered line holds no line")?;
    referee
        .play(turn)
        .map_err(|e| format!("the altered line: {}", e.message))?;
    Ok(altered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fairness::CHAIN_LENGTH;
    use crate::game::{
        ActionParseError, Chance, DiagramStyle, Illegal, OptionTag, Outcome, PositionParseError,
        Setup, SetupError,
    };
    use crate::record::Source;

    /// Two sides that pass forever: a game that never ends by itself.
    #[derive(Debug)]
    struct Waiting;

    impl Game for Waiting {
        type State = u32;
        type Action = ();
        const ID: &'static str = "waiting";
        const TITLE: &'static str = "Waiting";
        const SIDES: &'static [&'static str] = &["A", "B"];
        const MIN_SIDES: usize = 2;
        const MAX_SIDES: usize = 2;
        const OPTIONS: &'static [OptionTag] = &[];

        fn new_game(_: &Setup<'_>) -> Result<u32, SetupError> {
            Ok(0)
        }
        fn to_move(turns: &u32) -> Side {
            Side((turns % 2) as u8)
        }
        fn outcome(_: &u32) -> Outcome {
            Outcome::Ongoing
        }
        fn begin_turn(_: &mut u32, _: &mut dyn Chance) -> Result<(), Illegal> {
            Ok(())
        }
        fn parse_action(_: &u32, text: &str) -> Result<(), ActionParseError> {
            Err(ActionParseError::new(0, text.len(), "no actions"))
        }
        fn apply(_: &mut u32, _: ()) -> Result<(), Illegal> {
            Ok(())
        }
        fn end_turn(turns: &mut u32) -> Result<(), Illegal> {
            *turns += 1;
            Ok(())
        }
        fn resign(_: &mut u32, _: Side) {}
        fn write_action(_: &(), _: &mut String) {}
        fn legal_actions(_: &u32, _: &mut Vec<()>) {}
        fn summary(_: &u32) -> String {
            String::new()
        }
        fn turn_comment(_: &u32, _: &u32) -> String {
            String::new()
        }
        fn diagram(_: &u32, _: DiagramStyle) -> String {
            String::new()
        }
        fn write_position(_: &u32, _: &mut String) {}
        fn parse_position(text: &str) -> Result<u32, PositionParseError> {
            Err(PositionParseError::within(
                text,
                0,
                text.len(),
                "a test game has no position notation",
            ))
        }
    }

    #[test]
    fn self_play_stops_when_a_hash_chain_is_used_up() {
        let mut options = Options::new::<Waiting>(7, 2);
        options.max_turns = 3 * CHAIN_LENGTH;
        let text = record::<Waiting>(&options).expect("self-play stops cleanly");
        // A side's chain holds CHAIN_LENGTH reveals: A and B write that many
        // lines each, and A's next line would need a reveal past the chain.
        let source = Source::new(text.as_bytes()).expect("a record");
        let parsed = crate::record::parse(&source).expect("it parses");
        assert_eq!(parsed.turns.len() as u32, 2 * CHAIN_LENGTH);
        let referee = crate::referee::replay::<Waiting>(&parsed, |_, _| {}).expect("it replays");
        assert_eq!(referee.to_move(), Some(Side(0)));
        assert_eq!(referee.lines_of(Side(0)), CHAIN_LENGTH);
    }
}
