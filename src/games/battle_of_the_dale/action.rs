//! One action of a turn.

use crate::game::Side;

use super::board::Hex;
use super::state::Kind;

/// One action.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Action {
    /// `R@B1`: place a unit from the Reserve.
    Place {
        /// The kind of unit placed.
        kind: Kind,
        /// Where.
        hex: Hex,
    },
    /// `B1-B2`: a move, an Advance After Capture, a Berserk move or a Charge.
    Move {
        /// The unit's hex.
        from: Hex,
        /// Where it goes.
        to: Hex,
    },
    /// `rally`, `rally Elf`, `rally @C2`, `rally Elf @C2`.
    Rally {
        /// The army whose captured pile the Regular comes from, if named.
        pile: Option<Side>,
        /// The Goblin Horde's pre-declared placement, if any.
        at: Option<Hex>,
    },
    /// `withdraw`: the Mounted unit back to the Reserve.
    Withdraw,
    /// `exchange Elf`: a prisoner exchange with the named army.
    Exchange(Side),
    /// `offer-exchange Elf`: standing consent to an exchange.
    OfferExchange(Side),
    /// `force D3-C2`: the Elf Hero's forced advance of the enemy unit on
    /// `from` into `to`.
    Force {
        /// The enemy unit's hex.
        from: Hex,
        /// The space the Elf unit left.
        to: Hex,
    },
}
