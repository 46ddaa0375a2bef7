//! The action type: small and `Copy`.

use super::board::{Dir, Sq};
use super::state::Kind;

/// Most steps a written path can hold. A legal path never needs more: a
/// path may not visit a square twice and each half of the board has only
/// 28 squares.
pub const MAX_PATH_STEPS: u8 = 32;

/// How a move was written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Route {
    /// Only its ends (`Kc1-b2`): the piece takes a shortest open path.
    Ends,
    /// A full path (`Kc1-b1-b2`) of `len` steps (at least 2), step `i`
    /// stored in bits `2i..2i+2` of `dirs` as a [`Dir`].
    Path {
        /// The packed steps.
        dirs: u64,
        /// How many steps.
        len: u8,
    },
    /// A written path with a gap: `from` and `to` are consecutive in the
    /// text but not next to each other.
    Gap {
        /// The square before the gap.
        from: Sq,
        /// The square after it.
        to: Sq,
    },
    /// A written path that names this square twice.
    Revisit(Sq),
    /// A written path of more than [`MAX_PATH_STEPS`] steps.
    TooLong,
}

impl Route {
    /// The steps of a full path, in order (empty for the other forms).
    pub fn steps(self) -> impl Iterator<Item = Dir> {
        let (dirs, len) = match self {
            Route::Path { dirs, len } => (dirs, len),
            _ => (0, 0),
        };
        (0..len).map(move |i| Dir::from_bits(dirs >> (2 * u32::from(i))))
    }
}

/// One Castle Danger action.
///
/// `piece` is the piece letter written in front of the origin, or (when
/// none was written) the type of the mover's piece found there when the
/// action was read; `None` when neither is known.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    /// `+W`, `+B`, `+C`: add a piece at the own Portal. `at` is a square
    /// written after the letter that is not the mover's Portal (kept only so
    /// that it can be refused).
    Add {
        /// What to add.
        kind: Kind,
        /// A wrong square named with the add, if any.
        at: Option<Sq>,
    },
    /// `Kc1-c2` or `Kc1-b1-b2`: move a piece.
    Move {
        /// The piece letter (see [`Action`]).
        piece: Option<Kind>,
        /// Where it starts.
        from: Sq,
        /// Where it ends.
        to: Sq,
        /// How it was written.
        route: Route,
    },
    /// `Bc2+c3`: build a Wall next to a Builder.
    Build {
        /// The piece letter (see [`Action`]).
        piece: Option<Kind>,
        /// The Builder.
        from: Sq,
        /// The new Wall.
        to: Sq,
    },
    /// `Bc2xc3`: remove the Wall next to a Builder.
    Remove {
        /// The piece letter (see [`Action`]).
        piece: Option<Kind>,
        /// The Builder.
        from: Sq,
        /// The Wall.
        to: Sq,
    },
    /// `Cd3*d7`: fire a Cannon, the cannonball landing on `to`.
    Fire {
        /// The piece letter (see [`Action`]).
        piece: Option<Kind>,
        /// The Cannon.
        from: Sq,
        /// The landing square.
        to: Sq,
    },
}
