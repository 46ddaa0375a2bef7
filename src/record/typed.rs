//! A turn a player types on the command line (`herald move game.pbem
//! "Kc1-b1"`), read as the line it becomes in the record.

use super::{parse_lines, ParseError, Source, Turn};

/// What a player typed as the body of a line (its actions, `pass` or
/// `resign`; any `N. Side:` in front taken off), read as the line it
/// becomes: `N. Side: <body>`. Problems
/// are placed in that line ([`TypedLine::source`]), so that a player sees
/// the turn as the record will read: `4. Red: Kc9-c4`, the action at
/// column 9.
#[derive(Clone, Debug)]
pub struct TypedLine {
    source: Source,
}

impl TypedLine {
    /// `body` as turn `number` of `side`.
    pub fn new(number: u32, side: &str, body: &str) -> Self {
        TypedLine {
            source: Source::typed(&format!("{number}. {side}: {body}\n")),
        }
    }

    /// The line as read, for placing a problem in it.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The lines read (more than one when the player typed several) and
    /// the text after the last one (white space only when there is
    /// none), or where the text cannot be read.
    pub fn turns(&self) -> Result<(Vec<Turn<'_>>, &str), ParseError> {
        parse_lines(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{ItemKind, LineKind};

    #[test]
    fn a_typed_body_reads_as_its_line_with_spans_in_that_line() {
        let typed = TypedLine::new(4, "Red", "Kc9-c4, We1-e2");
        assert_eq!(typed.source().text(), "4. Red: Kc9-c4, We1-e2\n");
        let (turns, rest) = typed.turns().unwrap();
        // Only the line's end is left after it.
        assert_eq!(rest, "\n");
        let turn = &turns[0];
        assert_eq!(
            (turn.number, turn.side, turn.kind),
            (4, "Red", LineKind::Turn)
        );
        // "4. Red: " is 8 bytes: the first action starts at byte 8, the
        // second after "Kc9-c4, " at byte 16.
        let spans: Vec<(usize, usize)> = turn
            .items
            .iter()
            .map(|i| (i.span.start, i.span.end))
            .collect();
        assert_eq!(spans, [(8, 14), (16, 22)]);
        assert!(turn.items.iter().all(|i| i.kind == ItemKind::Action));
        // Column 9 (counted from 1), as `move` shows it.
        assert_eq!(typed.source().position(8).column, 9);
    }

    #[test]
    fn text_that_cannot_be_read_is_placed_in_the_typed_line() {
        // A comment never closed: the `{` at byte 16 of "3. Blue: Kb1-a1 {x".
        let typed = TypedLine::new(3, "Blue", "Kb1-a1 {x");
        let error = typed.turns().unwrap_err();
        assert_eq!(error.span.start, 16);
        assert_eq!(typed.source().position(error.span.start).column, 17);
    }

    #[test]
    fn text_after_a_blank_line_is_left_after_the_turn() {
        let typed = TypedLine::new(1, "Blue", "Kc1-b1\n\nKb1-a1");
        let (turns, rest) = typed.turns().unwrap();
        assert_eq!(turns.len(), 1);
        assert_eq!(rest.trim(), "Kb1-a1");
    }
}
