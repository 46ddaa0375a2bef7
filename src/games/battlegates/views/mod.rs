//! Layer 6, views: the text diagram ([`diagram`], narrow boards drawn by
//! [`compact`]) and the SVG picture ([`picture`], which captions with the
//! diagram's summary). Over the one-board game; a set-up shows through
//! its hooks ([`Variant::team_of`](super::one_board::variant::Variant::team_of)).

pub(super) mod compact;
pub(super) mod diagram;
pub(super) mod picture;
