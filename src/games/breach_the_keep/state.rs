//! The position: fixed-size arrays only, so that a clone is one copy.
//!
//! The fields of [`Cell`], [`Pos`] and [`State`] are private to the game's
//! folder: they keep invariants the rules maintain together (a cell's owner
//! is set exactly when it holds stacks, its locked stacks are among its
//! stacks, `points` counts the pieces, `start` is where the turn began).

use crate::game::Side;

use super::action::Move;
use super::board::{is_keep, NCELLS, NONE};

/// White (moves first).
pub const WHITE: Side = Side(0);
/// Black.
pub const BLACK: Side = Side(1);

/// What stands on one cell. An ordinary cell holds at most one stack (a
/// single or a double); a Keep holds up to three stacks of one side.
/// `ls`/`ld` count the singles/doubles among them that may not move again
/// this turn (they moved, entered the Keep or were made this turn).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cell {
    /// The side holding the cell, [`NONE`] when it is empty (one byte
    /// rather than an `Option<Side>`'s two: the turn search copies the
    /// board at every step). Read through [`Cell::owner`].
    owner: u8,
    /// Single stacks.
    pub(super) s: u8,
    /// Double stacks.
    pub(super) d: u8,
    /// Locked singles (subset of `s`).
    pub(super) ls: u8,
    /// Locked doubles (subset of `d`).
    pub(super) ld: u8,
}

impl Cell {
    /// An empty cell.
    pub const EMPTY: Cell = Cell {
        owner: NONE,
        s: 0,
        d: 0,
        ls: 0,
        ld: 0,
    };

    /// `s` singles and `d` doubles of `owner`, all locked (they moved or
    /// were made this turn).
    pub fn locked(owner: Side, s: u8, d: u8) -> Cell {
        Cell {
            owner: owner.0,
            s,
            d,
            ls: s,
            ld: d,
        }
    }

    /// The side holding the cell, `None` when it is empty.
    pub fn owner(&self) -> Option<Side> {
        (self.owner != NONE).then_some(Side(self.owner))
    }

    /// Let `side` hold the cell (as stacks of its own come in).
    pub fn set_owner(&mut self, side: Side) {
        self.owner = side.0;
    }

    /// True when nothing stands here.
    pub fn is_empty(&self) -> bool {
        self.s == 0 && self.d == 0
    }

    /// Number of stacks.
    pub fn stacks(&self) -> u8 {
        self.s + self.d
    }

    /// Points (a single is 2, a double 4).
    pub fn points(&self) -> u8 {
        2 * self.s + 4 * self.d
    }

    /// Points of `side` here.
    pub fn points_of(&self, side: Side) -> u8 {
        if self.owner == side.0 {
            self.points()
        } else {
            0
        }
    }

    /// Singles that may still move this turn.
    pub fn free_singles(&self) -> u8 {
        self.s - self.ls
    }

    /// Doubles that may still move (or split) this turn.
    pub fn free_doubles(&self) -> u8 {
        self.d - self.ld
    }

    /// The letters of the owner's single and double: `w`/`W` for White,
    /// `b`/`B` for Black (as the position notation and the diagram write
    /// them).
    pub fn stack_letters(&self) -> (char, char) {
        if self.owner == WHITE.0 {
            ('w', 'W')
        } else {
            ('b', 'B')
        }
    }

