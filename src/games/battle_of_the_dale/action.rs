//! One action of a turn.

use super::board::Hex;
use super::state::Kind;

/// One action. Armies are indexes into the game's `SIDES`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Action {
    /// `R@B1`: place a unit from the Reserve.
    Place { kind: Kind, hex: Hex },
    /// `B1-B2`: a move, an Advance After Capture, a Berserk move or a Charge.
    Move { from: Hex, to: Hex },
    /// `rally`, `rally Elf`, `rally @C2`, `rally Elf @C2`.
    Rally { pile: Option<u8>, at: Option<Hex> },
    /// `withdraw`: the Mounted unit back to the Reserve.
    Withdraw,
    /// `exchange Elf`: a prisoner exchange with the named army.
    Exchange(u8),
    /// `offer-exchange Elf`: standing consent to an exchange.
    OfferExchange(u8),
    /// `force D3-C2`: the Elf Hero's forced advance of the enemy unit on
    /// `from` into `to`.
    Force { from: Hex, to: Hex },
}
