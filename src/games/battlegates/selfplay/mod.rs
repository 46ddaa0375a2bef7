//! Battlegates self-play: a greedy policy beside uniform random play, and
//! a survey of many games (how long they last, how characters die).
//! `cargo run --release --example battlegates_selfplay` prints one.
//!
//! The game's own self-play: it names the game's set-ups and pieces, so
//! it lives in the game's folder; `crate::selfplay` stays generic.

use crate::game::{Game, Side};
use crate::games::battlegates::board::{Edge, Loc};
use crate::games::battlegates::dice::{self, link, neighbours};
use crate::games::battlegates::layouts::Layout;
use crate::games::battlegates::maze::Piece;
use crate::games::battlegates::state::Board;
use crate::games::battlegates::{Action, Battlegates, State};
use crate::record::{self, Source};
use crate::referee;
use crate::selfplay::{record_with, Options, Policy, SplitMix, Uniform};

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
    played(&hidden_options(layout, seed, max_turns), play)
}

/// The self-play options of [`hidden_game`], for a caller that changes
/// them (a `Protocol` tag, the players' contacts) before [`played`].
pub fn hidden_options(layout: Layout, seed: u64, max_turns: u32) -> Options {
    let mut options = Options::new::<Battlegates>(seed, 2);
    options.sides = layout.geometry().side_list();
    options.max_turns = max_turns;
    options.tags = vec![("Hands".into(), "hidden".into())];
    if layout != Layout::OneBoard {
        options.tags.push(("Setup".into(), layout.tag().into()));
    }
    options
}

/// A Battlegates game self-played with `options` by `play`: its record.
pub fn played(options: &Options, play: Play) -> Result<String, String> {
    match play {
        Play::Uniform => record_with::<Battlegates>(options, &mut Uniform { stop_percent: 0 }),
        Play::Greedy => record_with::<Battlegates>(options, &mut Greedy),
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
