//! What can be wrong with a record, and where.
//!
//! The referee plays [`Line`](super::Line)s, which carry no text positions:
//! a problem in a line names a [`Place`] in it (the side, the third item, the
//! reveal). [`RefereeError`] is the same problem placed in the record's text,
//! made by whoever knows where the line came from (the record replay, or
//! `move` for a turn typed on the command line).

use crate::record::{LineKind, Span, Turn};

/// Which kind of problem a record has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ErrorKind {
    /// Text that cannot be read (line:column).
    Parse,
    /// A turn that parsed but breaks the rules (turn, side, reason).
    Illegal,
    /// A record-level problem: header, numbering, reveals, result.
    Record,
}

impl ErrorKind {
    /// `parse`, `illegal` or `record`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse",
            ErrorKind::Illegal => "illegal",
            ErrorKind::Record => "record",
        }
    }
}

/// The first problem found in a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefereeError {
    /// Parse, illegal or record.
    pub kind: ErrorKind,
    /// Where, in the record's clean text.
    pub span: Option<Span>,
    /// The turn number, when a turn line is at fault.
    pub turn: Option<u32>,
    /// The set-up line's number (`S2`: 2), when a set-up line is at
    /// fault.
    pub setup_line: Option<u32>,
    /// The side of that turn.
    pub side: Option<String>,
    /// The action's text, when an action is at fault.
    pub action: Option<String>,
    /// The reason, for a player (with the action text in front where one is
    /// at fault: `Kc1-c4: c2 holds a Wall`).
    pub message: String,
}

impl RefereeError {
    /// A record-level error.
    pub fn record(span: Option<Span>, message: impl Into<String>) -> Self {
        RefereeError {
            kind: ErrorKind::Record,
            span,
            turn: None,
            setup_line: None,
            side: None,
            action: None,
            message: message.into(),
        }
    }
}

/// A part of a line, for pointing at it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// The whole line.
    Line,
    /// The turn number.
    Number,
    /// The side name.
    Side,
    /// The item at this index of [`Line::items`](super::Line), whole.
    Item(usize),
    /// Bytes `offset..offset + len` of the item at `index`'s text.
    ItemPart {
        /// Which item.
        index: usize,
        /// Byte offset within the item's text.
        offset: usize,
        /// Byte length (at least 1 is shown).
        len: usize,
    },
    /// The line's end: its `pass` or `resign` word, else the whole line.
    End,
    /// The proof item at this index of the line's proofs.
    Proof(usize),
}

/// A problem with one line, placed within it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LineError {
    /// Parse, illegal or record.
    pub kind: ErrorKind,
    /// Where in the line.
    pub place: Place,
    /// The turn number the line should have (the referee's count), or
    /// the set-up line's (`S2`: 2), as `line` says.
    pub turn: u32,
    /// Whether the line is a set-up line or a turn.
    pub line: LineKind,
    /// The side as written on the line.
    pub side: String,
    /// The action's text, when an action is at fault.
    pub action: Option<String>,
    /// The reason, with the action text in front where one is at fault.
    pub message: String,
}

impl LineError {
    /// This problem placed in the text of `turn`, the record's line that
    /// was played.
    pub fn in_turn(self, turn: &Turn<'_>) -> RefereeError {
        let span = self.span_in(turn);
        self.at(span)
    }

    /// Where this problem stands in the text of `turn`.
    pub fn span_in(&self, turn: &Turn<'_>) -> Span {
        let item_span = |index: usize| turn.items.get(index).map_or(turn.span, |i| i.span);
        match self.place {
            Place::Line => turn.span,
            Place::Number => turn.number_span,
            Place::Side => turn.side_span,
            Place::Item(index) => item_span(index),
            Place::ItemPart { index, offset, len } => {
                let item = item_span(index);
                let start = (item.start + offset).min(item.end);
                let end = (start + len.max(1)).min(item.end.max(start + 1));
                Span::new(start, end)
            }
            Place::End => turn
                .pass
                .or(turn.resign)
                .or(turn.draw.map(|(_, span)| span))
                .or(turn.forfeit.map(|(span, _)| span))
                .unwrap_or(turn.span),
            Place::Proof(index) => turn.proofs.get(index).map_or(turn.span, |p| p.span),
        }
    }

    /// This problem placed at `span` of the record's text (found by
    /// [`LineError::span_in`]).
    pub fn at(self, span: Span) -> RefereeError {
        RefereeError {
            kind: self.kind,
            span: Some(span),
            turn: (self.line == LineKind::Turn).then_some(self.turn),
            setup_line: (self.line == LineKind::Setup).then_some(self.turn),
            side: Some(self.side),
            action: self.action,
            message: self.message,
        }
    }
}
