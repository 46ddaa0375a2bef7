//! The action type: one piece's path, small and `Copy`.

use super::board::{Spot, Sq};
use super::state::Kind;

/// The most steps a move takes: the die's highest face.
pub const MAX_STEPS: usize = 6;

/// A rescuer's choice (`S>f1`): which of its side's two pieces on the
/// stalemate square leaves it (named by its identity), and where it
/// goes: an empty square of its own back row, or out of the game (`out`)
/// when that row is full.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Choice {
    /// The identity of the piece that leaves the square.
    pub leaves: Kind,
    /// Its back-row square; `None` for `out`.
    pub to: Option<Sq>,
}

/// One move: a piece's path, step by step, ending on a square or in the
/// opponent's base, with a rescue choice when it breaks a stalemate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    /// The square the piece starts on.
    pub from: Sq,
    steps: [Spot; MAX_STEPS],
    len: u8,
    /// Written by its ends only, and no path of the roll's length joins
    /// them: kept so that the referee can say so.
    pub unresolved: bool,
    /// The rescue choice, if one was written.
    pub choice: Option<Choice>,
}

impl Move {
    /// A move from `from` along `steps` (1 to [`MAX_STEPS`] spots).
    pub fn new(from: Sq, steps: &[Spot], choice: Option<Choice>) -> Move {
        let mut all = [Spot::Sq(Sq(0)); MAX_STEPS];
        let len = steps.len().min(MAX_STEPS);
        all[..len].copy_from_slice(&steps[..len]);
        Move {
            from,
            steps: all,
            len: len as u8,
            unresolved: false,
            choice,
        }
    }

    /// The spots stepped on, in order.
    pub fn steps(&self) -> &[Spot] {
        &self.steps[..usize::from(self.len)]
    }

    /// Where the move ends.
    pub fn to(&self) -> Spot {
        self.steps().last().copied().unwrap_or(Spot::Sq(self.from))
    }
}
