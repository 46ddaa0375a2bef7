//! Pictures: `show --format svg` for each game (snapshots, each read by an
//! XML parser; the pieces drawn against the position; no hidden identity
//! without the key) and the replay page of `replay --html`, loaded in a
//! real headless browser (Debian's `chromium`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use herald::game::{position_text, Game, Setup, Side};
use herald::picture::svg;
use herald::record::{self, Source};
use herald::referee;
use herald::selfplay;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run herald in the crate's root; its standard output (it must succeed).
fn herald(args: &[&str]) -> String {
    let out = Command::cargo_bin("herald")
        .unwrap()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "herald {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `show --format json` of a record after `turn` (the last by default).
fn show_json(record: &str, turn: Option<u32>) -> Value {
    let turn = turn.map(|t| t.to_string());
    let mut args = vec!["show", record, "--format", "json"];
    if let Some(t) = &turn {
        args.extend(["--turn", t.as_str()]);
    }
    serde_json::from_str(&herald(&args)).unwrap()
}

/// How many pieces the position of `show --format json` holds, read from
/// its position notation (or, for Playground Battles, its `pieces`).
fn pieces_in(json: &Value) -> usize {
    let listed = json["pieces"].as_array().map(Vec::len);
    count_pieces(
        json["game"].as_str().unwrap(),
        json["position"].as_str().unwrap(),
        listed,
    )
}

/// The pieces (stacks, units) a position notation holds: its board
/// field's letters; for Playground Battles the pieces the game lists.
fn count_pieces(game: &str, position: &str, listed: Option<usize>) -> usize {
    let board = position.split(' ').next().unwrap();
    match game {
        "castle-danger" => board.chars().filter(|c| "KWBCkwbc".contains(*c)).count(),
        "breach-the-keep" => board.chars().filter(|c| "wWbB".contains(*c)).count(),
        "battle-of-the-dale" => board.chars().filter(char::is_ascii_uppercase).count() / 2,
        "playground-battles" => listed.unwrap(),
        "battlegates" => board.split(['/', ',']).filter(|c| *c != "x").count(),
        // A game without a count of its own here: the pieces it lists.
        other => listed.unwrap_or_else(|| {
            panic!("{other} lists no pieces: count its position's pieces in count_pieces")
        }),
    }
}

/// The SVG read by an XML parser: its root is an `svg` element of the SVG
/// namespace, and it has a title.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(root.children().any(|n| n.has_tag_name("title")));
    doc
}

fn has_class(node: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split(' ').any(|w| w == class))
}

/// The `g.piece` groups of a parsed SVG.
fn pieces<'a>(doc: &'a roxmltree::Document<'a>) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && has_class(n, "piece"))
        .collect()
}

/// The letter written on a piece.
fn letter(piece: &roxmltree::Node<'_, '_>) -> String {
    piece
        .children()
        .filter(|n| n.has_tag_name("text") && !has_class(n, "badge"))
        .filter_map(|n| n.text())
        .collect()
}

/// The SVG of `record` (with `--key`), checked as XML, with as many
/// pieces as the position holds.
fn svg_of(record: &str, key: Option<&str>) -> String {
    let mut args = vec!["show", record, "--format", "svg"];
    if let Some(k) = key {
        args.extend(["--key", k]);
    }
    let svg = herald(&args);
    let doc = parse(&svg);
    let want = pieces_in(&show_json(record, None));
    assert_eq!(pieces(&doc).len(), want, "pieces drawn in {record}");
    svg
}

#[test]
fn castle_danger_svg_draws_pieces_walls_fire_and_a_fired_cannon() {
    let svg = svg_of("fixtures/castle-danger/game-committed-reveals.pbem", None);
    let doc = parse(&svg);
    let fired: Vec<_> = pieces(&doc)
        .into_iter()
        .filter(|p| p.descendants().any(|n| has_class(&n, "badge")))
        .collect();
    assert_eq!(fired.len(), 1);
    assert_eq!(fired[0].attribute("data-cell"), Some("d7"));
    assert_eq!(fired[0].attribute("data-side"), Some("Red"));
    let markers: Vec<_> = doc
        .descendants()
        .filter(|n| has_class(n, "marker"))
        .collect();
    assert_eq!(markers.len(), 1);
    assert_eq!(markers[0].attribute("data-cell"), Some("d2"));
    assert_eq!(
        doc.descendants().filter(|n| has_class(n, "block")).count(),
        2,
        "the Walls on c8 and e8"
    );
    insta::assert_snapshot!("castle_danger", svg);
}

