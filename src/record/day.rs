//! `Day`: a date of the proleptic Gregorian calendar in UTC, as a line's
//! `date` proof item carries it (spec section 3.8): `2026-11-28`.

use std::fmt;

use nom::bytes::complete::{tag, take_while_m_n};
use nom::combinator::{all_consuming, map_res};
use nom::{IResult, Parser};

/// A date, as the days since 1970-01-01.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Day(pub i64);

impl Day {
    /// The day of year `y`, month `m` (1..=12), day `d`, if it exists.
    pub fn from_ymd(y: i64, m: u32, d: u32) -> Option<Day> {
        if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
            return None;
        }
        // Howard Hinnant's days_from_civil.
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = i64::from((m + 9) % 12);
        let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Day(era * 146_097 + doe - 719_468))
    }

    /// The year, month and day.
    pub fn ymd(self) -> (i64, u32, u32) {
        // Howard Hinnant's civil_from_days.
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let y = yoe + era * 400 + i64::from(m <= 2);
        (y, m, d)
    }

    /// The day `seconds` after 1970-01-01T00:00Z falls on.
    pub fn from_unix(seconds: u64) -> Day {
        Day(i64::try_from(seconds / 86_400).unwrap_or(i64::MAX))
    }

    /// Read `2026-11-28` (four digits, two, two; a day that exists).
    pub fn parse(text: &str) -> Option<Day> {
        let (_, (y, m, d)) = all_consuming(ymd).parse(text).ok()?;
        Day::from_ymd(y, m, d)
    }
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `YYYY-MM-DD` as numbers.
fn ymd(input: &str) -> IResult<&str, (i64, u32, u32)> {
    let digits = |n: usize| take_while_m_n(n, n, |c: char| c.is_ascii_digit());
    (
        map_res(digits(4), str::parse::<i64>),
        tag("-"),
        map_res(digits(2), str::parse::<u32>),
        tag("-"),
        map_res(digits(2), str::parse::<u32>),
    )
        .map(|(y, _, m, _, d)| (y, m, d))
        .parse(input)
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::Day;

    #[test]
    fn a_date_reads_and_writes_back_and_counts_days_from_1970() {
        assert_eq!(Day::parse("1970-01-01"), Some(Day(0)));
        assert_eq!(Day::parse("2000-03-01"), Some(Day(11_017)));
        let day = Day::parse("2026-11-28").unwrap();
        assert_eq!(day.to_string(), "2026-11-28");
        assert_eq!(Day::parse("2026-12-12").unwrap().0 - day.0, 14);
        assert_eq!(Day::from_unix(1_795_848_632).to_string(), "2026-11-28");
        assert_eq!(Day::parse("2024-02-29").unwrap().to_string(), "2024-02-29");
    }

    #[test]
    fn a_date_that_does_not_exist_or_is_not_yyyy_mm_dd_is_refused() {
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-11-31",
            "26-11-28",
            "2026-1-28",
            "2026-11-28T",
            "2026/11/28",
            "",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }
}
