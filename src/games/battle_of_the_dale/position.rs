//! The position notation (`docs/games/battle-of-the-dale.md` 8, "Position notation"):
//! `<map> <mover> <turn> <armies> <options> <offers> <force> <rally>
//! <result>`, e.g. the start of a two-player game
//! `3/4/5/4/3 Human 1 Human:R4M1H1,Elf:R4M1H1 - - - - *`.
//!
//! - map: the rows A to E, separated by `/`, each from hex 1 up; a unit is
//!   its army's initial (`H`uman, `E`lf, `D`warf, `G`oblin, `F`alcon) and
//!   its kind (`R`egular, `M`ounted, `H`ero), e.g. `ER`; a digit stands
//!   for that many empty hexes;
//! - mover: the army to move; turn: the turn number, from 1;
//! - armies: every army in turn order, separated by `,`, as
//!   `<Army>:<Reserve>` or `<Army>:<Reserve>:<Captured pile>`; the Reserve
//!   is `R<n>M<n>H<n>`, or `out` for an army that is out; the Captured pile
//!   lists the prisoners by army initial, kind and count, e.g. `ER2DM1`;
//! - options: `-`, or the optional rules that differ from the defaults,
//!   as in the `Options` tag, separated by `,` (e.g. `prisoner-exchange`);
//! - offers: `-`, or the standing exchange consents `<Army>><Army>`,
//!   separated by `,`;
//! - force: `-`, or the hexes the Elf may force an advance into,
//!   separated by `,`;
//! - rally: `-`, or the rally waiting for its flips:
//!   `<Army>:<flips>[:<pile army>][@<hex>]`;
//! - result: `*` while the game goes on, `draw`, or the winning army.
//!
//! Taken between turns, a position has nothing spent of a turn: no action
//! made, no Advance After Capture pending, no rally declared this turn.

use nom::character::complete::{digit1, one_of};
use nom::{IResult, Parser};

use crate::game::{position_fields, Outcome, Parts, PositionField, PositionParseError, Side};

use super::board::{hexes, Hex, N_HEX, ROW_LEN};
use super::notation::hex_of;
use super::state::{army, bit, starting_army, Kind, Log, Opts, Rally, State, ARMIES, ARMY};

type Res<'a, T> = IResult<&'a str, T>;

const FIELDS: [&str; 9] = [
    "map", "mover", "turn", "armies", "options", "offers", "force", "rally", "result",
];

/// Army initials, in army order.
const INITIAL: [char; 5] = ['H', 'E', 'D', 'G', 'F'];

/// The optional rules as written in the `Options` tag when not the default.
const OPTION_WORDS: [&str; 4] = [
    "prisoner-exchange",
    "no-max-5-units",
    "no-arms-race",
    "no-hero-or-mounted",
];

/// Which optional rules differ from the defaults, in [`OPTION_WORDS`] order.
fn option_flags(o: &Opts) -> [bool; 4] {
    let d = Opts::default();
    [
        o.prisoner_exchange != d.prisoner_exchange,
        o.max5 != d.max5,
        o.arms_race != d.arms_race,
        o.hero_or_mounted != d.hero_or_mounted,
    ]
}

/// `-` for an empty list, else the items joined by `,`.
fn list(out: &mut String, items: impl Iterator<Item = String>) {
    let start = out.len();
    for item in items {
        if out.len() > start {
            out.push(',');
        }
        out.push_str(&item);
    }
    if out.len() == start {
        out.push('-');
    }
}

/// Append the position notation of `s`.
pub fn write(s: &State, out: &mut String) {
    write_map(s, out);
    out.push(' ');
    out.push_str(army(s.mover));
    out.push_str(&format!(" {} ", s.turn_no));
    list(out, s.sides().iter().map(|&side| army_text(s, side)));
    out.push(' ');
    let flags = option_flags(&s.opts);
    list(
        out,
        OPTION_WORDS
            .iter()
            .zip(flags)
            .filter(|(_, on)| *on)
            .map(|(w, _)| w.to_string()),
    );
    out.push(' ');
    list(
        out,
        ARMIES.into_iter().flat_map(|p| {
            ARMIES
                .into_iter()
                .filter(move |&x| s.offers[usize::from(p)] & bit(x) != 0)
                .map(move |x| format!("{}>{}", army(p), army(x)))
        }),
    );
    out.push(' ');
    list(out, hexes(s.force_mask).map(|h| h.to_string()));
    out.push(' ');
    write_rally(s, out);
    out.push(' ');
    match s.result {
        Outcome::Ongoing => out.push('*'),
        Outcome::Won(w) => out.push_str(army(w)),
        _ => out.push_str("draw"),
    }
}

