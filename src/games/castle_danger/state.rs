//! The position: the board, whose turn it is, what is left of the turn,
//! and a short log of the turn for the turn comment.

use crate::game::{Outcome, Side};

use super::board::{Sq, BLUE, RED, SQUARES};

/// A movable piece type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// The King: lose it to a cannonball and the game is lost.
    King,
    /// A Wizard: 3 more moves a turn.
    Wizard,
    /// A Builder: builds and removes Walls.
    Builder,
    /// A Cannon: fires cannonballs.
    Cannon,
}

impl Kind {
    /// The canonical (Blue, upper-case) letter.
    pub fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Wizard => 'W',
            Kind::Builder => 'B',
            Kind::Cannon => 'C',
        }
    }

    /// The piece's name, e.g. `Builder`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "King",
            Kind::Wizard => "Wizard",
            Kind::Builder => "Builder",
            Kind::Cannon => "Cannon",
        }
    }

    /// The kind with this letter (either case).
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'K' => Some(Kind::King),
            'W' => Some(Kind::Wizard),
            'B' => Some(Kind::Builder),
            'C' => Some(Kind::Cannon),
            _ => None,
        }
    }
}

/// A piece on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    /// Its owner.
    pub side: Side,
    /// What it is.
    pub kind: Kind,
    /// A Cannon that has fired since its owner's turn began.
    pub fired: bool,
}

/// What stands on a square (at most one thing does).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A Wall (neutral).
    Wall,
    /// Fire left by this side's cannonball.
    Fire(Side),
    /// A piece.
    Piece(Piece),
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// Still going.
    None,
    /// The King of `side` was hit on `at`.
    KingHit {
        /// Whose King.
        side: Side,
        /// Where.
        at: Sq,
    },
    /// `side` resigned.
    Resigned(Side),
}

/// Something worth a word in the turn comment.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// A piece was added at the Portal.
    Added(Kind, Sq),
    /// A Builder built a Wall.
    Built(Sq),
    /// A Builder removed a Wall.
    Removed(Sq),
    /// A cannonball landed on `at`, where `hit` stood.
    Shot {
        /// The landing square.
        at: Sq,
        /// What stood there before.
        hit: Cell,
    },
}

/// How many events a turn log keeps; further ones are only counted.
pub const LOG_LEN: usize = 12;

/// The notable events of the current (or just finished) turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Log {
    pub(super) events: [Event; LOG_LEN],
    pub(super) len: u8,
    pub(super) more: u16,
}

impl Log {
    /// An empty log.
    pub const fn new() -> Log {
        Log {
            events: [Event::Built(Sq(0)); LOG_LEN],
            len: 0,
            more: 0,
        }
    }

    /// Record an event.
    pub fn push(&mut self, e: Event) {
        if usize::from(self.len) < LOG_LEN {
            self.events[usize::from(self.len)] = e;
            self.len += 1;
        } else {
            self.more = self.more.saturating_add(1);
        }
    }

    /// The kept events.
    pub fn events(&self) -> &[Event] {
        &self.events[..usize::from(self.len)]
    }

    /// How many events were not kept.
    pub fn more(&self) -> u16 {
        self.more
    }
}

impl Default for Log {
    fn default() -> Log {
        Log::new()
    }
}

/// The bookkeeping of the current turn. It is kept after the turn ends,
/// until the next turn begins, so a finished turn can be commented on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Turn {
    /// Moves the turn started with (3 + 3 x Wizards).
    pub moves_total: u8,
    /// Moves not spent yet.
    pub moves_left: u8,
    /// Wizards on the board when the turn began.
    pub wizards: u8,
    /// True once an action has been made this turn.
    pub acted: bool,
    /// True when the mover's Portal was empty at the start of the turn.
    pub portal_was_empty: bool,
    /// What happened.
    pub log: Log,
}

/// A Castle Danger position.
///
/// Beside the squares it keeps, square sets (bit `sq.0`) and counts of
/// what stands on them, so that a turn's start and a path's search need
/// no scan of the board; [`State::set`] is the only way to change a
/// square, and keeps them in step.
#[derive(Clone, Debug)]
pub struct State {
    cells: [Cell; SQUARES],
    /// Squares where something stands.
    occupied: u64,
    /// Squares of each side's Fire.
    fire: [u64; 2],
    /// Squares of pieces marked as having fired.
    fired: u64,
    /// Each side's Wizards on the board.
    wizards: [u8; 2],
    /// Each side's movable pieces on the board.
    movable: [u8; 2],
    pub(super) to_move: Side,
    pub(super) outcome: Outcome,
    pub(super) end: End,
    pub(super) turn: Turn,
    /// True between the start of a turn and its end.
    pub(super) active: bool,
}

impl State {
    /// An empty board, Blue to move, with no turn begun.
    pub fn empty() -> State {
        State {
            cells: [Cell::Empty; SQUARES],
            occupied: 0,
            fire: [0; 2],
            fired: 0,
            wizards: [0; 2],
            movable: [0; 2],
            to_move: BLUE,
            outcome: Outcome::Ongoing,
            end: End::None,
            turn: Turn {
                moves_total: 0,
                moves_left: 0,
                wizards: 0,
                acted: false,
                portal_was_empty: false,
                log: Log::new(),
            },
            active: false,
        }
    }

