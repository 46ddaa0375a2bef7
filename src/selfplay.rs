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
    for &side in &options.sides {
        let name = side.name::<G>();
        tags.push((
            name.into(),
            format!("{}@example.org", name.to_ascii_lowercase()),
        ));
    }
    let mut plain = tags.clone();
    plain.extend(options.tags.iter().cloned());
    let chain = crate::fairness::chain_id(plain.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    let wallets: Vec<Option<Wallet>> = options
        .sides
        .iter()
        .map(|&side| {
            options.commitments.then(|| {
                Wallet::from_secret(G::ID, side.name::<G>(), chain, secret(options.seed, side))
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

/// Battlegates self-play: a greedy policy beside uniform random play, and
/// a survey of many games (how long they last, how characters die).
/// `cargo run --release --example battlegates_selfplay` prints one.
pub mod battlegates {
    use super::{record_with, Options, Policy, SplitMix, Uniform};
    use crate::game::{Game, Side};
    use crate::games::battlegates::board::{Edge, Loc};
    use crate::games::battlegates::dice::{self, link, neighbours};
    use crate::games::battlegates::layouts::Layout;
    use crate::games::battlegates::maze::Piece;
    use crate::games::battlegates::state::Board;
    use crate::games::battlegates::{Action, Battlegates, State};
    use crate::record::{self, Source};
    use crate::referee;

    /// A distance for a character that no path reaches an enemy from.
    const FAR: u32 = 40;

    /// Greedy play: among the legal actions, one that kills the most
    /// enemies; failing that, one that leaves the fewest of the mover's
    /// characters on Misery Run's deadly row (none on other boards);
    /// failing that, one that brings the mover's characters closest to
    /// their nearest enemies (the sum, over the mover's characters, of
    /// the steps to the nearest enemy, walls in the way, gates not: they
    /// can be pushed); ties broken at random. Once the turn may end and
    /// no action kills, it ends.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Greedy;

    impl Policy<Battlegates> for Greedy {
        fn choose(
            &mut self,
            state: &State,
            legal: &[Action],
            can_end: bool,
            rng: &mut SplitMix,
        ) -> Option<usize> {
            let side = Battlegates::to_move(state);
            let enemies_now = enemies(state.board(), side);
            let mut best: Vec<usize> = Vec::new();
            let mut best_score = (usize::MAX, usize::MAX, u32::MAX);
            for (i, &action) in legal.iter().enumerate() {
                let Some(after) = board_after(state, action) else {
                    continue;
                };
                let score = (
                    enemies(&after, side),
                    on_run(&after, side),
                    closeness(&after, side),
                );
                if score < best_score {
                    best_score = score;
                    best.clear();
                }
                if score == best_score {
                    best.push(i);
                }
            }
            if can_end && best_score.0 >= enemies_now {
                return None;
            }
            if best.is_empty() {
                return Some(rng.below(legal.len()));
            }
            Some(best[rng.below(best.len())])
        }
    }

    /// The board after the legal `action`: worked out on the board alone
    /// where that is all the action changes (a run, a shot, a moved
    /// piece), which spares the search for the most spendable roll that
    /// [`Game::apply`] makes after a card action or a run.
    fn board_after(state: &State, action: Action) -> Option<Board> {
        let side = Battlegates::to_move(state);
        let mut board = *state.board();
        match action {
            Action::Run(path) => {
                let mut d = *state.dice();
                dice::run(&mut board, &mut d, side, &path).ok()?;
            }
            Action::Shoot(shot) => {
                dice::shoot(&mut board, side, shot, state.roll()?).ok()?;
            }
            Action::MoveWall(from, to) => {
                board.maze.remove(Piece::Wall(from));
                board.maze.add(Piece::Wall(to));
            }
            Action::MoveGate(from, to) => {
                board.maze.remove(Piece::Gate(from));
                board.maze.add(Piece::Gate(to));
            }
            Action::Discard(_) => {}
            Action::Scale(..) | Action::Climb(..) | Action::Rotate { .. } => {
                let mut after = state.clone();
                Battlegates::apply(&mut after, action).ok()?;
                board = *after.board();
            }
        }
        Some(board)
    }

    /// How many characters hostile to `side` are left (its opponent's;
    /// on Battle Alley every castle's but its team's).
    fn enemies(board: &Board, side: Side) -> usize {
        hostile(board, side).len()
    }

    /// Where the characters hostile to `side` stand.
    fn hostile(board: &Board, side: Side) -> Vec<Loc> {
        board
            .geo()
            .side_list()
            .into_iter()
            .filter(|&s| !board.friendly(s, side))
            .flat_map(|s| board.alive(s).map(|(_, l)| l).collect::<Vec<_>>())
            .collect()
    }

    /// How many of `side`'s characters stand on the board's Run (Misery
    /// Run's row 13: they die when the turn ends).
    fn on_run(board: &Board, side: Side) -> usize {
        let run = board.geo().run;
        board
            .alive(side)
            .filter(|(_, loc)| loc.sq().is_some_and(|sq| Some(sq.row) == run))
            .count()
    }

    /// The sum, over `side`'s characters, of the steps to the nearest
    /// enemy (a breadth-first search from every enemy at once; Brick
    /// walls block a step, gates do not).
    fn closeness(board: &Board, side: Side) -> u32 {
        let g = board.geo();
        // An index per location: the squares, then the Keeps by side.
        let index = |loc| g.loc_index(loc);
        let size = g.square_count() + crate::games::battlegates::state::MAX_SIDES;
        let mut dist = vec![FAR; size];
        let mut queue = std::collections::VecDeque::new();
        // A step never crosses the stone perimeter (a Keep is entered
        // through its entrance), so only the Brick walls block one.
        let walls: Vec<Edge> = board.maze.walls().collect();
        for loc in hostile(board, side) {
            dist[index(loc)] = 0;
            queue.push_back(loc);
        }
        while let Some(at) = queue.pop_front() {
            let d = dist[index(at)];
            for next in neighbours(g, at) {
                let blocked = link(g, at, next).is_none_or(|(edge, _)| walls.contains(&edge));
                if !blocked && dist[index(next)] > d + 1 {
                    dist[index(next)] = d + 1;
                    queue.push_back(next);
                }
            }
        }
        board.alive(side).map(|(_, loc)| dist[index(loc)]).sum()
    }

    /// How a character was killed.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Kill {
        /// A run stepped onto it (a ground attack).
        Ground,
        /// A run entered the Keep it stood in.
        Keep,
        /// An Archer's arrow.
        Arrow,
        /// A character crossing a Brick wall with the Scale card.
        Scale,
        /// A character crossing a gate with the Climb card.
        Climb,
        /// Misery Run: carried onto the Run by the opponent's card, or
        /// standing on it when a turn ended.
        Run,
        /// Anything else (none is expected).
        Other,
    }

    impl Kill {
        /// Every kind, in the order of [`Survey::kills`].
        pub const ALL: [Kill; 7] = [
            Kill::Ground,
            Kill::Keep,
            Kill::Arrow,
            Kill::Scale,
            Kill::Climb,
            Kill::Run,
            Kill::Other,
        ];

        /// Its name in a report.
        pub fn name(self) -> &'static str {
            match self {
                Kill::Ground => "ground",
                Kill::Keep => "Keep",
                Kill::Arrow => "arrow",
                Kill::Scale => "Scale",
                Kill::Climb => "Climb",
                Kill::Run => "Run",
                Kill::Other => "other",
            }
        }
    }

    /// The kills `action` makes in `state` (which it changes), by kind.
    fn kills(state: &mut State, action: Action, out: &mut [u32; 7]) {
        let before = *state.board();
        if Battlegates::apply(state, action).is_err() {
            return;
        }
        count_deaths(&before, state.board(), out, |was| match action {
            Action::Run(_) if matches!(was, Loc::Keep(_)) => Kill::Keep,
            Action::Run(_) => Kill::Ground,
            Action::Shoot(_) => Kill::Arrow,
            Action::Scale(..) => Kill::Scale,
            Action::Climb(..) => Kill::Climb,
            // Only Misery Run's Run kills by a card's gate turn.
            Action::Rotate { .. } => Kill::Run,
            _ => Kill::Other,
        });
    }

    /// The kills the end of the turn makes in `state` (Misery Run's Run).
    fn turn_end_kills(state: &mut State, out: &mut [u32; 7]) {
        let before = *state.board();
        if Battlegates::end_turn(state).is_ok() {
            count_deaths(&before, state.board(), out, |_| Kill::Run);
        }
    }

    /// Count, by `kind` of where it stood, each character alive on
    /// `before` and not on `after`.
    fn count_deaths(before: &Board, after: &Board, out: &mut [u32; 7], kind: impl Fn(Loc) -> Kill) {
        let sides = before.geo().side_list();
        for id in sides.into_iter().flat_map(|s| before.ids(s)) {
            if let (Some(was), None) = (before.loc(id), after.loc(id)) {
                let k = kind(was);
                out[Kill::ALL.iter().position(|&x| x == k).unwrap_or(6)] += 1;
            }
        }
    }

    /// The self-play policies surveyed.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Play {
        /// [`Uniform`] over the legal actions, never ending a turn early.
        Uniform,
        /// [`Greedy`].
        Greedy,
    }

    impl Play {
        /// Its name in a report.
        pub fn name(self) -> &'static str {
            match self {
                Play::Uniform => "uniform random",
                Play::Greedy => "greedy (kills, else closes in)",
            }
        }
    }

    /// What a number of self-play games came to.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Survey {
        /// Games played.
        pub games: u32,
        /// Games that ended (a side had no character left) within the
        /// turn limit.
        pub finished: u32,
        /// Turns of the finished games, all together.
        pub turns: u64,
        /// The longest finished game, in turns.
        pub longest: u32,
        /// Kills of every game, by kind, in the order of [`Kill::ALL`].
        pub kills: [u32; 7],
    }

    impl Survey {
        /// The mean length of a finished game, in turns.
        pub fn mean_turns(&self) -> f64 {
            if self.finished == 0 {
                return 0.0;
            }
            self.turns as f64 / f64::from(self.finished)
        }
    }

    /// One self-play record of Battlegates on `layout` (with commitments:
    /// the maze is a hidden set-up) for `seed`, by `play`, up to
    /// `max_turns` turns.
    pub fn game(layout: Layout, seed: u64, play: Play, max_turns: u32) -> Result<String, String> {
        let mut options = Options::new::<Battlegates>(seed, 2);
        options.sides = layout.geometry().side_list();
        options.max_turns = max_turns;
        if layout != Layout::OneBoard {
            options.tags = vec![("Setup".into(), layout.tag().into())];
        }
        match play {
            Play::Uniform => record_with::<Battlegates>(&options, &mut Uniform { stop_percent: 0 }),
            Play::Greedy => record_with::<Battlegates>(&options, &mut Greedy),
        }
    }

    /// [`game`] with hidden hands (`Hands "hidden"`): the shared deck of
    /// spec section 3.9, each hand drawn and played with its holder's key.
    pub fn hidden_game(
        layout: Layout,
        seed: u64,
        play: Play,
        max_turns: u32,
    ) -> Result<String, String> {
        let mut options = Options::new::<Battlegates>(seed, 2);
        options.sides = layout.geometry().side_list();
        options.max_turns = max_turns;
        options.tags = vec![("Hands".into(), "hidden".into())];
        if layout != Layout::OneBoard {
            options.tags.push(("Setup".into(), layout.tag().into()));
        }
        match play {
            Play::Uniform => record_with::<Battlegates>(&options, &mut Uniform { stop_percent: 0 }),
            Play::Greedy => record_with::<Battlegates>(&options, &mut Greedy),
        }
    }

    /// Play a game on `layout` for each seed in `seeds` by `play`, each
    /// up to `max_turns` turns, and count turns and kills (read back from
    /// each record, through the referee).
    pub fn survey(
        layout: Layout,
        seeds: std::ops::Range<u64>,
        play: Play,
        max_turns: u32,
    ) -> Result<Survey, String> {
        let mut out = Survey::default();
        for seed in seeds {
            let text = game(layout, seed, play, max_turns)?;
            tally(&text, &mut out).map_err(|e| format!("seed {seed}: {e}"))?;
        }
        Ok(out)
    }

    /// Add the game of the record `text` to `out`: its kills, and its
    /// length if it ended. Its length counts its turns of play: with
    /// hidden hands, the closing lines of openings after the end are
    /// lines, not turns.
    fn tally(text: &str, out: &mut Survey) -> Result<(), String> {
        let source = Source::new(text.as_bytes()).map_err(|e| format!("{e:?}"))?;
        let parsed = record::parse(&source).map_err(|e| format!("{e:?}"))?;
        let mut kills = [0u32; 7];
        let mut turns = 0u32;
        let referee = referee::replay::<Battlegates>(&parsed, |played, _| {
            if played.kind == record::LineKind::Turn && !played.audit {
                turns += 1;
            }
            // `replay` keeps every turn's position before it.
            if let Some(before) = &played.before {
                let mut state = State::clone(before);
                for &action in &played.actions {
                    self::kills(&mut state, action, &mut kills);
                }
                if !Battlegates::outcome(&state).is_over() {
                    turn_end_kills(&mut state, &mut kills);
                }
            }
        })
        .map_err(|e| e.message)?;
        out.games += 1;
        for (total, k) in out.kills.iter_mut().zip(kills) {
            *total += k;
        }
        if Battlegates::outcome(referee.state()).is_over() {
            out.finished += 1;
            out.turns += u64::from(turns);
            out.longest = out.longest.max(turns);
        }
        Ok(())
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::game::action_text;

        use crate::games::testkit::Fixed;

        /// South to move with the characters `chars`, no maze, a
        /// rotate90 in hand, its turn begun with a die of `face` (the
        /// value drawn 0 is face 1, 1 is face 2) and the card discarded.
        fn dice_phase(chars: &str, die: u32) -> State {
            let text = format!("{chars} - South r/-/- 0/0 *");
            let mut s = Battlegates::parse_position(&text).expect("a position");
            Battlegates::begin_turn(&mut s, &mut Fixed(vec![0, die])).expect("begin");
            let discard = Battlegates::parse_action(&s, "discard rotate90").expect("parses");
            Battlegates::apply(&mut s, discard).expect("legal");
            s
        }

        /// What greedy play chooses in `s`, as text.
        fn greedy_choice(s: &State) -> String {
            let mut legal = Vec::new();
            Battlegates::legal_actions(s, &mut legal);
            let can_end = Battlegates::end_turn(&mut s.clone()).is_ok();
            let i = Greedy
                .choose(s, &legal, can_end, &mut SplitMix::new(1))
                .expect("an action");
            action_text::<Battlegates>(&legal[i])
        }

        #[test]
        fn self_play_with_sides_the_set_up_does_not_take_is_an_error_not_a_panic() {
            // One board takes two sides; four need a four-castle set-up.
            let options = Options::new::<Battlegates>(1, 4);
            let refused = crate::selfplay::record::<Battlegates>(&options).unwrap_err();
            assert!(refused.contains("exactly two sides"), "{refused}");
        }

        #[test]
        fn greedy_play_kills_when_it_can() {
            // A roll of 2: the Crusader on d4 reaches North's on d6, and
            // running towards it without the kill is as close as it gets.
            let s = dice_phase("d4,x,x,x,x/d6,x,x,x,x", 1);
            assert_eq!(greedy_choice(&s), "d4-d5-d6");
            let mut counts = [0; 7];
            let run = Battlegates::parse_action(&s, "d4-d5-d6").expect("parses");
            kills(&mut s.clone(), run, &mut counts);
            assert_eq!(counts, [1, 0, 0, 0, 0, 0, 0], "one ground kill");
        }

        #[test]
        fn greedy_play_otherwise_closes_on_the_nearest_enemy() {
            // A roll of 1 from e4: e5 is one step nearer North's
            // Crusader on e9 than e4 (d4, f4 and e3 are further).
            let s = dice_phase("e4,x,x,x,x/e9,x,x,x,x", 0);
            assert_eq!(greedy_choice(&s), "e4-e5");
        }

        #[test]
        fn greedy_self_play_games_finish_with_every_kill_counted() {
            let survey = survey(Layout::OneBoard, 0..3, Play::Greedy, 200).expect("self-play");
            assert_eq!(survey.games, 3);
            assert_eq!(survey.finished, 3, "{survey:?}");
            // A game ends when a side has lost all five characters.
            assert!(survey.kills.iter().sum::<u32>() >= 15, "{survey:?}");
            assert_eq!(survey.kills[5], 0, "no Run on one board");
            assert_eq!(survey.kills[6], 0, "no kill of an unknown kind");
        }

        #[test]
        fn greedy_self_play_finishes_misery_run_games() {
            // Two games: some 40 s in a debug build on a busy two-core
            // machine (load 7).
            let mut survey = Survey::default();
            let mut plays = 0;
            for seed in 0..2 {
                let text = game(Layout::MiseryRun, seed, Play::Greedy, 600).expect("self-play");
                tally(&text, &mut survey).expect("a record");
                // Their length counts the turns of play, not the closing
                // lines of openings hidden hands (the default) add.
                let heads = text
                    .lines()
                    .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()));
                assert_eq!(heads.clone().filter(|l| l.ends_with(": audit")).count(), 2);
                plays += heads.filter(|l| !l.ends_with(": audit")).count() as u64;
            }
            assert_eq!(survey.finished, 2, "{survey:?}");
            assert_eq!(survey.turns, plays, "{survey:?}");
            // A side has ten characters: at least ten die in each game.
            assert!(survey.kills.iter().sum::<u32>() >= 20, "{survey:?}");
            assert_eq!(survey.kills[6], 0, "no kill of an unknown kind");
        }

        #[test]
        fn greedy_play_keeps_off_the_run_when_it_cannot_kill() {
            // Misery Run, a roll of 1: South's Crusader on e12 may step
            // north onto the Run (e13, nearer North's Crusader on e15) or
            // elsewhere; it keeps off the Run, where it would die.
            let text = "misery-run e12,x,x,x,x,x,x,x,x,x/e15,x,x,x,x,x,x,x,x,x - South r/-/- 0/0 *";
            let mut s = Battlegates::parse_position(text).expect("a position");
            Battlegates::begin_turn(&mut s, &mut Fixed(vec![0, 0])).expect("begin");
            let discard = Battlegates::parse_action(&s, "discard rotate90").expect("parses");
            Battlegates::apply(&mut s, discard).expect("legal");
            let legal = crate::games::testkit::Kit::<Battlegates>::legal(&s);
            assert!(legal.contains(&"e12-e13".to_string()), "{legal:?}");
            assert_ne!(greedy_choice(&s), "e12-e13");
        }
    }
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
