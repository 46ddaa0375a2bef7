//! One test kit for the engines' tests: actions played by their text as a
//! player writes them, refusals read as the reason a player sees, legal
//! actions listed as text, turns ended and begun. Each engine's tests name
//! their game once (`type Kit = testkit::Kit<CastleDanger>;`).

use std::marker::PhantomData;

use crate::game::{action_text, Chance, Game, Illegal, Side, Undrawn};

/// The kit for game `G`.
pub struct Kit<G>(PhantomData<G>);

/// Chance that gives these values in turn (then 0), each taken modulo
/// the number asked for.
pub struct Fixed(pub Vec<u32>);

impl Chance for Fixed {
    fn draw(&mut self, _label: &'static str, n: u32) -> Result<u32, Illegal> {
        let v = if self.0.is_empty() {
            0
        } else {
            self.0.remove(0)
        };
        Ok(v % n)
    }
}

/// Turn-start chance for tests of what the referee can settle: nothing
/// is drawn, and only the sides listed could settle chance declared on
/// the turn (none: a game without commitments).
pub struct SettledBy<'a>(pub &'a [Side]);

impl Chance for SettledBy<'_> {
    fn draw(&mut self, label: &'static str, n: u32) -> Result<u32, Illegal> {
        Undrawn.draw(label, n)
    }

    fn can_settle(&self, side: Side) -> bool {
        self.0.contains(&side)
    }
}

impl<G: Game> Kit<G> {
    /// Parse and apply one action. A text that is not an action gives
    /// `parse error: <reason>`, an illegal one its reason.
    pub fn play(s: &mut G::State, text: &str) -> Result<(), String> {
        let action = G::parse_action(s, text).map_err(|e| format!("parse error: {}", e.reason))?;
        G::apply(s, action).map_err(|e| e.reason)
    }

    /// Play an action that must be accepted.
    pub fn ok(s: &mut G::State, text: &str) {
        if let Err(e) = Self::play(s, text) {
            panic!("{text}: {e}");
        }
    }

    /// The reason an action is refused (it must be).
    pub fn refused(s: &mut G::State, text: &str) -> String {
        match Self::play(s, text) {
            Ok(()) => panic!("{text} was accepted"),
            Err(e) => e,
        }
    }

    /// Every legal action now, as text, in the engine's order.
    pub fn legal(s: &G::State) -> Vec<String> {
        let mut v = Vec::new();
        G::legal_actions(s, &mut v);
        v.iter().map(action_text::<G>).collect()
    }

    /// Begin the turn of the side to move (no turn-start chance).
    pub fn begin(s: &mut G::State) {
        G::begin_turn(s, &mut Undrawn).expect("begin_turn");
    }

    /// Begin the turn of the side to move where only `settlers` could
    /// settle chance declared on it.
    pub fn begin_settled_by(s: &mut G::State, settlers: &[Side]) {
        G::begin_turn(s, &mut SettledBy(settlers)).expect("begin_turn");
    }

    /// End the turn (it must be complete).
    pub fn end(s: &mut G::State) {
        G::end_turn(s).expect("end_turn");
    }

    /// End the turn and begin the next one.
    pub fn next_turn(s: &mut G::State) {
        Self::end(s);
        Self::begin(s);
    }
}
