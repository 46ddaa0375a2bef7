//! The actions of a turn: one card action, then the dice phase's runs or
//! one shot.

use crate::game::Side;
use crate::games::battlegates::geometry::board::{Dir, Edge, Loc, Sense, Sq};
use crate::games::battlegates::mazes::maze::Gate;
use crate::games::battlegates::pieces::cards::Card;

/// Most locations in a run: a start and up to 4 steps.
pub const MAX_PATH: usize = 5;

/// One character's run: its start and each location it steps to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Path {
    locs: [Loc; MAX_PATH],
    len: u8,
}

impl Path {
    /// A path of these locations (2 to 5); `None` otherwise.
    pub fn new(locs: &[Loc]) -> Option<Path> {
        if locs.len() < 2 || locs.len() > MAX_PATH {
            return None;
        }
        let mut out = [locs[0]; MAX_PATH];
        out[..locs.len()].copy_from_slice(locs);
        Some(Path {
            locs: out,
            len: locs.len() as u8,
        })
    }

    /// Its locations, the start first.
    pub fn locs(&self) -> &[Loc] {
        &self.locs[..usize::from(self.len)]
    }

    /// How many steps it takes.
    pub fn steps(&self) -> u8 {
        self.len - 1
    }
}

/// Where an arrow starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Shot {
    /// From a square, in a direction.
    From(Sq, Dir),
    /// From a Keep, out through the entrance at this square.
    Keep(Side, Sq),
}

/// One action.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Discard a held card.
    Discard(Card),
    /// Scale the Brick wall between two locations.
    Scale(Loc, Loc),
    /// Climb the gate between two locations.
    Climb(Loc, Loc),
    /// Move the wall on one edge to another.
    MoveWall(Edge, Edge),
    /// Lift a gate and place it again.
    MoveGate(Gate, Gate),
    /// Turn every gate on a gate's hinge post one or two quarters.
    Rotate {
        /// 1 (`rotate90`) or 2 (`rotate180`).
        quarters: u8,
        /// The gate named (canonical: the first on its post).
        gate: Gate,
        /// Which way.
        sense: Sense,
    },
    /// One character's run.
    Run(Path),
    /// An Archer's shot.
    Shoot(Shot),
}

impl Action {
    /// The card the action plays or discards, for a card action.
    pub fn card(&self) -> Option<Card> {
        match self {
            Action::Discard(c) => Some(*c),
            Action::Scale(..) => Some(Card::Scale),
            Action::Climb(..) => Some(Card::Climb),
            Action::MoveWall(..) => Some(Card::MoveWall),
            Action::MoveGate(..) => Some(Card::MoveGate),
            Action::Rotate { quarters: 1, .. } => Some(Card::Rotate90),
            Action::Rotate { .. } => Some(Card::Rotate180),
            Action::Run(_) | Action::Shoot(_) => None,
        }
    }
}