#[test]
fn breach_the_keep_svg_draws_columns_of_cells_keeps_and_gates() {
    let svg = svg_of(
        "fixtures/breach-the-keep/game-breach-opens-a-gate-at-once.pbem",
        None,
    );
    let doc = parse(&svg);
    let cells = doc
        .descendants()
        .filter(|n| has_class(n, "cell") && n.children().any(|c| c.has_tag_name("polygon")))
        .count();
    assert_eq!(cells, 67);
    let gates: Vec<_> = doc.descendants().filter(|n| has_class(n, "gate")).collect();
    assert_eq!(gates.len(), 10);
    // White holds b5, d5 and f5: the Gates between them are closed to
    // Black (spec section 7's example).
    for name in ["c5|c6", "e5|e6"] {
        let gate = gates
            .iter()
            .find(|g| g.attribute("data-edge") == Some(name))
            .unwrap();
        assert!(has_class(gate, "closed"), "{name}");
        assert!(gate.descendants().any(|n| n.text() == Some("\u{d7}B")));
    }
    insta::assert_snapshot!("breach_the_keep", svg);
}

#[test]
fn battlegates_svg_draws_walls_plain_and_each_gate_with_its_hinge_post() {
    let record = "fixtures/battlegates/game-won-by-an-arrow-in-19-turns.pbem";
    let svg = herald(&["show", record, "--turn", "1", "--format", "svg"]);
    let doc = parse(&svg);
    let position = show_json(record, Some(1))["position"]
        .as_str()
        .unwrap()
        .to_string();
    let maze: Vec<&str> = position.split(' ').nth(1).unwrap().split(',').collect();
    let walls: Vec<&str> = maze
        .iter()
        .copied()
        .filter(|p| p.starts_with('W'))
        .collect();
    let gates: Vec<&str> = maze
        .iter()
        .copied()
        .filter(|p| p.starts_with('G'))
        .collect();
    let longs: Vec<&str> = maze
        .iter()
        .copied()
        .filter(|p| p.starts_with('L'))
        .collect();
    // Both mazes are open after turn 1: four walls, three Gates and three
    // Long gates a side.
    assert_eq!(
        (walls.len(), gates.len(), longs.len()),
        (8, 6, 6),
        "{position}"
    );
    let drawn = |class: &str| -> Vec<roxmltree::Node<'_, '_>> {
        doc.descendants()
            .filter(|n| n.has_tag_name("g") && has_class(n, class))
            .collect()
    };
    let title = |n: &roxmltree::Node<'_, '_>| -> String {
        n.children()
            .find(|c| c.has_tag_name("title"))
            .and_then(|t| t.text())
            .unwrap_or("")
            .to_string()
    };
    // A wall is one solid edge, named as a Brick wall, with no mark on it.
    let wall_edges = drawn("wall");
    assert_eq!(wall_edges.len(), walls.len());
    for w in &walls {
        let named = format!("the Brick wall {w}");
        assert!(wall_edges.iter().any(|n| title(n) == named), "{named}");
    }
    assert!(!svg.contains('\u{d7}'), "no crosses on walls or gates");
    // A Gate covers one edge, a Long gate two; each gate's tooltip names
    // it and its hinge post, and one ring marks that post.
    let gate_edges = drawn("gate");
    assert_eq!(gate_edges.len(), gates.len() + 2 * longs.len());
    for g in gates.iter().chain(&longs) {
        let kind = if g.starts_with('G') {
            "Gate"
        } else {
            "Long gate"
        };
        let named = format!("the {kind} {g}, hinged at ");
        let mine: Vec<_> = gate_edges
            .iter()
            .filter(|n| title(n).starts_with(&named))
            .collect();
        assert_eq!(mine.len(), if kind == "Gate" { 1 } else { 2 }, "{g}");
        let rings: usize = mine
            .iter()
            .map(|n| n.children().filter(|c| has_class(c, "hinge")).count())
            .sum();
        assert_eq!(rings, 1, "{g}: one ring on its hinge post");
    }
    assert!(
        svg.contains("swung about the ringed post"),
        "the legend explains the ring"
    );
}

