//! The set-ups (the header's `Setup` tag) and their boards: one board
//! (9 x 12), Misery Run (two boards end to end with the Run between: 9 x
//! 25) and Battle Alley (two boards side by side with the Alley between:
//! 19 x 12, four castles). Each [`Layout`] names its geometry and its
//! sides. herald plays every one of them.

use crate::game::Side;

use crate::games::battlegates::geometry::board::{
    Army, Castle, Dir, Entrance, Geometry, Region, Sq, NORTH, SOUTH,
};

/// Five portals on `row`, at the columns `b d e f h` of the board whose
/// first column is `first`.
const fn portals(first: u8, row: u8) -> [Sq; 5] {
    [
        Sq::new(first + 1, row),
        Sq::new(first + 3, row),
        Sq::new(first + 4, row),
        Sq::new(first + 5, row),
        Sq::new(first + 7, row),
    ]
}

/// A castle of `side` behind `row` (the first row: its entrances face
/// south; else north), entrances at columns `c` and `g` of the board
/// whose first column is `first`.
const fn castle(side: Side, first: u8, row: u8) -> Castle {
    let inward = if row == 0 { Dir::S } else { Dir::N };
    Castle {
        side,
        entrances: [
            Entrance::new(first + 2, row, inward),
            Entrance::new(first + 6, row, inward),
        ],
    }
}

/// The one-board game: 9 x 12, South's castle behind row 1, North's
/// behind row 12; South sets up on rows 1-6, North on rows 7-12, and
/// nothing touches the middle line between them.
pub const ONE_BOARD: Geometry = Geometry {
    sides: &SOUTH_NORTH,
    cols: 9,
    rows: 12,
    castles: &[castle(SOUTH, 0, 0), castle(NORTH, 0, 11)],
    armies: &[
        Army {
            side: SOUTH,
            portals: portals(0, 0),
        },
        Army {
            side: NORTH,
            portals: portals(0, 11),
        },
    ],
    regions: &[
        Region {
            side: SOUTH,
            name: "half",
            cols: (0, 8),
            rows: (0, 5),
        },
        Region {
            side: NORTH,
            name: "half",
            cols: (0, 8),
            rows: (6, 11),
        },
    ],
    setup_lines: &[6],
    alley: None,
    run: None,
};

/// Misery Run: 9 x 25, South's board rows 1-12, the Run row 13, North's
/// board rows 14-25. The castles at the far ends only (the joined ends
/// have none: their entrance edges are open edges next to the Run).
/// Each side leads two armies: South from rows 1 and 12, North from
/// rows 25 and 14. No set-up piece touches either long edge of row 13.
pub const MISERY_RUN: Geometry = Geometry {
    sides: &SOUTH_NORTH,
    cols: 9,
    rows: 25,
    castles: &[castle(SOUTH, 0, 0), castle(NORTH, 0, 24)],
    armies: &[
        Army {
            side: SOUTH,
            portals: portals(0, 0),
        },
        Army {
            side: SOUTH,
            portals: portals(0, 11),
        },
        Army {
            side: NORTH,
            portals: portals(0, 24),
        },
        Army {
            side: NORTH,
            portals: portals(0, 13),
        },
    ],
    regions: &[
        Region {
            side: SOUTH,
            name: "board",
            cols: (0, 8),
            rows: (0, 11),
        },
        Region {
            side: NORTH,
            name: "board",
            cols: (0, 8),
            rows: (13, 24),
        },
    ],
    setup_lines: &[12, 13],
    alley: None,
    run: Some(12),
};

/// Castle1 to Castle4: sides 2 to 5 (after South and North; see
/// [`crate::games::battlegates::geometry::board::SIDE_NAMES`]).
pub const CASTLES: [Side; 4] = [Side(2), Side(3), Side(4), Side(5)];

