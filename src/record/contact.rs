//! `Contact`: a side tag's value, how to reach that side's player
//! (spec: docs/record.md, "Required tags"). One mail address
//! (`ann@example.org`), a name and one address (`Ann <ann@example.org>`),
//! or a name alone (`Ann`, for a game whose messages go by hand). It is
//! written into the `From:`, `To:` and `Cc:` of every message herald
//! writes, so nothing in it may read as more than one address there: no
//! group (`team: a@x; b@x`), no second `<...>`, no comment, no quote, no
//! line break, control character or bidirectional mark. Its address
//! must be one mail can use: both parts dot-atoms (no dot at the start or
//! end of either, no two in a row), ASCII, within mail's lengths, and
//! taken by lettre, which writes the messages; its name no longer than
//! 64 characters and free of `=?` (an encoded word's start).

use std::cell::RefCell;
use std::collections::VecDeque;

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
            Ok((_, c)) => match c
                .address
                .and_then(|a| dot_fault(text, a).or_else(|| mail_fault(text, a)))
                .or_else(|| c.name.and_then(|n| name_fault(text, n)))
            {
                Some(fault) => Err(fault),
                None => Ok(c),
            },
            Err(_) => Err(grammar_fault(text)),
        }
    }

    /// Why `text` is no contact ([`Contact::parse`]'s error), or `None`
    /// when it is one. The same answer as a parse, remembered for the
    /// last few contacts found good in this thread: `check` of a folder
    /// reads the same players' contacts in record after record, and a
    /// parse costs some 3,900 instructions (lettre's check of the
    /// address 40% of it), a fifth of a record's start (issue 30).
    pub fn fault(text: &str) -> Option<String> {
        /// Contacts remembered, the oldest dropped first.
        const KEPT: usize = 8;
        thread_local! {
            static GOOD: RefCell<VecDeque<Box<str>>> = const { RefCell::new(VecDeque::new()) };
        }
        if GOOD.with_borrow(|good| good.iter().any(|c| **c == *text)) {
            return None;
        }
        let fault = Contact::parse(text).err();
        if fault.is_none() {
            GOOD.with_borrow_mut(|good| {
                if good.len() == KEPT {
                    good.pop_front();
                }
                good.push_back(text.into());
            });
        }
        fault
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

/// Why the address `address` of the contact `text` is no address mail
/// can use, though made of address characters: each of its two parts is
/// a dot-atom (RFC 5322 3.2.3, 3.4.1), words joined by single dots, with
/// no dot at its start or end and no two in a row (`a.@x.org`,
/// `a..b@x.org`, `a@x.org.`).
fn dot_fault(text: &str, address: &str) -> Option<String> {
    let (local, domain) = address.split_once('@')?;
    [(local, "name part"), (domain, "domain")]
        .into_iter()
        .find_map(|(part, what)| {
            let fault = if part.starts_with('.') {
                "a dot at the start of"
            } else if part.ends_with('.') {
                "a dot at the end of"
            } else if part.contains("..") {
                "two dots in a row in"
            } else {
                return None;
            };
            Some(format!(
                "`{text}` has {fault} its address's {what} `{part}`: each part of an \
                 address is words joined by single dots, none at its start or end \
                 (RFC 5322 3.2.3), as in ann.smith@mail.example.org"
            ))
        })
}

/// The most characters a name may have: with its address, a `From:`
/// line stays well within the 998 characters a mail header line may
/// hold (RFC 5322 2.1.1), encoded or not.
const NAME_MOST: usize = 64;

/// Why the name `name` of the contact `text` cannot stand in a header:
/// too long, or holding `=?`, which mail readers take for the start of
/// an encoded word (RFC 2047) and would decode into anything, a line
/// break or another address included.
fn name_fault(text: &str, name: &str) -> Option<String> {
    if name.contains("=?") {
        return Some(format!(
            "`{text}` has `=?` in its name, which mail readers decode as an encoded word \
             (RFC 2047) into other text; write the name as it reads (herald encodes it \
             where a header needs it)"
        ));
    }
    let length = name.chars().count();
    (length > NAME_MOST).then(|| {
        format!(
            "`{text}` has a name of {length} characters: a name has at most {NAME_MOST}, so \
             that every header naming it stays one a mail reader takes"
        )
    })
}

/// Why the address `address` of the contact `text`, a dot-atom at each
/// part, is still one mail cannot carry, in words: not ASCII (the
/// headers herald writes are ASCII), a name part over 64 characters, a
/// domain over 254 or a label of it over 63, or a label that does not
/// start and end with a letter or digit (RFC 5321 4.5.3.1, RFC 1035
/// 2.3.1). The last word is lettre's, which writes the messages: what it
/// refuses is refused here, so that a contact `new` and `check` take is
/// one every `--reply` can write to.
fn mail_fault(text: &str, address: &str) -> Option<String> {
    let (local, domain) = address.split_once('@')?;
    let fault = if !address.is_ascii() {
        format!(
            "has a letter outside ASCII in its address `{address}`: the mail headers herald \
             writes are ASCII; write the domain in its ASCII form (`xn--...`, as a mail \
             provider shows it) and the name part in ASCII letters"
        )
    } else if local.len() > 64 {
        format!(
            "has a name part of {} characters in its address: mail carries at most 64 \
             (RFC 5321 4.5.3.1)",
            local.len()
        )
    } else if domain.len() > 254 {
        format!(
            "has a domain of {} characters in its address: mail carries at most 254",
            domain.len()
        )
    } else if let Some(label) = domain.split('.').find(|l| {
        l.len() > 63
            || !l.starts_with(|c: char| c.is_ascii_alphanumeric())
            || !l.ends_with(|c: char| c.is_ascii_alphanumeric())
            || !l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    }) {
        format!(
            "has `{label}` in its address's domain `{domain}`: each word of a domain is at \
             most 63 letters, digits and hyphens, starting and ending with a letter or digit \
             (RFC 1035 2.3.1), as in mail.example.org"
        )
    } else {
        let e = lettre::Address::new(local, domain).err()?;
        format!("has an address mail cannot carry, `{address}` ({e})")
    };
    Some(format!("`{text}` {fault}"))
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

    /// A contact's fault is the parse's, whether the contact was found
    /// good before or not: remembering good ones never takes a bad one,
    /// and more good ones than are remembered are each still good.
    #[test]
    fn a_contact_found_good_before_gives_the_fault_a_parse_gives() {
        let good: Vec<String> = (0..20)
            .map(|k| format!("Ann {k} <ann{k}@example.org>"))
            .collect();
        let bad = [
            "a..b@example.org",
            "Ann <ann@x.org",
            "ann@-x.org",
            "=?utf-8?q?A?= <a@x.org>",
        ];
        for round in 0..2 {
            for text in good.iter().map(String::as_str).chain(bad) {
                assert_eq!(
                    Contact::fault(text),
                    Contact::parse(text).err(),
                    "{text}, round {round}"
                );
            }
        }
        assert!(Contact::fault("a..b@example.org").is_some());
        assert!(Contact::fault(&good[19]).is_none());
    }

    /// The reason `text` is refused, which must name `part`.
    fn refused_naming(text: &str, fault: &str, part: &str) {
        let e = Contact::parse(text).expect_err(text);
        assert!(e.contains(fault), "{text}: {e}");
        assert!(e.contains(&format!("`{part}`")), "{text}: {e}");
        assert!(e.contains("single dots"), "{text}: {e}");
    }

    #[test]
    fn an_address_whose_name_part_begins_with_a_dot_is_refused() {
        refused_naming(
            ".a@x.org",
            "a dot at the start of its address's name part",
            ".a",
        );
        refused_naming(
            "Ann <.a@x.org>",
            "a dot at the start of its address's name part",
            ".a",
        );
    }

    #[test]
    fn an_address_whose_name_part_ends_with_a_dot_is_refused() {
        refused_naming(
            "a.@x.org",
            "a dot at the end of its address's name part",
            "a.",
        );
    }

    #[test]
    fn an_address_with_two_dots_in_a_row_in_its_name_part_is_refused() {
        refused_naming(
            "a..b@x.org",
            "two dots in a row in its address's name part",
            "a..b",
        );
    }

    #[test]
    fn an_address_whose_domain_begins_with_a_dot_is_refused() {
        refused_naming(
            "a@.x.org",
            "a dot at the start of its address's domain",
            ".x.org",
        );
    }

    #[test]
    fn an_address_whose_domain_ends_with_a_dot_is_refused() {
        refused_naming(
            "a@x.org.",
            "a dot at the end of its address's domain",
            "x.org.",
        );
    }

    #[test]
    fn an_address_with_two_dots_in_a_row_in_its_domain_is_refused() {
        refused_naming(
            "a@x..org",
            "two dots in a row in its address's domain",
            "x..org",
        );
    }

    #[test]
    fn an_address_of_words_joined_by_single_dots_is_read() {
        let c = Contact::parse("Ann <ann.smith@mail.example.org>").unwrap();
        assert_eq!(c.address(), Some("ann.smith@mail.example.org"));
        // A name may hold dots: it is quoted where a header needs it.
        let c = Contact::parse("Bob.B <b@x.org>").unwrap();
        assert_eq!(c.name(), Some("Bob.B"));
    }

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
    /// Every fault of an address mail cannot carry, each with its reason;
    /// the addresses at their limits are read (and lettre, which writes
    /// the messages, takes them).
    #[test]
    fn an_address_mail_cannot_carry_is_refused_with_why() {
        let long_local = format!("{}@example.org", "a".repeat(65));
        let long_label = format!("ann@{}.org", "b".repeat(64));
        let long_domain = format!("ann@{}org", "abcdefghi.".repeat(26));
        for (text, why) in [
            (
                "ann@bücher.de",
                "a letter outside ASCII in its address `ann@bücher.de`",
            ),
            ("Zoë <ann@例え.jp>", "a letter outside ASCII"),
            ("zoë@example.org", "a letter outside ASCII"),
            ("ann@-example.org", "`-example` in its address's domain"),
            ("ann@example-.org", "`example-` in its address's domain"),
            ("ann@ex_ample.org", "`ex_ample` in its address's domain"),
            (long_local.as_str(), "a name part of 65 characters"),
            (
                long_label.as_str(),
                &format!("`{}` in its address's domain", "b".repeat(64)),
            ),
            (long_domain.as_str(), "a domain of 263 characters"),
        ] {
            let e = Contact::parse(text).expect_err(text);
            assert!(e.contains(why), "{text}: {e}");
        }
        let at_limits = format!("{}@{}.example.org", "a".repeat(64), "b".repeat(63));
        for text in [
            at_limits.as_str(),
            "ann@x",
            "a-b.c+d@mail-1.example.org",
            "ann@1e100.net",
        ] {
            let c = Contact::parse(text).expect(text);
            let (local, domain) = c.address().unwrap().split_once('@').unwrap();
            assert!(lettre::Address::new(local, domain).is_ok(), "{text}");
        }
    }

    /// A name with `=?`, which a mail reader would decode as an encoded
    /// word (into a line break, a `Bcc:` or another address), is refused.
    #[test]
    fn a_name_that_reads_as_an_encoded_word_is_refused() {
        for text in [
            "Bob =?utf-8?q?=0D=0ABcc=3A_x=40evil.org?= <bob@example.org>",
            "=?utf-8?q?Ann_=3Cevil=40evil.org=3E?= <ann@example.org>",
            "=?utf-8?b?QW5u?=",
        ] {
            let e = Contact::parse(text).expect_err(text);
            assert!(e.contains("has `=?` in its name"), "{text}: {e}");
            assert!(e.contains("encoded word"), "{text}: {e}");
        }
        // An `=` or a `?` alone is a name's character like any other.
        assert_eq!(
            Contact::parse("A=B? <a@x.org>").unwrap().name(),
            Some("A=B?")
        );
    }

    /// A name of more than 64 characters is refused; 64 are read, letters
    /// outside ASCII counted as one each.
    #[test]
    fn a_name_longer_than_64_characters_is_refused() {
        let long = format!("{} <ann@example.org>", "Annabelle".repeat(8));
        let e = Contact::parse(&long).expect_err("72 characters");
        assert!(e.contains("a name of 72 characters"), "{e}");
        assert!(e.contains("at most 64"), "{e}");
        let e = Contact::parse(&"A".repeat(65)).expect_err("a name alone");
        assert!(e.contains("a name of 65 characters"), "{e}");
        let most = format!("{} <ann@example.org>", "Ä".repeat(64));
        assert_eq!(
            Contact::parse(&most)
                .unwrap()
                .name()
                .map(|n| n.chars().count()),
            Some(64)
        );
    }
}