/// The cells outlined as changed by the last line in an SVG.
fn changed_cells(svg: &str) -> Vec<String> {
    let doc = parse(svg);
    doc.descendants()
        .filter(|n| has_class(n, "cell") && n.children().any(|c| has_class(&c, "changed")))
        .map(|n| n.attribute("data-cell").unwrap().to_string())
        .collect()
}

#[test]
fn the_last_line_is_outlined_in_the_picture_of_every_game() {
    // Battlegates, turn 18: North's Archer runs g1-K into South's Keep,
    // killing the Archer there, and its other Archer runs d12-d11-d10-d9.
    let record = "fixtures/battlegates/game-won-long-from-every-card-to-a-gatekeepers-attack.pbem";
    let svg = herald(&["show", record, "--turn", "18", "--format", "svg"]);
    let mut cells = changed_cells(&svg);
    cells.sort();
    assert_eq!(cells, ["South's Keep", "d12", "d9", "g1"]);
    assert!(svg.contains("outlined in orange: what the last line changed"));
    // The text diagram says the same under the board.
    let text = herald(&["show", record, "--turn", "18"]);
    assert!(
        text.ends_with("Changed by 18. North: g1, d9, d12, South's Keep\n"),
        "{text}"
    );
    let start = herald(&["show", record, "--turn", "0"]);
    assert!(!start.contains("Changed by"), "{start}");
    // Castle Danger, turn 1 of the sample: `+C, Cd1-d2-d3`, a Cannon
    // added on d1 that moves on to d3; d1 is empty before and after.
    let svg = herald(&[
        "show",
        "examples/castle-danger.pbem",
        "--turn",
        "1",
        "--format",
        "svg",
    ]);
    let mut cells = changed_cells(&svg);
    cells.sort();
    assert_eq!(cells, ["d3"]);
    // Every game: the start has nothing outlined, a later turn something.
    for record in [
        "examples/castle-danger.pbem",
        "fixtures/breach-the-keep/game-adjacent-ends-read-as-a-two-step-path.pbem",
        "fixtures/battle-of-the-dale/game-2p-advance-leaves-a-named-space.pbem",
        "fixtures/playground-battles/game-attacks-won-lost-and-stalemate.pbem",
        record,
    ] {
        let start = herald(&["show", record, "--turn", "0", "--format", "svg"]);
        assert!(changed_cells(&start).is_empty(), "{record}");
        let last = herald(&["show", record, "--turn", "1", "--format", "svg"]);
        assert!(!changed_cells(&last).is_empty(), "{record}");
    }
}

#[test]
fn battle_of_the_dale_svg_draws_hexes_units_and_the_pending_rally() {
    let svg = svg_of("fixtures/battle-of-the-dale/game-rally-pending.pbem", None);
    let doc = parse(&svg);
    let hexes = doc
        .descendants()
        .filter(|n| has_class(n, "cell") && n.children().any(|c| c.has_tag_name("polygon")))
        .count();
    assert_eq!(hexes, 19);
    let caption: String = doc
        .descendants()
        .filter(|n| has_class(n, "caption"))
        .flat_map(|n| n.descendants().filter_map(|t| t.text()))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(caption.contains("Elf to move"), "{caption}");
    assert!(caption.contains("Pending rally by Human"), "{caption}");
    insta::assert_snapshot!("battle_of_the_dale", svg);
}

const BATTLE: &str = "fixtures/playground-battles/game-attack-waits-for-the-defenders-opening";