    /// The starting position (spec section 6), with Blue's first turn begun.
    pub fn start() -> State {
        let mut s = State::empty();
        for (side, back, front) in [(BLUE, 0, 1), (RED, 8, 7)] {
            s.put(Sq::new(2, back), side, Kind::King);
            s.put(Sq::new(4, back), side, Kind::Wizard);
            s.set(Sq::new(2, front), Cell::Wall);
            s.set(Sq::new(4, front), Cell::Wall);
        }
        super::rules::start_turn(&mut s);
        s
    }

    /// Put an unfired piece of `side` on `sq`.
    pub fn put(&mut self, sq: Sq, side: Side, kind: Kind) {
        self.set(
            sq,
            Cell::Piece(Piece {
                side,
                kind,
                fired: false,
            }),
        );
    }

    /// Make `cell` stand on `sq`, in place of what stood there.
    pub fn set(&mut self, sq: Sq, cell: Cell) {
        let old = self.cells[sq.idx()];
        self.tally(sq, old, Tally::Remove);
        self.cells[sq.idx()] = cell;
        self.tally(sq, cell, Tally::Add);
    }

    /// Move what stands on `from` to `to`, leaving `from` empty: the same
    /// as setting `from` empty and then `to` to what stood on `from`, with
    /// the square sets and counts moved along instead of counted out and
    /// in again when `to` is empty.
    pub fn shift(&mut self, from: Sq, to: Sq) {
        let cell = self.cells[from.idx()];
        if from == to || self.cells[to.idx()] != Cell::Empty {
            self.set(from, Cell::Empty);
            self.set(to, cell);
            return;
        }
        self.cells[from.idx()] = Cell::Empty;
        self.cells[to.idx()] = cell;
        let both = (1u64 << from.0) | (1u64 << to.0);
        match cell {
            Cell::Empty => return,
            Cell::Wall => {}
            Cell::Fire(side) => self.fire[usize::from(side)] ^= both,
            Cell::Piece(p) => {
                if p.fired {
                    self.fired ^= both;
                }
            }
        }
        self.occupied ^= both;
    }

    /// Count `cell` on `sq` in or out of the square sets and counts.
    fn tally(&mut self, sq: Sq, cell: Cell, how: Tally) {
        let bit = 1u64 << sq.0;
        let count = |n: &mut u8| {
            *n = match how {
                Tally::Add => n.saturating_add(1),
                Tally::Remove => n.saturating_sub(1),
            }
        };
        let mark = |set: &mut u64| match how {
            Tally::Add => *set |= bit,
            Tally::Remove => *set &= !bit,
        };
        match cell {
            Cell::Empty => return,
            Cell::Wall => {}
            Cell::Fire(side) => mark(&mut self.fire[usize::from(side)]),
            Cell::Piece(p) => {
                count(&mut self.movable[usize::from(p.side)]);
                if p.kind == Kind::Wizard {
                    count(&mut self.wizards[usize::from(p.side)]);
                }
                if p.fired {
                    mark(&mut self.fired);
                }
            }
        }
        mark(&mut self.occupied);
    }

    /// What stands on `sq`.
    pub fn cell(&self, sq: Sq) -> Cell {
        self.cells[sq.idx()]
    }

    /// What stands on every square, `a1` to `g9`.
    pub fn cells(&self) -> &[Cell; SQUARES] {
        &self.cells
    }

    /// The squares where something stands (bit `sq.0` for `sq`).
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// The squares of `side`'s Fire.
    pub fn fire(&self, side: Side) -> u64 {
        self.fire[usize::from(side)]
    }

    /// The squares of pieces (of either side) marked as having fired.
    pub fn fired(&self) -> u64 {
        self.fired
    }

    /// Number of `side`'s Wizards on the board.
    pub fn wizards(&self, side: Side) -> u8 {
        self.wizards[usize::from(side)]
    }

    /// The piece of the side to move on `sq`, if any.
    pub fn own_piece(&self, sq: Sq) -> Option<Piece> {
        match self.cell(sq) {
            Cell::Piece(p) if p.side == self.to_move => Some(p),
            _ => None,
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The turn bookkeeping.
    pub fn turn(&self) -> &Turn {
        &self.turn
    }

    /// How the game ended.
    pub fn end(&self) -> End {
        self.end
    }

    /// Number of `side`'s pieces of `kind` on the board.
    pub fn count(&self, side: Side, kind: Kind) -> u8 {
        self.cells
            .iter()
            .filter(|c| matches!(c, Cell::Piece(p) if p.side == side && p.kind == kind))
            .count() as u8
    }

    /// Number of `side`'s movable pieces (King, Wizards, Builders, Cannons).
    pub fn movable(&self, side: Side) -> u8 {
        self.movable[usize::from(side)]
    }
}

/// Whether [`State::tally`] counts a cell in or out.
#[derive(Clone, Copy)]
enum Tally {
    Add,
    Remove,
}