    /// Let nobody hold the cell once it is empty.
    pub fn tidy(&mut self) {
        if self.is_empty() {
            *self = Cell::EMPTY;
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WinReason {
    /// The winner breached the loser's home Keep.
    HomeBreach,
    /// The loser's pieces in play fell below what breaching the winner's
    /// home Keep needs.
    Points,
    /// The loser resigned.
    Resigned,
}

/// The position as the rules see it (also what the turn search copies).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pos {
    /// Each cell.
    pub(super) cells: [Cell; NCELLS],
    /// Pieces (all singles) in each side's end zone.
    pub(super) zone: [u8; 2],
    /// Points in play (board + end zone) of each side.
    pub(super) points: [u8; 2],
    /// Home Keep value of each side (1-6).
    pub(super) keep_value: [u8; 2],
    /// Side to move.
    pub(super) side: Side,
    /// Movement points used this turn (0, 2 or 4).
    pub(super) used: u8,
    /// Cells where a double was made this turn (bit per cell).
    pub(super) made: u128,
    /// The winner, `None` while the game goes on.
    pub(super) winner: Option<Side>,
    /// Why the game ended (meaningful once `winner` is set).
    pub(super) reason: WinReason,
}

impl Pos {
    /// The starting position: 14 pieces in each end zone.
    pub fn start(keep_value: [u8; 2]) -> Pos {
        Pos {
            cells: [Cell::EMPTY; NCELLS],
            zone: [14, 14],
            points: [28, 28],
            keep_value,
            side: WHITE,
            used: 0,
            made: 0,
            winner: None,
            reason: WinReason::Points,
        }
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.winner.is_some()
    }

    /// Points of `side` counted from scratch (board + end zone).
    pub fn count_points(&self, side: Side) -> u8 {
        let board: u32 = self
            .cells
            .iter()
            .map(|c| u32::from(c.points_of(side)))
            .sum();
        (board + 2 * u32::from(self.zone[usize::from(side)])) as u8
    }

    /// Recompute `points` (after setting a position up by hand).
    pub fn recount(&mut self) {
        self.points = [self.count_points(WHITE), self.count_points(BLACK)];
    }

    /// Unlock every piece: the turn is over.
    pub fn clear_turn(&mut self) {
        for c in self.cells.iter_mut() {
            c.ls = 0;
            c.ld = 0;
        }
        self.made = 0;
        self.used = 0;
    }

    /// The side holding Keep `k`, if any; `k` may be [`NONE`] for the
    /// board edge.
    pub fn holder(&self, k: u8) -> Option<Side> {
        if k == NONE {
            None
        } else {
            self.cells[k as usize].owner()
        }
    }

    /// Whether a double was made on `c` this turn.
    pub fn made_here(&self, c: u8) -> bool {
        self.made & (1u128 << c) != 0
    }

    /// Check the structural invariants (tests and debug builds).
    pub fn invariants_hold(&self) -> bool {
        self.cells.iter().enumerate().all(|(i, c)| {
            let k = is_keep(i as u8);
            let ok_count = if k { c.stacks() <= 3 } else { c.stacks() <= 1 };
            let ok_owner = c.owner().is_none() == c.is_empty() && c.owner().is_none_or(|o| o.0 < 2);
            ok_count && ok_owner && c.ls <= c.s && c.ld <= c.d
        }) && self.points == [self.count_points(WHITE), self.count_points(BLACK)]
    }
}

/// One move of the turn, for the turn comment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LoggedMove {
    /// The move.
    pub mv: Move,
    /// Pieces taken at its end (0, 1 or 2).
    pub took: u8,
    /// It made a double.
    pub doubled: bool,
    /// It entered a Keep.
    pub keep: bool,
}

/// What happened in the last turn (kept until the next turn starts).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TurnLog {
    /// The side whose turn it was.
    pub side: Side,
    /// Movement points used.
    pub used: u8,
    /// Moves made (at most two: each costs at least 2 of 4 points).
    pub moves: [Option<LoggedMove>; 2],
    /// Breaches: (Keep or `HOME`, points removed, stacks moved in, the
    /// singles moving in kept apart).
    pub breaches: [(u8, u8, u8, bool); 12],
    /// Number of breaches.
    pub nbreach: u8,
    /// The side resigned.
    pub resigned: bool,
    /// The turn (counted from 0) this log belongs to.
    pub turn: u32,
}

impl TurnLog {
    /// An empty log for `side`'s turn number `turn`.
    pub fn new(side: Side, turn: u32) -> TurnLog {
        TurnLog {
            turn,
            side,
            used: 0,
            moves: [None; 2],
            breaches: [(NONE, 0, 0, false); 12],
            nbreach: 0,
            resigned: false,
        }
    }
}

/// The whole game state.
#[derive(Clone, Debug)]
pub struct State {
    /// The position now.
    pub(super) pos: Pos,
    /// The position when the current turn started (for the rule "use as
    /// many movement points as a legal turn can"), once `start_kept`;
    /// read through [`State::turn_start`].
    start: Pos,
    /// Whether `start` holds the turn's start. Until the turn's first
    /// change of the position it is `pos` itself, and is not copied: a
    /// turn copies the position once, as its first action is made (and
    /// not at all when it passes).
    start_kept: bool,
    /// The current (or, after `end_turn`, the last) turn's events.
    pub(super) log: TurnLog,
    /// Turns finished so far.
    pub(super) turn: u32,
}

impl State {
    /// A state whose turn starts at `pos`.
    pub fn from_pos(pos: Pos) -> State {
        State {
            pos,
            start: pos,
            start_kept: false,
            log: TurnLog::new(pos.side, 0),
            turn: 0,
        }
    }

    /// The position when the current turn started.
    pub fn turn_start(&self) -> &Pos {
        if self.start_kept {
            &self.start
        } else {
            &self.pos
        }
    }

    /// A turn starts at the position as it stands.
    pub fn start_turn_here(&mut self) {
        self.start_kept = false;
    }

    /// Keep the turn's start before the position changes (the turn's
    /// first change copies it; later ones find it kept).
    pub fn keep_start(&mut self) {
        if !self.start_kept {
            self.start = self.pos;
            self.start_kept = true;
        }
    }
}
