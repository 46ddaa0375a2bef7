//! Hexadecimal digits of proof values, read and written through tables:
//! a record with commitments carries 64 digits a line, and the `hex`
//! crate's digit-by-digit matching and iterator of characters cost
//! several times more than a table look-up.

/// The lower-case digits.
const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Not a hexadecimal digit, in [`VALUES`].
const NOT_HEX: u8 = 0xff;

/// The value of every byte read as a hexadecimal digit (either case), or
/// [`NOT_HEX`].
const VALUES: [u8; 256] = {
    let mut table = [NOT_HEX; 256];
    let mut k = 0;
    while k < 10 {
        table[b'0' as usize + k] = k as u8;
        k += 1;
    }
    let mut k = 0;
    while k < 6 {
        table[b'a' as usize + k] = 10 + k as u8;
        table[b'A' as usize + k] = 10 + k as u8;
        k += 1;
    }
    table
};

/// The value of one hexadecimal digit (either case).
pub(crate) fn value(digit: u8) -> Option<u8> {
    let v = VALUES[usize::from(digit)];
    (v != NOT_HEX).then_some(v)
}

/// `N` bytes from exactly `2N` hexadecimal digits (either case), or
/// `None` if `digits` is not that.
pub(crate) fn decode<const N: usize>(digits: &[u8]) -> Option<[u8; N]> {
    if digits.len() != 2 * N {
        return None;
    }
    let mut out = [0u8; N];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let (high, low) = (VALUES[usize::from(pair[0])], VALUES[usize::from(pair[1])]);
        // A digit's value is under 16; [`NOT_HEX`] is not.
        if (high | low) > 0x0f {
            return None;
        }
        *byte = high << 4 | low;
    }
    Some(out)
}

/// Append `bytes` to `out` as lower-case hexadecimal digits (written a
/// piece at a time into a buffer, then appended: the digits of every
/// proof of every line are written again for the record digest).
pub(crate) fn push(out: &mut String, bytes: &[u8]) {
    out.reserve(2 * bytes.len());
    let mut buf = [0u8; 128];
    for piece in bytes.chunks(buf.len() / 2) {
        for (pair, &b) in buf.chunks_exact_mut(2).zip(piece) {
            pair[0] = DIGITS[usize::from(b >> 4)];
            pair[1] = DIGITS[usize::from(b & 0x0f)];
        }
        let digits = &buf[..2 * piece.len()];
        out.push_str(std::str::from_utf8(digits).expect("hexadecimal digits are ASCII"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_reads_as_the_hex_crate_reads_it() {
        for b in 0..=255u8 {
            let ours = value(b);
            let theirs = hex::decode([b'0', b]).ok().map(|v| v[0]);
            assert_eq!(ours, theirs, "byte {b:#04x}");
        }
    }

    #[test]
    fn decoding_takes_exactly_two_digits_a_byte_in_either_case() {
        assert_eq!(decode::<2>(b"0aFf"), Some([0x0a, 0xff]));
        assert_eq!(decode::<2>(b"0aF"), None);
        assert_eq!(decode::<2>(b"0aFf0"), None);
        assert_eq!(decode::<2>(b"0aFg"), None);
        assert_eq!(decode::<1>(b" a"), None);
    }

    #[test]
    fn writing_gives_lower_case_digits_as_the_hex_crate_does() {
        let bytes: Vec<u8> = (0..=255).collect();
        let mut out = String::from("x");
        push(&mut out, &bytes);
        assert_eq!(out, format!("x{}", hex::encode(&bytes)));
    }
}