#[test]
fn playground_svg_without_a_key_shows_no_hidden_identity() {
    let record = format!("{BATTLE}.pbem");
    let svg = svg_of(&record, None);
    let doc = parse(&svg);
    let json = show_json(&record, None);
    let known: Vec<(&str, &str)> = json["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["identity"].is_null())
        .map(|p| {
            (
                p["square"].as_str().unwrap(),
                p["identity"].as_str().unwrap(),
            )
        })
        .collect();
    for piece in pieces(&doc) {
        assert!(!has_class(&piece, "own"));
        let cell = piece.attribute("data-cell").unwrap();
        let text = letter(&piece);
        if text == "?" {
            assert!(has_class(&piece, "hidden"));
        } else {
            // Only an identity opened in the record (the attacker's).
            assert!(
                known
                    .iter()
                    .any(|(sq, id)| *sq == cell && id.starts_with(&text)),
                "{cell} shows {text}"
            );
        }
    }
    assert_eq!(known.len(), 1, "only the attacker is opened");
    insta::assert_snapshot!("playground_battles_public", svg);
}

#[test]
fn playground_svg_with_a_key_marks_the_holders_own_pieces_only() {
    let record = format!("{BATTLE}.pbem");
    let key = format!("{BATTLE}.blue.key");
    let svg = svg_of(&record, Some(&key));
    let doc = parse(&svg);
    let all = pieces(&doc);
    let own: Vec<_> = all.iter().filter(|p| has_class(p, "own")).collect();
    assert_eq!(own.len(), 10, "Blue's ten pieces, none opened");
    assert!(own.iter().all(|p| p.attribute("data-side") == Some("Blue")));
    assert!(own.iter().all(|p| "RPS".contains(letter(p).as_str())));
    // Red's pieces stay as everyone sees them.
    for p in all
        .iter()
        .filter(|p| p.attribute("data-side") == Some("Red"))
    {
        assert!(!has_class(p, "own"));
    }
    insta::assert_snapshot!("playground_battles_blue_view", svg);
}

#[test]
fn svg_is_only_for_show_and_the_page_never_overwrites() {
    let fail = |args: &[&str]| {
        let out = Command::cargo_bin("herald")
            .unwrap()
            .current_dir(root())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let game = "examples/castle-danger.pbem";
    assert!(fail(&["check", game, "--format", "svg"]).contains("herald show"));
    assert!(fail(&["replay", game, "--format", "svg"]).contains("--html"));
    assert!(fail(&["replay", game, "--html", "--format", "json"]).contains("no --format"));
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("game.html");
    std::fs::write(&page, "mine").unwrap();
    let page = page.to_str().unwrap();
    assert!(fail(&["replay", game, "--html", "-o", page]).contains("exists already"));
    assert_eq!(std::fs::read_to_string(page).unwrap(), "mine");
}

#[test]
fn the_page_is_self_contained_and_holds_every_position() {
    let page = herald(&["replay", "examples/castle-danger.pbem", "--html"]);
    for banned in ["src=", "href=", "@import", "url(", "https:"] {
        assert!(!page.contains(banned), "the page refers to {banned}");
    }
    // The only address is the SVG namespace's name, never fetched.
    assert_eq!(
        page.matches("http://").count(),
        page.matches("http://www.w3.org/2000/svg").count()
    );
    let turns = show_json("examples/castle-danger.pbem", None)["turn"]
        .as_u64()
        .unwrap() as usize;
    assert_eq!(page.matches("<section class=\"frame\"").count(), turns + 1);
    // Every position's picture, as `show --turn N --format svg` draws it,
    // is in the page's data.
    let pictures = pictures_in(&page);
    assert_eq!(pictures.len(), turns + 1);
    for (turn, svg) in pictures.iter().enumerate() {
        let shown = herald(&[
            "show",
            "examples/castle-danger.pbem",
            "--turn",
            &turn.to_string(),
            "--format",
            "svg",
        ]);
        assert_eq!(svg, &shown, "turn {turn}");
    }
    // Each turn's annotation, as annotate writes it.
    let annotated: Value = serde_json::from_str(&herald(&[
        "annotate",
        "examples/castle-danger.pbem",
        "--format",
        "json",
    ]))
    .unwrap();
    for t in annotated["turns"].as_array().unwrap() {
        let comment = t["comment"].as_str().unwrap();
        assert!(page.contains(&comment.replace('\'', "&#39;")), "{comment}");
    }
}

/// The pictures a replay page holds as data, one a position in page
/// order: each frame's lines put together from the table of lines.
fn pictures_in(page: &str) -> Vec<String> {
    let start = "<script type=\"application/json\" id=\"positions\">";
    let data = page
        .split(start)
        .nth(1)
        .unwrap()
        .split("</script>")
        .next()
        .unwrap();
    let data: Value = serde_json::from_str(data).unwrap();
    let parts: Vec<&str> = data["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    data["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            f.as_array()
                .unwrap()
                .iter()
                .map(|k| parts[k.as_u64().unwrap() as usize])
                .collect()
        })
        .collect()
}

#[test]
fn the_replay_page_holds_each_line_of_its_pictures_once_so_a_long_game_stays_small() {
    // 53 turns of Battlegates, 58 positions: the board is drawn once, and
    // each position adds only what changed (the whole pictures come to
    // some 2 MB).
    let record = "fixtures/battlegates/game-won-long-from-every-card-to-a-gatekeepers-attack.pbem";
    let page = herald(&["replay", record, "--html"]);
    let pictures = pictures_in(&page);
    assert_eq!(pictures.len(), 58);
    let whole: usize = pictures.iter().map(String::len).sum();
    assert!(whole > 1_500_000, "{whole}");
    assert!(page.len() < 300_000, "the page is {} bytes", page.len());
    // Each position's address: after turn N it is `#tN`; set-up lines,
    // all at turn 0, are `#t0-2`, `#t0-3`, ...
    for id in ["data-id=\"t0\"", "data-id=\"t0-2\"", "data-id=\"t53\""] {
        assert!(page.contains(id), "{id}");
    }
    let last = &pictures[57];
    assert_eq!(
        last,
        &herald(&["show", record, "--turn", "53", "--format", "svg"])
    );
}

/// Every position of a few self-play games of `G`: its SVG is XML, with
/// as many pieces as the position holds.
fn every_position_draws_its_pieces<G: Game>(sides: usize) {
    for seed in 1..=3u64 {
        let mut options = selfplay::Options::new::<G>(seed, sides);
        options.max_turns = 60;
        let text = selfplay::record::<G>(&options).unwrap();
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let mut drawn = 0;
        referee::replay::<G>(&rec, |played, referee| {
            let state = referee.state();
            let pic = G::picture(state).unwrap();
            let svg = svg::document(&pic, "a self-play game");
            let doc = parse(&svg);
            let listed = G::pieces(state).map(|p| p.len());
            let want = count_pieces(G::ID, &position_text::<G>(state), listed);
            assert_eq!(
                pieces(&doc).len(),
                want,
                "seed {seed}, turn {}",
                played.number
            );
            drawn += 1;
        })
        .unwrap();
        assert!(drawn > 0);
    }
}

/// The most sides, up to four, that a game of `G` starts with at its
/// defaults (the Dale four, Battlegates' one board two).
fn most_sides<G: Game>() -> usize {
    (G::MIN_SIDES..=G::MAX_SIDES.min(4))
        .rev()
        .find(|&n| {
            let sides: Vec<Side> = (0..n).map(|i| Side(i as u8)).collect();
            G::new_game(&Setup {
                sides: &sides,
                tags: &[],
            })
            .is_ok()
        })
        .unwrap_or_else(|| panic!("{} starts with no number of sides", G::ID))
}

#[test]
fn every_self_play_position_of_every_game_draws_its_pieces() {
    macro_rules! each {
        ($($module:ident: $game:ty),*) => {
            $(every_position_draws_its_pieces::<$game>(most_sides::<$game>());)*
        };
    }
    herald::for_each_game!(each);
    assert_eq!(
        most_sides::<herald::games::battle_of_the_dale::BattleOfTheDale>(),
        4
    );
    assert_eq!(most_sides::<herald::games::battlegates::Battlegates>(), 2);
}

// ------------------------------------------------------------- browser

/// The Debian package that provides the browser.
const PACKAGE: &str = "chromium";

/// The browser to drive: `$CHROMIUM`, or `chromium` on the path.
fn browser() -> Option<String> {
    let name = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into());
    let ok = Process::new(&name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(name)
}

/// No browser: say so (even where the harness captures the output), and
/// fail in CI (CI=true) rather than pass.
fn no_browser() {
    let message = format!(
        "the replay page was NOT tested in a browser: `chromium` is not installed \
         (Debian package `{PACKAGE}`: apt-get install -y {PACKAGE}; or set CHROMIUM to a Chromium binary)"
    );
    if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false") {
        panic!("{message}");
    }
    // Straight to the standard error, past the test harness's capture, so
    // that a passing run still shows it.
    let _ = writeln!(std::io::stderr(), "\nwarning: {message}\n");
}