/// The map: rows A to E, units as army initial and kind, runs of empty
/// hexes as a digit.
fn write_map(s: &State, out: &mut String) {
    for (row, &len) in ROW_LEN.iter().enumerate() {
        if row > 0 {
            out.push('/');
        }
        let mut empty = 0u8;
        for num in 1..=usize::from(len) {
            let Some(h) = Hex::at(row, num) else { continue };
            match s.unit(h) {
                None => empty += 1,
                Some((side, kind)) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(INITIAL[usize::from(side)]);
                    out.push(kind.letter());
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
    }
}

/// One army of the armies field: its Reserve (or `out`) and its Captured
/// pile, if it holds any prisoners.
fn army_text(s: &State, side: Side) -> String {
    let i = usize::from(side);
    let mut t = format!("{}:", army(side));
    if s.in_game(side) {
        let r = s.reserve[i];
        t.push_str(&format!("R{}M{}H{}", r[0], r[1], r[2]));
    } else {
        t.push_str("out");
    }
    let mut pile = String::new();
    for (o, &initial) in INITIAL.iter().enumerate() {
        for k in Kind::ALL {
            let n = s.pile[i][o][k.idx()];
            if n > 0 && o != i {
                pile.push(initial);
                pile.push(k.letter());
                pile.push_str(&n.to_string());
            }
        }
    }
    if !pile.is_empty() {
        t.push(':');
        t.push_str(&pile);
    }
    t
}

/// The rally field: `-`, or the rally waiting for its flips.
fn write_rally(s: &State, out: &mut String) {
    match s.pending {
        None => out.push('-'),
        Some(r) => {
            out.push_str(&format!("{}:{}", army(r.side), r.flips));
            if let Some(p) = r.pile {
                out.push(':');
                out.push_str(army(p));
            }
            if let Some(h) = r.at {
                out.push('@');
                out.push_str(&h.to_string());
            }
        }
    }
}

/// Split `f`'s value at `,` into items, each with the rest of the field
/// from it (a suffix, for pointing at it); none for `-`.
fn items<'a>(f: &PositionField<'a>) -> Vec<(&'a str, &'a str)> {
    if f.value == "-" {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut rest = f.value;
    loop {
        let len = rest.find(',').unwrap_or(rest.len());
        out.push((&rest[..len], rest));
        match rest.get(len + 1..) {
            Some(r) => rest = r,
            None => break,
        }
    }
    out
}

/// The army named exactly `name`.
fn army_named(
    f: &PositionField<'_>,
    name: &str,
    at: &str,
    what: &str,
) -> Result<Side, PositionParseError> {
    ARMY.iter()
        .position(|a| *a == name)
        .map(|i| Side(i as u8))
        .ok_or_else(|| {
            f.err(
                at,
                name.len(),
                format!("expected {what}: Human, Elf, Dwarf, Goblin or Falcon, not `{name}`"),
            )
        })
}

/// One token of a map row at the start of `here`: a unit (put on hex
/// `num` of `row`) or a run of empty hexes. Returns the rest after it and
/// how many hexes it covers; a run right after another is refused.
fn map_token<'a>(
    f: &PositionField<'_>,
    s: &mut State,
    (row, num): (usize, usize),
    here: &'a str,
    last_empty: bool,
) -> Result<(&'a str, usize), PositionParseError> {
    let unit: Res<'_, (char, char)> = (one_of("HEDGF"), one_of("RMH")).parse(here);
    if let Ok((r, (a, k))) = unit {
        let side = Side(INITIAL.iter().position(|&c| c == a).unwrap_or(0) as u8);
        let kind = match k {
            'R' => Kind::R,
            'M' => Kind::M,
            _ => Kind::H,
        };
        if let Some(h) = Hex::at(row, num) {
            s.put(h, side, kind);
        }
        return Ok((r, 1));
    }
    let run: Res<'_, &str> = digit1.parse(here);
    let Ok((r, d)) = run else {
        return Err(f.err(
            here,
            2.min(here.len()),
            "expected a unit (army initial H E D G F and kind R M H, e.g. ER) \
             or a digit (empty hexes)",
        ));
    };
    if last_empty {
        return Err(f.err(here, d.len(), "write a run of empty hexes as one digit"));
    }
    let n = d.parse::<usize>().unwrap_or(0);
    if n == 0 {
        return Err(f.err(here, d.len(), "an empty run is 1 to 5 hexes"));
    }
    Ok((r, n))
}

/// Read map row `row` from the start of `rest` into `s`, leaving `rest`
/// at its end.
fn map_row(
    f: &PositionField<'_>,
    s: &mut State,
    row: usize,
    rest: &mut &str,
) -> Result<(), PositionParseError> {
    let len = usize::from(ROW_LEN[row]);
    let letter = char::from(b'A' + row as u8);
    let row_start = *rest;
    let mut num = 1usize;
    let mut last_empty = false;
    while !rest.is_empty() && !rest.starts_with('/') {
        let here = *rest;
        let (r, n) = map_token(f, s, (row, num), here, last_empty)?;
        // A run of empty hexes is the token that starts with a digit.
        last_empty = here.starts_with(|c: char| c.is_ascii_digit());
        if num + n > len + 1 {
            return Err(f.err(
                row_start,
                row_start.len() - r.len(),
                format!("row {letter} has more than its {len} hexes"),
            ));
        }
        num += n;
        *rest = r;
    }
    if num <= len {
        return Err(f.err(
            row_start,
            row_start.len() - rest.len(),
            format!("row {letter} has {} hexes, expected {len}", num - 1),
        ));
    }
    Ok(())
}

fn map(f: &PositionField<'_>, s: &mut State) -> Result<(), PositionParseError> {
    let rows = Parts {
        whole: "the map",
        name: "rows",
        count: ROW_LEN.len(),
        order: "A to E",
    };
    f.parts(rows, |row, rest| map_row(f, s, row, rest))
}

/// A count after a letter: one or more digits, at most 9.
fn count(i: &str) -> Option<(&str, u8)> {
    let r: Res<'_, &str> = digit1.parse(i);
    let (rest, d) = r.ok()?;
    let n = d.parse::<u8>().ok().filter(|&n| n <= 9)?;
    Some((rest, n))
}

fn reserve(text: &str) -> Option<[u8; 3]> {
    let mut out = [0u8; 3];
    let mut rest = text;
    for (i, k) in ['R', 'M', 'H'].into_iter().enumerate() {
        rest = rest.strip_prefix(k)?;
        let (r, n) = count(rest)?;
        out[i] = n;
        rest = r;
    }
    rest.is_empty().then_some(out)
}

fn armies(f: &PositionField<'_>, s: &mut State) -> Result<(), PositionParseError> {
    let list = items(f);
    if !(2..=5).contains(&list.len()) {
        return Err(f.whole(format!(
            "expected 2 to 5 armies in turn order, separated by `,`, got {}",
            list.len()
        )));
    }
    for &(item, at) in &list {
        let mut parts = item.splitn(3, ':');
        let name = parts.next().unwrap_or("");
        let side = army_named(f, name, at, "an army")?;
        if s.plays(side) {
            return Err(f.err(at, name.len(), format!("{name} is listed twice")));
        }
        s.seat(side);
        let res_at = &at[(name.len() + 1).min(at.len())..];
        let res = parts.next().ok_or_else(|| {
            f.err(
                at,
                item.len(),
                format!("expected {name}'s Reserve after `:`, e.g. {name}:R4M1H1, or {name}:out"),
            )
        })?;
        if res == "out" {
            s.out |= bit(side);
        } else {
            s.reserve[usize::from(side)] = reserve(res).ok_or_else(|| {
                f.err(
                    res_at,
                    res.len(),
                    "expected a Reserve such as R4M1H1 (Regulars, Mounted, Heroes), or out",
                )
            })?;
        }
        if let Some(pile) = parts.next() {
            let pile_at = &res_at[(res.len() + 1).min(res_at.len())..];
            let mut rest = pile;
            if rest.is_empty() {
                return Err(f.err(pile_at, 1, "expected a Captured pile after `:`, e.g. ER2"));
            }
            while !rest.is_empty() {
                let here = &pile_at[pile.len() - rest.len()..];
                let entry: Res<'_, (char, char)> = (one_of("HEDGF"), one_of("RMH")).parse(rest);
                let parsed = entry.ok().and_then(|(r, (a, k))| {
                    let (r, n) = count(r)?;
                    Some((r, a, k, n))
                });
                let Some((r, a, k, n)) = parsed else {
                    return Err(f.err(
                        here,
                        3.min(here.len()),
                        "expected a Captured pile entry: army initial, kind and count, e.g. ER2",
                    ));
                };
                let o = INITIAL.iter().position(|&c| c == a).unwrap_or(0);
                let kind = ['R', 'M', 'H'].iter().position(|&c| c == k).unwrap_or(0);
                if n == 0 || o == usize::from(side) {
                    return Err(f.err(
                        here,
                        rest.len() - r.len(),
                        format!("{name}'s Captured pile holds other armies' units, at least one"),
                    ));
                }
                s.pile[usize::from(side)][o][kind] = n;
                rest = r;
            }
        }
    }
    Ok(())
}

fn options(f: &PositionField<'_>) -> Result<Opts, PositionParseError> {
    let mut on = [false; 4];
    for (item, at) in items(f) {
        let k = OPTION_WORDS
            .iter()
            .position(|w| *w == item)
            .ok_or_else(|| {
                f.err(
                    at,
                    item.len(),
                    format!(
                        "expected - or optional rules that differ from the defaults: {}",
                        OPTION_WORDS.join(", ")
                    ),
                )
            })?;
        on[k] = true;
    }
    let d = Opts::default();
    Ok(Opts {
        prisoner_exchange: d.prisoner_exchange != on[0],
        max5: d.max5 != on[1],
        arms_race: d.arms_race != on[2],
        hero_or_mounted: d.hero_or_mounted != on[3],
    })
}

fn playing(
    f: &PositionField<'_>,
    s: &State,
    side: Side,
    at: &str,
    len: usize,
) -> Result<(), PositionParseError> {
    if s.plays(side) {
        Ok(())
    } else {
        Err(f.err(
            at,
            len,
            format!("{} does not play in this game", army(side)),
        ))
    }
}

fn offers(f: &PositionField<'_>, s: &mut State) -> Result<(), PositionParseError> {
    for (item, at) in items(f) {
        let Some((p, x)) = item.split_once('>') else {
            return Err(f.err(
                at,
                item.len(),
                "expected - or offers such as Human>Elf (Human consents to exchange with Elf)",
            ));
        };
        let p = army_named(f, p, at, "the army making the offer")?;
        let x_at = &at[(army(p).len() + 1).min(at.len())..];
        let x = army_named(f, x, x_at, "the army offered an exchange")?;
        playing(f, s, p, at, army(p).len())?;
        playing(f, s, x, x_at, army(x).len())?;
        if p == x {
            return Err(f.err(at, item.len(), "an army makes no offer to itself"));
        }
        s.offers[usize::from(p)] |= bit(x);
    }
    Ok(())
}

fn hex(f: &PositionField<'_>, text: &str, at: &str) -> Result<Hex, PositionParseError> {
    hex_of(text).map_err(|why| {
        f.err(
            at,
            text.len(),
            why.unwrap_or_else(|| format!("expected a hex such as C2, not `{text}`")),
        )
    })
}

fn force(f: &PositionField<'_>) -> Result<u32, PositionParseError> {
    let mut mask = 0;
    for (item, at) in items(f) {
        mask |= hex(f, item, at)?.bit();
    }
    Ok(mask)
}

fn rally(f: &PositionField<'_>, s: &State) -> Result<Option<Rally>, PositionParseError> {
    if f.value == "-" {
        return Ok(None);
    }
    let text = f.value;
    let (head, at) = match text.split_once('@') {
        Some((head, h)) => (head, Some(hex(f, h, &text[head.len() + 1..])?)),
        None => (text, None),
    };
    let mut parts = head.split(':');
    let name = parts.next().unwrap_or("");
    let side = army_named(f, name, text, "the rallying army")?;
    playing(f, s, side, text, name.len())?;
    let flips_at = &text[(name.len() + 1).min(text.len())..];
    let flips =
        match parts.next() {
            Some("1") => 1,
            Some("2") => 2,
            _ => return Err(f.err(
                flips_at,
                1,
                "expected the number of coin flips, 1 or 2, after the rallying army, e.g. Elf:1",
            )),
        };
    let pile = match parts.next() {
        None => None,
        Some(p) => {
            let p_at = &flips_at[2.min(flips_at.len())..];
            let p = army_named(f, p, p_at, "the army whose Captured pile is named")?;
            playing(f, s, p, p_at, army(p).len())?;
            Some(p)
        }
    };
    if parts.next().is_some() {
        return Err(f.whole("expected a rally such as Elf:1, Elf:1:Human or Goblin:2@C2"));
    }
    Ok(Some(Rally {
        side,
        pile,
        at,
        flips,
    }))
}

/// Every army's units (map, Reserve, Captured piles) within its starting
/// army; units only of armies that play, and none of an army that is out
/// on the map.
fn check_units(s: &State) -> Result<(), String> {
    for side in ARMIES {
        let i = usize::from(side);
        let board = s.board();
        let on_map = (0..N_HEX).filter(|&h| board[h] != 0 && (board[h] - 1) / 3 == side.0);
        let has_units = on_map.clone().count() > 0
            || (0..5).any(|p| {
                s.pile[p][i].iter().any(|&n| n > 0) || s.pile[i][p].iter().any(|&n| n > 0)
            });
        if !s.plays(side) {
            if has_units {
                return Err(format!(
                    "{} does not play in this game: it has no units",
                    army(side)
                ));
            }
            continue;
        }
        if !s.in_game(side) && on_map.count() > 0 {
            return Err(format!("{} is out: it has no units on the map", army(side)));
        }
        let start = starting_army(side);
        for k in Kind::ALL {
            let map = s.own_kind(side, k).count_ones();
            let held: u32 = (0..5).map(|p| u32::from(s.pile[p][i][k.idx()])).sum();
            let all = map + u32::from(s.reserve[i][k.idx()]) + held;
            if all > u32::from(start[k.idx()]) {
                return Err(format!(
                    "{} has {all} {} units on the map, in Reserve and captured: it starts with {}",
                    army(side),
                    k.name(),
                    start[k.idx()]
                ));
            }
        }
    }
    Ok(())
}

/// Read a position.
pub fn parse(text: &str) -> Result<State, PositionParseError> {
    let [m, mv, t, a, o, of, fo, ra, re] = position_fields(text, FIELDS)?;
    let mut s = State::empty();
    map(&m, &mut s)?;
    armies(&a, &mut s)?;
    s.mover = army_named(&mv, mv.value, mv.value, "the army to move")?;
    playing(&mv, &s, s.mover, mv.value, mv.value.len())?;
    s.turn_no = match digit1::<_, nom::error::Error<&str>>.parse(t.value) {
        Ok(("", d)) => d.parse::<u32>().ok().filter(|&n| n >= 1),
        _ => None,
    }
    .ok_or_else(|| t.whole("expected the turn number, from 1"))?;
    s.log = Log::new(s.turn_no);
    s.opts = options(&o)?;
    offers(&of, &mut s)?;
    s.force_mask = force(&fo)?;
    s.pending = rally(&ra, &s)?;
    s.result = match re.value {
        "*" => Outcome::Ongoing,
        "draw" => Outcome::Draw,
        w => {
            let side = army_named(
                &re,
                w,
                w,
                "the result: * while the game goes on, draw, or the winning army",
            )?;
            playing(&re, &s, side, w, w.len())?;
            Outcome::Won(side)
        }
    };
    check_units(&s).map_err(|why| m.whole(why))?;
    Ok(s)
}