/// Battle Alley: 19 x 12, the west board columns a-i, the Alley column
/// j, the east board columns k-s. Four castles: Castle1 at the west
/// board's South end, Castle2 its North end, Castle3 the east board's
/// South end, Castle4 its North end; each sets up on its half-board, off
/// its board's middle line.
pub const BATTLE_ALLEY: Geometry = Geometry {
    sides: &FOUR_CASTLES,
    cols: 19,
    rows: 12,
    castles: &[
        castle(CASTLES[0], 0, 0),
        castle(CASTLES[1], 0, 11),
        castle(CASTLES[2], 10, 0),
        castle(CASTLES[3], 10, 11),
    ],
    armies: &[
        Army {
            side: CASTLES[0],
            portals: portals(0, 0),
        },
        Army {
            side: CASTLES[1],
            portals: portals(0, 11),
        },
        Army {
            side: CASTLES[2],
            portals: portals(10, 0),
        },
        Army {
            side: CASTLES[3],
            portals: portals(10, 11),
        },
    ],
    regions: &[
        Region {
            side: CASTLES[0],
            name: "half-board",
            cols: (0, 8),
            rows: (0, 5),
        },
        Region {
            side: CASTLES[1],
            name: "half-board",
            cols: (0, 8),
            rows: (6, 11),
        },
        Region {
            side: CASTLES[2],
            name: "half-board",
            cols: (10, 18),
            rows: (0, 5),
        },
        Region {
            side: CASTLES[3],
            name: "half-board",
            cols: (10, 18),
            rows: (6, 11),
        },
    ],
    setup_lines: &[6],
    alley: Some(9),
    run: None,
};

/// A set-up: the header's `Setup` tag.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Layout {
    /// `one-board`: South and North on one board.
    OneBoard,
    /// `misery-run`: South and North, two armies each, end to end.
    MiseryRun,
    /// `four-castles`: two players, two castles each, on Battle Alley.
    FourCastles,
    /// `four-castles-allies`: four players in two teams.
    FourCastlesAllies,
    /// `four-castles-solo`: four players, each alone.
    FourCastlesSolo,
}

const SOUTH_NORTH: [&str; 2] = ["South", "North"];
const FOUR_CASTLES: [&str; 4] = ["Castle1", "Castle2", "Castle3", "Castle4"];

impl Layout {
    /// Every set-up, the default first.
    pub const ALL: [Layout; 5] = [
        Layout::OneBoard,
        Layout::MiseryRun,
        Layout::FourCastles,
        Layout::FourCastlesAllies,
        Layout::FourCastlesSolo,
    ];

    /// Its `Setup` tag value.
    pub fn tag(self) -> &'static str {
        match self {
            Layout::OneBoard => "one-board",
            Layout::MiseryRun => "misery-run",
            Layout::FourCastles => "four-castles",
            Layout::FourCastlesAllies => "four-castles-allies",
            Layout::FourCastlesSolo => "four-castles-solo",
        }
    }

    /// The set-up a `Setup` tag value names (any case).
    pub fn from_tag(text: &str) -> Option<Layout> {
        Layout::ALL
            .into_iter()
            .find(|l| l.tag().eq_ignore_ascii_case(text))
    }

    /// Its board.
    pub fn geometry(self) -> &'static Geometry {
        match self {
            Layout::OneBoard => &ONE_BOARD,
            Layout::MiseryRun => &MISERY_RUN,
            Layout::FourCastles | Layout::FourCastlesAllies | Layout::FourCastlesSolo => {
                &BATTLE_ALLEY
            }
        }
    }

    /// Its sides' names, in turn order (its board's).
    pub fn sides(self) -> &'static [&'static str] {
        self.geometry().sides
    }

    /// Whether it is one of the three four-castle set-ups on Battle
    /// Alley.
    pub fn four_castles(self) -> bool {
        matches!(
            self,
            Layout::FourCastles | Layout::FourCastlesAllies | Layout::FourCastlesSolo
        )
    }

    /// Its `Hands` value when the header has none: `hidden`, except on
    /// the four-castle boards, which are played with open hands.
    pub fn default_hands(self) -> &'static str {
        if self.four_castles() {
            "open"
        } else {
            "hidden"
        }
    }

    /// Whether its castles play in two teams, 1+3 and 2+4 (`four-castles`
    /// and `four-castles-allies`).
    pub fn teams(self) -> bool {
        matches!(self, Layout::FourCastles | Layout::FourCastlesAllies)
    }

    /// How many players play it: two, or four in `four-castles-allies`
    /// and `four-castles-solo`.
    pub fn players(self) -> usize {
        match self {
            Layout::FourCastlesAllies | Layout::FourCastlesSolo => 4,
            _ => 2,
        }
    }

    /// How many whole decks it plays with: one for two players; for
    /// four, two unless the `Decks` tag says one (`tag`).
    pub fn decks(self, tag: Option<u8>) -> u8 {
        if self.players() == 2 {
            1
        } else {
            tag.unwrap_or(2)
        }
    }

    /// A side's maze slots, in order: each kind's in a block, Brick
    /// walls, Gates, Long gates (twenty on Misery Run, else ten).
    pub fn slots(self) -> &'static [&'static str] {
        match self {
            Layout::MiseryRun => &MISERY_RUN_SLOTS,
            _ => &ONE_BOARD_SLOTS,
        }
    }

    /// The cards a hand holds between turns: four for a hand two castles
    /// share, else three.
    pub fn hand_size(self) -> u32 {
        if self.teams() {
            4
        } else {
            3
        }
    }
}

