//! `Contact`: a side tag's value, how to reach that side's player
//! (spec: docs/record.md, "Required tags"). One mail address
//! (`ann@example.org`), a name and one address (`Ann <ann@example.org>`),
//! or a name alone (`Ann`, for a game whose messages go by hand). It is
//! written into the `From:`, `To:` and `Cc:` of every message herald
//! writes, so nothing in it may read as more than one address there: no
//! group (`team: a@x; b@x`), no second `<...>`, no comment, no quote, no
//! line break, control character or bidirectional mark.

use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::space0;
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::{delimited, separated_pair, terminated};
use nom::{IResult, Parser};

/// A contact read: its name and its mail address, each if it has one
/// (never neither).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Contact<'a> {
    name: Option<&'a str>,
    address: Option<&'a str>,
}

impl<'a> Contact<'a> {
    /// Read `text` as a contact, or say, in words, why it is not one.
    pub fn parse(text: &'a str) -> Result<Contact<'a>, String> {
        if let Some(fault) = char_fault(text) {
            return Err(fault);
        }
        match all_consuming(contact).parse(text) {
            Ok((_, c)) => Ok(c),
            Err(_) => Err(grammar_fault(text)),
        }
    }

    /// The mail address (`ann@example.org`), if the contact has one.
    pub fn address(&self) -> Option<&'a str> {
        self.address
    }

    /// The name (`Ann`), if the contact has one.
    pub fn name(&self) -> Option<&'a str> {
        self.name
    }
}

/// What every contact must be, in the words an error ends with.
const SHAPES: &str = "a contact is one mail address (ann@example.org), a name and one address \
                      (Ann <ann@example.org>) or a name alone (Ann)";

/// A character that may stand nowhere in a contact, in words.
fn char_fault(text: &str) -> Option<String> {
    const BIDI: &[char] = &[
        '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
        '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{061C}',
    ];
    // Unicode's own line and paragraph separators.
    const BREAKS: &[char] = &['\u{2028}', '\u{2029}'];
    let c = text
        .chars()
        .find(|c| c.is_control() || *c == ',' || BIDI.contains(c) || BREAKS.contains(c))?;
    let what = match c {
        '\n' | '\r' => "a line break".to_string(),
        c if BREAKS.contains(&c) => format!("a line break (U+{:04X})", u32::from(c)),
        ',' => "a comma".to_string(),
        c if c.is_control() => format!("a control character (U+{:04X})", u32::from(c)),
        c => format!("a bidirectional mark (U+{:04X})", u32::from(c)),
    };
    Some(format!(
        "holds {what}: a contact is one address or name, as it may stand in a mail header \
         (no control character, line break, comma or bidirectional mark)"
    ))
}

/// Why `text`, free of the characters [`char_fault`] names, is still no
/// contact.
fn grammar_fault(text: &str) -> String {
    let t = text.trim();
    let why = if t.is_empty() {
        "is empty".to_string()
    } else if t.contains(':') || t.contains(';') {
        "reads as a group of addresses (`:` or `;`)".to_string()
    } else if t.matches('<').count() > 1 || t.matches('>').count() > 1 {
        "holds more than one <address>".to_string()
    } else if let Some(c) = t.chars().find(|c| "\"()[]\\".contains(*c)) {
        format!("holds `{c}` (a quote, comment or bracket of mail headers)")
    } else if t.contains('<') != t.contains('>') || (t.contains('<') && !t.ends_with('>')) {
        "has its <address> unclosed or followed by more".to_string()
    } else if t.matches('@').count() > 1 {
        "holds more than one `@`".to_string()
    } else if t.contains('@') && !t.contains('<') {
        "has a space in its address, or an address with no name part or no domain".to_string()
    } else {
        "is not an address of the form name@domain".to_string()
    };
    format!("`{text}` {why}: {SHAPES}")
}

/// A character of a name: none of the specials of a mail header's
/// address (`<>@,;:"()[]\`).
fn name_char(c: char) -> bool {
    !"<>@,;:\"()[]\\".contains(c)
}

/// A character of an address's local part or domain.
fn address_char(c: char) -> bool {
    name_char(c) && !c.is_whitespace()
}

/// `local@domain`.
fn addr_spec(input: &str) -> IResult<&str, &str> {
    recognize(separated_pair(
        take_while1(address_char),
        tag("@"),
        take_while1(address_char),
    ))
    .parse(input)
}

/// A name: one or more name characters, not all blank (trimmed).
fn name(input: &str) -> IResult<&str, &str> {
    let (rest, n) = take_while1(name_char).parse(input)?;
    if n.trim().is_empty() {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Space,
        )));
    }
    Ok((rest, n.trim()))
}

fn contact(input: &str) -> IResult<&str, Contact<'_>> {
    let (input, _) = space0(input)?;
    let bare = terminated(addr_spec, space0).map(|a| Contact {
        name: None,
        address: Some(a),
    });
    let named =
        (opt(name), delimited(tag("<"), addr_spec, tag(">")), space0).map(|(n, a, _)| Contact {
            name: n,
            address: Some(a),
        });
    let alone = name.map(|n| Contact {
        name: Some(n),
        address: None,
    });
    nom::branch::alt((bare, named, alone)).parse(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contact_is_an_address_a_name_and_an_address_or_a_name() {
        let c = Contact::parse("ann@example.org").unwrap();
        assert_eq!((c.name(), c.address()), (None, Some("ann@example.org")));
        let c = Contact::parse("Ann Smith <ann@example.org>").unwrap();
        assert_eq!(
            (c.name(), c.address()),
            (Some("Ann Smith"), Some("ann@example.org"))
        );
        let c = Contact::parse("<ann@example.org>").unwrap();
        assert_eq!((c.name(), c.address()), (None, Some("ann@example.org")));
        let c = Contact::parse("Ann").unwrap();
        assert_eq!((c.name(), c.address()), (Some("Ann"), None));
        let c = Contact::parse("Ännchen Müller").unwrap();
        assert_eq!((c.name(), c.address()), (Some("Ännchen Müller"), None));
    }

    #[test]
    fn a_contact_that_would_read_as_more_than_one_address_is_refused_with_why() {
        for (text, why) in [
            ("g: a@x; b@x", "group"),
            ("Bob <b@x> <c@evil>", "more than one <address>"),
            ("Bob <b@x> c@evil", "unclosed or followed by more"),
            ("a@x b@y", "more than one `@`"),
            ("\"Bob\" <b@x>", "`\"`"),
            ("b@x (Bob)", "`(`"),
            ("Bob <b@x", "unclosed"),
            ("ann @example.org", "space in its address"),
            ("@example.org", "no name part"),
            ("  ", "empty"),
            ("a,b@x", "a comma"),
            ("a\nBcc: c@x", "a line break"),
        ] {
            let e = Contact::parse(text).expect_err(text);
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
