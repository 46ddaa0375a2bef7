//! Diagram snapshots. Each snapshot was checked by hand against the start
//! position in docs/games/ (not just copied from the output).

use herald::game::{DiagramStyle, Game};
use herald::games::castle_danger::CastleDanger;
use herald::record::{self, Source};
use herald::referee::Referee;

fn start<G: Game>(header: &str) -> G::State {
    let source = Source::new(header.as_bytes()).unwrap();
    let rec = record::parse(&source).unwrap();
    Referee::<G>::start(&rec).unwrap().state().clone()
}

fn board_lines(diagram: &str, n: usize) -> String {
    let plain = anstream::adapter::strip_str(diagram).to_string();
    plain.lines().take(n).collect::<Vec<_>>().join("\n")
}

/// Blue King c1, Wizard e1, Walls c2 e2; Red King c9, Wizard e9, Walls c8
/// e8; river row 5, sand rows 4 and 6, Portals d1 and d9.
#[test]
fn castle_danger_start_position_diagram() {
    let state = start::<CastleDanger>(
        "[Game \"castle-danger\"]\n[Blue \"a\"]\n[Red \"b\"]\n[Result \"*\"]\n",
    );
    let diagram = CastleDanger::diagram(&state, DiagramStyle::default());
    insta::assert_snapshot!(board_lines(&diagram, 11), @r"
         a   b   c   d   e   f   g
      9  .   .   k  [. ] w   .   .   9
      8  .   .   #   .   #   .   .   8
      7  .   .   .   .   .   .   .   7
      6  :   :   :   :   :   :   :   6
      5 ~~~~~~~~~~~~~~~~~~~~~~~~~~~~ 5
      4  :   :   :   :   :   :   :   4
      3  .   .   .   .   .   .   .   3
      2  .   .   #   .   #   .   .   2
      1  .   .   K  [. ] W   .   .   1
         a   b   c   d   e   f   g
    ");
}