/// The page with the tests' scripts put in: one first in `<head>` that
/// records every error and `console.error`, one last in `<body>` that
/// steps through the page and writes its findings into
/// `<pre id="test-result">`.
fn instrumented(page: &str, expected: &str, own_at_start: bool) -> String {
    let catch = "<script>window.__errors = [];\
        window.addEventListener('error', function (e) { window.__errors.push(String(e.message)); });\
        (function () { var o = console.error; console.error = function () {\
        window.__errors.push(Array.prototype.join.call(arguments, ' ')); o.apply(console, arguments); }; })();\
        </script>";
    let test = include_str!("data/replay_page_test.js")
        .replace("/*EXPECTED*/[]", expected)
        .replace(
            "/*OWN_AT_START*/false",
            if own_at_start { "true" } else { "false" },
        );
    page.replacen("<head>", &format!("<head>\n{catch}"), 1)
        .replacen("</body>", &format!("<script>{test}</script>\n</body>"), 1)
}

/// Load `file` in headless Chromium with the network shut off; the DOM
/// after the scripts ran, and the browser's console log.
fn load(chromium: &str, file: &Path, address: &str) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Process::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{address}", file.display()))
        .stdout(std::fs::File::create(profile.path().join("dom.html")).unwrap())
        .stderr(std::fs::File::create(profile.path().join("log.txt")).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!(
                "chromium did not finish loading {} in 120 s",
                file.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let read = |name: &str| {
        String::from_utf8_lossy(&std::fs::read(profile.path().join(name)).unwrap()).into_owned()
    };
    (read("dom.html"), read("log.txt"))
}

/// Replay `record` as a page in the browser and check it: no error,
/// stepping forward and back, and the pieces drawn at three positions
/// against the position after that turn.
fn check_in_browser(chromium: &str, record: &str, key: Option<&str>, at: [u32; 3]) {
    let dir = tempfile::tempdir().unwrap();
    let page_path = dir.path().join("game.html");
    let mut args = vec![
        "replay",
        record,
        "--html",
        "-o",
        page_path.to_str().unwrap(),
    ];
    if let Some(k) = key {
        args.extend(["--key", k]);
    }
    herald(&args);
    let page = std::fs::read_to_string(&page_path).unwrap();
    let labels: Vec<&str> = page
        .split("<section class=\"frame\"")
        .skip(1)
        .map(|s| {
            s.split("data-turn=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
        })
        .collect();
    let expected: Vec<String> = at
        .iter()
        .map(|&turn| {
            // The last frame of that turn (set-up lines share turn 0).
            let index = labels.iter().rposition(|t| *t == turn.to_string()).unwrap();
            let pieces = pieces_in(&show_json(record, Some(turn)));
            format!("{{\"index\": {index}, \"turn\": {turn}, \"pieces\": {pieces}}}")
        })
        .collect();
    let test_path = dir.path().join("test.html");
    let expected = format!("[{}]", expected.join(", "));
    // Opened at the address of the position after the second turn, the
    // page shows that position first; the script steps on from there.
    let second = labels
        .iter()
        .rposition(|t| *t == at[1].to_string())
        .unwrap();
    let expected_at_load = format!("{second}");
    std::fs::write(
        &test_path,
        instrumented(&page, &expected, key.is_some()).replace("/*AT_LOAD*/0", &expected_at_load),
    )
    .unwrap();
    let id = page
        .split("<section class=\"frame\"")
        .nth(second + 1)
        .and_then(|s| s.split("data-id=\"").nth(1))
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_string();
    let (dom, log) = load(chromium, &test_path, &format!("#{id}"));
    // The last one: the script's own text names the element too.
    let result = dom
        .rsplit_once("<pre id=\"test-result\">")
        .and_then(|(_, r)| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("the page's test did not run:\n{dom}\n{log}"));
    eprintln!("{record} in {chromium}:\n{result}");
    assert!(!result.contains("FAIL"), "{record}:\n{result}");
    assert!(result.contains("PASS pieces at turn"), "{result}");
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");
}

#[test]
fn replay_page_steps_and_draws_the_pieces_in_a_headless_browser() {
    let Some(chromium) = browser() else {
        return no_browser();
    };
    check_in_browser(&chromium, "examples/castle-danger.pbem", None, [0, 3, 5]);
    check_in_browser(
        &chromium,
        &format!("{BATTLE}.pbem"),
        Some(&format!("{BATTLE}.blue.key")),
        [0, 1, 2],
    );
}