/// Every side's slots on one board (and on Battle Alley), in order.
pub const ONE_BOARD_SLOTS: [&str; 10] =
    ["w1", "w2", "w3", "w4", "g1", "g2", "g3", "l1", "l2", "l3"];

/// A side's twenty slots on Misery Run: eight Brick walls, six Gates and
/// six Long gates.
pub const MISERY_RUN_SLOTS: [&str; 20] = [
    "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "g1", "g2", "g3", "g4", "g5", "g6", "l1", "l2",
    "l3", "l4", "l5", "l6",
];

/// Why a `Setup` word that names no set-up is refused.
pub fn unknown_setup(tag: &str) -> String {
    let played: Vec<String> = Layout::ALL
        .iter()
        .map(|l| format!("\"{}\"", l.tag()))
        .collect();
    format!(
        "Setup \"{tag}\": this herald plays Setup {}",
        played.join(", ")
    )
}

/// The squares any set-up has, columns `a`-`s` and rows `1`-`25`, with
/// nothing on them: for reading a piece's text where the game's board is
/// not at hand (a hidden value's form); the game's own board judges it
/// once it is opened.
pub const ANY_BOARD: Geometry = Geometry {
    sides: &[],
    cols: 19,
    rows: 25,
    castles: &[],
    armies: &[],
    regions: &[],
    setup_lines: &[],
    alley: None,
    run: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::battlegates::geometry::board::{read_edge, read_sq, Edge, Loc, Post};

    fn sq(text: &str) -> Sq {
        read_sq(&ANY_BOARD, text).expect("a square").0
    }

    fn edge(g: &Geometry, text: &str) -> Edge {
        read_edge(g, text).expect("an edge").0
    }

    fn entrance_squares(g: &Geometry, side: Side) -> Vec<String> {
        g.castle(side)
            .map(|c| c.entrances.iter().map(|e| e.square.to_string()).collect())
            .unwrap_or_default()
    }

    fn portal_text(g: &Geometry, side: Side) -> String {
        g.portals(side)
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn squares_read_and_write_for_columns_a_to_s_and_rows_1_to_25() {
        assert_eq!(read_sq(&ANY_BOARD, "s25"), Some((Sq::new(18, 24), 3)));
        assert_eq!(read_sq(&ANY_BOARD, "J7"), Some((Sq::new(9, 6), 2)));
        assert_eq!(Sq::new(18, 24).to_string(), "s25");
        assert_eq!(Sq::new(9, 6).to_string(), "j7");
        // Each board reads only its own squares.
        assert_eq!(read_sq(&ONE_BOARD, "j7"), None);
        assert_eq!(read_sq(&ONE_BOARD, "a13"), None);
        assert_eq!(read_sq(&MISERY_RUN, "i25"), Some((Sq::new(8, 24), 3)));
        assert_eq!(read_sq(&MISERY_RUN, "i26"), None);
        assert_eq!(read_sq(&MISERY_RUN, "j1"), None);
        assert_eq!(read_sq(&BATTLE_ALLEY, "s12"), Some((Sq::new(18, 11), 3)));
        assert_eq!(read_sq(&BATTLE_ALLEY, "a13"), None);
        assert_eq!(read_sq(&ANY_BOARD, "t1"), None);
    }

    #[test]
    fn edges_and_gates_read_and_write_on_the_large_boards() {
        // Wj7e: the east edge of j7, the west edge of k7.
        let e = edge(&BATTLE_ALLEY, "j7e");
        assert_eq!(e, Edge::v(10, 6));
        assert_eq!(e.to_string(), "j7e");
        assert_eq!(edge(&BATTLE_ALLEY, "k7w").to_string(), "j7e");
        // d13n is d14s; the top perimeter of Misery Run is written from
        // row 25.
        assert_eq!(edge(&MISERY_RUN, "d14s").to_string(), "d13n");
        assert_eq!(Edge::h(3, 25).to_string(), "d25n");
        assert_eq!(Edge::v(19, 0).to_string(), "s1e");
        // Gd13nw: a Gate on d13n hinged at its west end, the post c13ne.
        let (piece, n) =
            crate::games::battlegates::mazes::maze::read_piece(&MISERY_RUN, "Gd13nw").unwrap();
        assert_eq!((piece.to_string().as_str(), n), ("Gd13nw", 6));
        assert_eq!(Post { x: 3, y: 13 }.to_string(), "c13ne");
        assert_eq!(Post { x: 19, y: 12 }.to_string(), "s12ne");
    }

    #[test]
    fn the_one_board_is_9_by_12_with_a_castle_at_each_end() {
        let g = &ONE_BOARD;
        assert_eq!((g.cols, g.rows, g.square_count()), (9, 12, 108));
        assert_eq!(g.last_sq().to_string(), "i12");
        assert_eq!(entrance_squares(g, SOUTH), ["c1", "g1"]);
        assert_eq!(entrance_squares(g, NORTH), ["c12", "g12"]);
        assert_eq!(portal_text(g, SOUTH), "b1 d1 e1 f1 h1");
        assert_eq!(portal_text(g, NORTH), "b12 d12 e12 f12 h12");
        // The entrances are open; the rest of the outer line is stone.
        assert!(!g.is_stone(edge(g, "c1s")));
        assert!(!g.is_stone(edge(g, "g12n")));
        assert!(g.is_stone(edge(g, "d1s")));
        assert!(g.is_stone(edge(g, "a5w")));
        assert!(g.is_stone(edge(g, "i12e")));
        assert!(!g.is_stone(edge(g, "d6n")));
        // South's half: rows 1-6 below the middle line (posts y 0-5).
        assert!(g.post_in_region(SOUTH, Post { x: 4, y: 5 }));
        assert!(!g.post_in_region(SOUTH, Post { x: 4, y: 6 }));
        assert!(!g.post_in_region(NORTH, Post { x: 4, y: 6 }));
        assert!(g.post_in_region(NORTH, Post { x: 4, y: 7 }));
        assert!(g.post_in_region(NORTH, Post { x: 9, y: 12 }));
        assert!(!g.post_in_region(SOUTH, Post { x: 4, y: 7 }));
        assert_eq!(
            g.region(NORTH).map(|r| r.describe(g)),
            Some("rows 7 to 12".into())
        );
        assert_eq!(g.alley, None);
        assert_eq!(g.run, None);
    }

    #[test]
    fn misery_run_is_9_by_25_with_castles_only_at_the_far_ends() {
        let g = &MISERY_RUN;
        assert_eq!((g.cols, g.rows, g.square_count()), (9, 25, 225));
        assert_eq!(g.last_sq().to_string(), "i25");
        assert_eq!(entrance_squares(g, SOUTH), ["c1", "g1"]);
        assert_eq!(entrance_squares(g, NORTH), ["c25", "g25"]);
        assert_eq!(g.castles.len(), 2);
        // The joined ends have no castle: c12n/c13s and g13n/g14s are
        // interior edges, and no square there leads to a Keep.
        for e in ["c12n", "g12n", "c13n", "g13n"] {
            let e = edge(g, e);
            assert!(!g.edge_on_perimeter(e) && !g.is_stone(e));
            assert_eq!(g.entrance_at(e), None);
        }
        assert_eq!(g.keep_next_to(sq("c12")), None);
        assert_eq!(g.keep_next_to(sq("g14")), None);
        assert!(!g.is_stone(edge(g, "g25n")));
        assert!(g.is_stone(edge(g, "a13w")));
        assert!(g.is_stone(edge(g, "i13e")));
        // Two armies a side.
        assert_eq!(portal_text(g, SOUTH), "b1 d1 e1 f1 h1 b12 d12 e12 f12 h12");
        assert_eq!(
            portal_text(g, NORTH),
            "b25 d25 e25 f25 h25 b14 d14 e14 f14 h14"
        );
        assert_eq!((g.armies_of(SOUTH), g.armies_of(NORTH)), (2, 2));
        // Each side's own board; no post on either long edge of row 13.
        assert_eq!(g.run, Some(12));
        assert!(g.post_in_region(SOUTH, Post { x: 4, y: 11 }));
        assert!(!g.post_in_region(SOUTH, Post { x: 4, y: 12 }));
        assert!(!g.post_in_region(NORTH, Post { x: 4, y: 13 }));
        assert!(g.post_in_region(NORTH, Post { x: 4, y: 14 }));
        assert!(g.post_in_region(NORTH, Post { x: 0, y: 25 }));
        assert!(!g.post_in_region(NORTH, Post { x: 4, y: 11 }));
        assert_eq!(
            g.region(SOUTH).map(|r| r.describe(g)),
            Some("rows 1 to 12".into())
        );
        assert_eq!(
            g.region(NORTH).map(|r| r.describe(g)),
            Some("rows 14 to 25".into())
        );
    }

    #[test]
    fn battle_alley_is_19_by_12_with_four_castles() {
        let g = &BATTLE_ALLEY;
        assert_eq!((g.cols, g.rows, g.square_count()), (19, 12, 228));
        assert_eq!(g.last_sq().to_string(), "s12");
        let [c1, c2, c3, c4] = CASTLES;
        assert_eq!(entrance_squares(g, c1), ["c1", "g1"]);
        assert_eq!(entrance_squares(g, c2), ["c12", "g12"]);
        assert_eq!(entrance_squares(g, c3), ["m1", "q1"]);
        assert_eq!(entrance_squares(g, c4), ["m12", "q12"]);
        assert_eq!(g.keep_next_to(sq("q12")).map(|(s, _)| s), Some(c4));
        assert_eq!(
            g.entrance_of(c3, sq("m1"))
                .map(|e| (e.edge.to_string(), e.inward)),
            Some(("m1s".into(), Dir::S))
        );
        assert_eq!(portal_text(g, c1), "b1 d1 e1 f1 h1");
        assert_eq!(portal_text(g, c2), "b12 d12 e12 f12 h12");
        assert_eq!(portal_text(g, c3), "l1 n1 o1 p1 r1");
        assert_eq!(portal_text(g, c4), "l12 n12 o12 p12 r12");
        // Stone: the outer line, the Alley's ends included; open: the
        // eight entrances and the Alley's sides.
        for e in ["c1s", "g1s", "m1s", "q1s", "c12n", "g12n", "m12n", "q12n"] {
            assert!(!g.is_stone(edge(g, e)), "{e}");
        }
        for e in ["j1s", "j12n", "a6w", "s6e", "i1s", "k12n"] {
            assert!(g.is_stone(edge(g, e)), "{e}");
        }
        assert!(!g.is_stone(edge(g, "i6e")) && !g.is_stone(edge(g, "j6e")));
        // Across the Alley: an edge between two of its squares.
        assert_eq!(g.alley, Some(9));
        assert!(g.across_alley(edge(g, "j6n")));
        assert!(!g.across_alley(edge(g, "j6e")));
        assert!(!g.across_alley(edge(g, "j1s")));
        assert!(!g.across_alley(edge(g, "i6n")));
        // Each castle's half-board, off its board's middle line.
        assert!(g.post_in_region(c1, Post { x: 9, y: 5 }));
        assert!(!g.post_in_region(c1, Post { x: 10, y: 5 }));
        assert!(!g.post_in_region(c1, Post { x: 4, y: 6 }));
        assert!(g.post_in_region(c2, Post { x: 0, y: 12 }));
        assert!(g.post_in_region(c3, Post { x: 10, y: 0 }));
        assert!(!g.post_in_region(c3, Post { x: 9, y: 0 }));
        assert!(g.post_in_region(c4, Post { x: 19, y: 12 }));
        assert!(!g.post_in_region(c4, Post { x: 15, y: 5 }));
        assert_eq!(
            g.region(c3).map(|r| r.describe(g)),
            Some("columns k to s, rows 1 to 6".into())
        );
    }

    fn check(g: &Geometry, side: Side, pieces: &str) -> Result<(), String> {
        let pieces: Vec<_> = pieces
            .split(' ')
            .map(|t| crate::games::battlegates::mazes::maze::parse_piece(g, t).unwrap())
            .collect();
        crate::games::battlegates::mazes::setup::check_maze(g, side, &pieces)
    }

    #[test]
    fn a_set_up_piece_keeps_off_misery_runs_edges_and_on_its_own_board() {
        let g = &MISERY_RUN;
        assert_eq!(check(g, SOUTH, "Wd11n Ga11en Lb3nw"), Ok(()));
        assert_eq!(
            check(g, SOUTH, "Wd12n"),
            Err(
                "the Brick wall Wd12n touches c12ne on the edge of the Misery Run between rows 12 and 13: nothing may touch it in the set-up"
                    .into()
            )
        );
        assert_eq!(
            check(g, NORTH, "Gd13nw"),
            Err(
                "the Gate Gd13nw touches c13ne on the edge of the Misery Run between rows 13 and 14: nothing may touch it in the set-up"
                    .into()
            )
        );
        assert_eq!(check(g, NORTH, "Wd14n Gc25nw Ld20nw"), Ok(()));
        assert_eq!(
            check(g, NORTH, "Wd10n"),
            Err("the Brick wall Wd10n touches c10ne, outside North's board (rows 14 to 25)".into())
        );
        // North's castle is behind row 25: a Gate may close its entrance.
        assert_eq!(
            check(g, SOUTH, "Gc25nw"),
            Err(
                "the Gate Gc25nw: a Gate may stand across its own side's castle entrance only"
                    .into()
            )
        );
    }

    #[test]
    fn a_set_up_piece_stays_on_its_castles_half_board_and_off_the_alley() {
        let g = &BATTLE_ALLEY;
        let [c1, _, c3, c4] = CASTLES;
        assert_eq!(check(g, c3, "Wk2n Gm1sw Lp3nw Wj3e"), Ok(()));
        assert_eq!(check(g, c1, "Wi3e Gc1sw"), Ok(()));
        assert_eq!(
            check(g, c1, "Gj4nw"),
            Err(
                "the Gate Gj4nw lies across the Alley on j4n: no piece may lie across it in the set-up"
                    .into()
            )
        );
        assert_eq!(
            check(g, c3, "Wb2n"),
            Err(
                "the Brick wall Wb2n touches a2ne, outside Castle3's half-board (columns k to s, rows 1 to 6)"
                    .into()
            )
        );
        assert_eq!(
            check(g, c4, "Wn6n"),
            Err(
                "the Brick wall Wn6n touches m6ne on the middle line between rows 6 and 7: nothing may touch it in the set-up"
                    .into()
            )
        );
        assert_eq!(
            check(g, c1, "Gm1sw"),
            Err(
                "the Gate Gm1sw: a Gate may stand across its own side's castle entrance only"
                    .into()
            )
        );
        assert_eq!(
            check(g, c3, "Wa1s"),
            Err(
                "the Brick wall Wa1s: a1s is on the stone perimeter; only a Gate across its own castle's entrance stands on the board's outer line"
                    .into()
            )
        );
    }

    #[test]
    fn a_random_maze_keeps_the_set_up_rules_of_every_board() {
        let mut x = 11usize;
        let mut pick = |n: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        for layout in Layout::ALL {
            let g = layout.geometry();
            for side in layout.geometry().side_list() {
                let s = side.0;
                let values = crate::games::battlegates::mazes::setup::random_maze(
                    g,
                    side,
                    crate::games::battlegates::mazes::setup::slots(layout),
                    &mut pick,
                );
                let text: Vec<&str> = values.iter().map(|(_, v)| v.as_str()).collect();
                assert_eq!(check(g, side, &text.join(" ")), Ok(()), "{layout:?} {s}");
            }
        }
    }

    #[test]
    fn every_location_index_fits_the_visited_set() {
        for layout in Layout::ALL {
            let g = layout.geometry();
            let last = g
                .squares()
                .map(Loc::Sq)
                .chain(g.castles.iter().map(|c| Loc::Keep(c.side)))
                .map(|l| g.loc_index(l))
                .max();
            assert!(last < Some(crate::games::battlegates::one_board::state::Visited::CAPACITY));
            assert_eq!(g.squares().count(), g.square_count());
            assert!(g.squares().enumerate().all(|(i, s)| g.idx(s) == i));
        }
    }

    #[test]
    fn a_setup_tag_names_a_layout_with_its_board_and_sides() {
        for layout in Layout::ALL {
            assert_eq!(Layout::from_tag(layout.tag()), Some(layout));
        }
        assert_eq!(Layout::from_tag("Misery-Run"), Some(Layout::MiseryRun));
        assert_eq!(Layout::from_tag("two-boards"), None);
        assert_eq!(Layout::OneBoard.geometry(), &ONE_BOARD);
        assert_eq!(Layout::MiseryRun.geometry(), &MISERY_RUN);
        assert_eq!(Layout::FourCastlesSolo.geometry(), &BATTLE_ALLEY);
        assert_eq!(Layout::MiseryRun.sides(), ["South", "North"]);
        assert_eq!(
            Layout::FourCastles.sides(),
            ["Castle1", "Castle2", "Castle3", "Castle4"]
        );
        // Every side of a layout has a castle and a region on its board.
        for layout in Layout::ALL {
            let g = layout.geometry();
            for side in layout.geometry().side_list() {
                assert!(g.castle(side).is_some() && g.region(side).is_some());
                assert!(g.armies_of(side) >= 1);
            }
        }
    }
}
