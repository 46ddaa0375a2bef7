//! The rules of a turn: the opening roll and the deal, the draw and the
//! roll at the start of a turn, the card action, the dice phase's runs
//! and shots, the end of a turn and the end of the game.

use crate::game::{Chance, Illegal, Side};
use crate::illegal;

use crate::games::battlegates::geometry::board::{
    opponent, side_name, Dir, Edge, Geometry, Loc, Sense,
};
use crate::games::battlegates::mazes::maze::{Gate, OnEdge, Piece};
use crate::games::battlegates::moves::action::{Action, Path, Shot};
use crate::games::battlegates::moves::dice::{self, link, loc_word};
use crate::games::battlegates::moves::gates::{quarter, Carry, Turner};
use crate::games::battlegates::one_board::state::{Dice, End, Id, State, Visited};
use crate::games::battlegates::pieces::cards::Card;

/// The die's faces, by the value drawn in `0..6`.
pub const FACES: [u8; 6] = [1, 2, 2, 3, 3, 4];

/// Deal the deck's next card, drawn by chance as `deal`, to the hand of
/// `to` (in every set-up's opening deal).
pub(in crate::games::battlegates) fn deal_card(
    state: &mut State,
    chance: &mut dyn Chance,
    to: Side,
) -> Result<(), Illegal> {
    let total = state.cards.deck.total();
    let i = chance.draw("deal", total)?;
    let Some(card) = state.cards.deck.nth(i) else {
        return illegal!("the deck has no card {i}");
    };
    chance.describe(card.word().into());
    state.cards.take_from_deck(to, card);
    Ok(())
}

/// The opening roll and the deal, once the set-up is over: each side
/// rolls (label `opening`, South then North, again on a tie); the higher
/// moves first and deals three cards to each, one at a time, the other
/// side first (label `deal`, each a uniform draw from the deck). A side
/// whose maze breaks the set-up rules loses first, with no roll (both
/// such sides: a draw).
pub fn begin_play(state: &mut State, chance: &mut dyn Chance) -> Result<(), Illegal> {
    if state.started || state.outcome.is_over() {
        return Ok(());
    }
    let rules = state.rules;
    if let Some(done) = rules.begin_play(state, chance) {
        return done;
    }
    match state.bad_mazes().as_slice() {
        [] => {}
        [bad] => {
            state.finish(Some(opponent(*bad)), End::BadMaze(*bad));
            return Ok(());
        }
        _ => {
            state.finish(None, End::BadMazes);
            return Ok(());
        }
    }
    // With hidden hands the shared deck deals: each side picks up its
    // hand with its first turn's card.
    let deal = if state.cards.is_hidden() { 0 } else { 6 };
    let first = loop {
        let a = FACES[chance.draw("opening", 6)? as usize % 6];
        let b = FACES[chance.draw("opening", 6)? as usize % 6];
        state.opening = Some([a, b]);
        if a != b {
            break if a > b { Side(0) } else { Side(1) };
        }
    };
    for k in 0..deal {
        let to = if k % 2 == 0 { opponent(first) } else { first };
        deal_card(state, chance, to)?;
    }
    state.to_move = first;
    state.started = true;
    Ok(())
}

/// Start the turn of the side to move: draw a card (the discard pile
/// becomes the deck when the deck is empty; no draw with no card left),
/// then roll.
pub fn begin_turn(state: &mut State, chance: &mut dyn Chance) -> Result<(), Illegal> {
    if state.outcome.is_over() {
        return Ok(());
    }
    if !state.started {
        // The set-up: no turn yet (the opening roll comes when it is over).
        return Ok(());
    }
    state.log.clear();
    state.drawn = None;
    state.card_done = false;
    state.dice = Dice::default();
    let side = state.to_move;
    let g = state.board.geo();
    for (id, loc) in state.board.alive(side) {
        state.dice.visited[id.place()] = Visited::only(g, loc);
    }
    if !state.cards.is_hidden() && state.cards.ready_to_draw() {
        let i = chance.draw("card", state.cards.deck.total())?;
        let Some(card) = state.cards.deck.nth(i) else {
            return illegal!("the deck has no card {i}");
        };
        chance.describe(card.word().into());
        state.cards.take_from_deck(side, card);
        state.drawn = Some(card);
    }
    let face = FACES[chance.draw("die", 6)? as usize % 6];
    state.dice.roll = Some(face);
    if state.cards.held(side) == 0 && !state.cards.is_hidden() {
        start_dice(state);
    }
    Ok(())
}

/// With hidden hands: `side` draws `cards` from the shared deck, each
/// known (to its drawer's eyes) or unseen. With no card in hand after
/// the draw, the card phase is over.
pub fn receive_cards(state: &mut State, side: Side, cards: &[Option<Card>]) -> Result<(), Illegal> {
    if !state.cards.is_hidden() {
        return illegal!("the hands are open: the cards are drawn by chance");
    }
    for card in cards {
        let drawn = match card {
            Some(c) => state.cards.take_from_deck(side, *c),
            None => state.cards.draw_unseen(side),
        };
        if !drawn {
            return illegal!("the deck has no card left to draw");
        }
    }
    if state.cards.held(side) == 0 {
        start_dice(state);
    }
    Ok(())
}

/// The card phase is over: work out the most of the roll that can be
/// spent.
fn start_dice(state: &mut State) {
    state.card_done = true;
    if !state.dice.forfeited && !state.outcome.is_over() {
        let roll = state.dice.roll.unwrap_or(0);
        state.dice.target = Some(dice::best(&state.board, &state.dice, state.to_move, roll));
    }
}

/// Make one action.
pub fn apply(state: &mut State, action: Action) -> Result<(), Illegal> {
    if state.outcome.is_over() {
        return illegal!("the game is over");
    }
    if !state.started {
        return illegal!("the opening roll comes first: it is drawn once the set-up is over");
    }
    let Some(roll) = state.dice.roll else {
        return illegal!("the turn has not begun: its card and roll are not drawn yet");
    };
    match action.card() {
        Some(card) => card_action(state, action, card),
        None => dice_action(state, action, roll),
    }?;
    state.judge();
    Ok(())
}

fn card_action(state: &mut State, action: Action, card: Card) -> Result<(), Illegal> {
    let side = state.to_move;
    if state.card_done {
        return illegal!("the card phase is over: one card is played or discarded a turn");
    }
    if !state.cards.hand(side).holds(card) {
        return illegal!(
            "{} holds no {card} card (its hand: {})",
            side_name(side),
            hand_text(state, side)
        );
    }
    let mut s = state.clone();
    match action {
        Action::Discard(c) => s.log.push(format!("discarded {c}")),
        Action::Scale(from, to) => cross(&mut s, from, to, card)?,
        Action::Climb(from, to) => cross(&mut s, from, to, card)?,
        Action::MoveWall(from, to) => {
            move_wall(&mut s, from, to)?;
            s.log
                .push(format!("moved {} to W{to}", Piece::Wall(from).named()));
        }
        Action::MoveGate(from, to) => {
            move_gate(&mut s, from, to)?;
            s.log.push(format!("moved {} to {to}", from.named()));
        }
        Action::Rotate {
            quarters,
            gate,
            sense,
        } => rotate(&mut s, gate, sense, quarters)?,
        Action::Run(_) | Action::Shoot(_) => {}
    }
    s.cards.spend(side, card);
    let removed = crate::games::battlegates::moves::alley::clear_stuck_gates(&mut s.board);
    let removed = crate::games::battlegates::moves::alley::removal_text(&removed);
    if !removed.is_empty() {
        s.log.push(removed);
    }
    s.judge();
    start_dice(&mut s);
    *state = s;
    Ok(())
}

/// The cards `side` holds, as words.
pub fn hand_text(state: &State, side: Side) -> String {
    let list: Vec<&str> = state
        .cards
        .hand(side)
        .list()
        .iter()
        .map(|c| c.word())
        .collect();
    let mut list: Vec<String> = list.into_iter().map(str::to_owned).collect();
    let unseen = state.cards.unseen(side);
    if unseen > 0 {
        // Hidden hands: cards drawn that only their holder has seen.
        list.push(format!("{unseen} unseen"));
    }
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

/// Scale (a Brick wall) or Climb (a gate) from `from` to `to`.
fn cross(s: &mut State, from: Loc, to: Loc, card: Card) -> Result<(), Illegal> {
    let side = s.to_move;
    let Some(id) = s.board.at(from).filter(|i| i.side() == side) else {
        return illegal!(
            "no character of {} stands on {}",
            side_name(side),
            loc_word(from)
        );
    };
    let Some((edge, _)) = link(s.board.geo(), from, to) else {
        return illegal!(
            "{} and {} are not neighbours: the card crosses the edge between them",
            loc_word(from),
            loc_word(to)
        );
    };
    let on = s.board.on_edge(edge);
    match (card, on) {
        (Card::Scale, Some(OnEdge::Wall)) | (Card::Climb, Some(OnEdge::Gate(_))) => {}
        (Card::Scale, _) => {
            return illegal!("no Brick wall lies on {edge}: Scale crosses a Brick wall")
        }
        _ => return illegal!("no gate lies on {edge}: Climb crosses a gate"),
    }
    let victim = match (to, s.board.at(to)) {
        (_, Some(o)) if o.side() == side => {
            return illegal!("{} holds {}", to, o.name());
        }
        (_, Some(o)) if s.board.friendly(o.side(), side) => {
            return illegal!(
                "{} holds {}, an ally: allies never attack each other",
                to,
                o.name()
            );
        }
        (_, Some(o)) => Some(o),
        (Loc::Keep(k), None) if !s.board.friendly(k, side) => {
            return illegal!(
                "{}'s Keep is empty: an enemy Keep may be entered only to kill the character in it",
                side_name(k)
            );
        }
        _ => None,
    };
    if let Some(v) = victim {
        s.board.set(v, None);
        s.points[usize::from(side) % crate::games::battlegates::one_board::state::MAX_SIDES] += 1;
        s.dice.forfeited = true;
        s.log.push(format!(
            "{card}: {} killed {} on {} (+1 point; the dice phase is forfeited)",
            id.name(),
            v.name(),
            loc_word(to)
        ));
    } else {
        s.log.push(format!("{card}: {} crossed {edge}", id.name()));
    }
    s.board.set(id, Some(to));
    s.dice.visited[id.place()].add(s.board.geo(), to);
    Ok(())
}

/// Whether `edge` (on the board: the notation reads no other) can take
/// a piece moved by a card: off the outer line, empty.
fn open_edge(s: &State, edge: Edge) -> Result<(), Illegal> {
    if s.board.geo().edge_on_perimeter(edge) {
        return illegal!("{edge} is on the board's outer line: a card never places a piece there");
    }
    match s.board.on_edge(edge) {
        Some(OnEdge::Wall) => illegal!("{} is in the way", Piece::Wall(edge).named()),
        Some(OnEdge::Gate(i)) => {
            let g = s.board.maze.gate(i).map_or(String::new(), Gate::named);
            illegal!("{g} is in the way")
        }
        _ => Ok(()),
    }
}

fn entrance_rule(s: &State) -> Result<(), Illegal> {
    if let Some((g, p)) = s.board.maze.entrance_hinge_touched(s.board.geo()) {
        return illegal!(
            "{} would touch {}, the hinge post of {} across a castle entrance: nothing else \
             may touch it",
            p.named(),
            g.hinge,
            g.named()
        );
    }
    Ok(())
}

fn move_wall(s: &mut State, from: Edge, to: Edge) -> Result<(), Illegal> {
    if !s.board.maze.remove(Piece::Wall(from)) {
        return illegal!("{} is not on the board", Piece::Wall(from).named());
    }
    if from == to {
        return illegal!("W{from} must move to another edge");
    }
    open_edge(s, to)?;
    if let Some(why) = crate::games::battlegates::moves::alley::wall_refused(&s.board, to) {
        return Err(Illegal::new(why));
    }
    s.rules.card_move(&s.board, Piece::Wall(to))?;
    s.board.maze.add(Piece::Wall(to));
    entrance_rule(s)?;
    Ok(())
}

fn move_gate(s: &mut State, from: Gate, to: Gate) -> Result<(), Illegal> {
    if !s.board.maze.remove(Piece::Gate(from)) {
        return illegal!("{} is not on the board", from.named());
    }
    if from.long != to.long {
        return illegal!(
            "{from} is a {}: it is placed again as a {} (L for a Long gate, G for a Gate)",
            from.kind_name(),
            from.kind_name()
        );
    }
    if from == to {
        return illegal!("{from} must be placed somewhere else");
    }
    for e in to.edge_list() {
        open_edge(s, e)?;
    }
    s.rules.card_move(&s.board, Piece::Gate(to))?;
    s.board.maze.add(Piece::Gate(to));
    entrance_rule(s)?;
    Ok(())
}

fn rotate(s: &mut State, gate: Gate, sense: Sense, quarters: u8) -> Result<(), Illegal> {
    if !s.board.maze.gates().any(|(_, g)| g == gate) {
        return illegal!("{} is not on the board", gate.named());
    }
    let turner = Turner {
        side: s.to_move,
        pusher: None,
    };
    let mut carried: Vec<Carry> = Vec::new();
    let before = s.board.maze;
    let mut turning = gate;
    for k in 0..quarters {
        let moved = quarter(&mut s.board, turning, sense, turner).map_err(|why| match k {
            0 => Illegal::new(why),
            _ => Illegal::new(format!(
                "{} turns once {}, but not a second time: {why}",
                gate.named(),
                sense.word()
            )),
        })?;
        carried.extend(moved);
        turning = turning.turned(sense);
    }
    s.log.push(format!(
        "turned the gates on {} {} {} ({}){}",
        gate.hinge,
        if quarters == 2 { "twice" } else { "once" },
        sense.word(),
        s.board.maze.turned_since(&before).join(", "),
        carry_text(&carried)
    ));
    if let Some(line) = s.rules.card_turn(s, &carried) {
        s.log.push(line);
    }
    Ok(())
}

/// [`Id::name`] appended to `out`: `North's Archer`.
fn write_name(id: Id, out: &mut String) {
    out.push_str(side_name(id.side()));
    out.push_str("'s ");
    out.push_str(id.kind().name());
}

/// `, carrying North's Archer d10 to e10` for a log.
pub fn carry_text(carried: &[Carry]) -> String {
    if carried.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = carried
        .iter()
        .map(|c| format!("{} {} to {}", c.id.name(), c.from, c.to))
        .collect();
    format!(", carrying {}", parts.join(", "))
}

fn dice_action(state: &mut State, action: Action, roll: u8) -> Result<(), Illegal> {
    let side = state.to_move;
    if !state.card_done {
        return illegal!(
            "the card phase comes first: play or discard a card (the hand: {})",
            hand_text(state, side)
        );
    }
    if state.dice.forfeited {
        return illegal!("the dice phase is forfeited: the card's kill ended it");
    }
    if state.dice.shot {
        return illegal!("the Archer's shot spent the whole roll");
    }
    match action {
        Action::Shoot(shot) => shoot(state, shot, roll),
        Action::Run(path) => run(state, &path),
        _ => Ok(()),
    }
}

fn shoot(state: &mut State, shot: Shot, roll: u8) -> Result<(), Illegal> {
    if state.dice.runs > 0 {
        return illegal!(
            "the roll is split among runs already: a shot takes the whole roll, instead of moving"
        );
    }
    let side = state.to_move;
    let victim = dice::shoot(&mut state.board, side, shot, roll).map_err(Illegal::new)?;
    state.dice.shot = true;
    state.log.push(match victim {
        Some(v) => format!("an arrow killed {}", v.name()),
        None => "an arrow hit nothing".into(),
    });
    Ok(())
}

fn run(state: &mut State, path: &Path) -> Result<(), Illegal> {
    let side = state.to_move;
    let target = state.dice.target.unwrap_or(0);
    let mut board = state.board;
    let mut d = state.dice;
    let report = dice::run(&mut board, &mut d, side, path).map_err(Illegal::new)?;
    let wins = !board.has_enemies(side);
    if !wins {
        let left = target.saturating_sub(d.spent);
        let more = dice::best(&board, &d, side, left);
        if d.spent > target || more < left {
            return illegal!(
                "after this run at most {} of the roll of {} could be spent, and {target} can \
                 be: a split roll spends the most it can",
                d.spent + more,
                d.roll.unwrap_or(0)
            );
        }
    }
    let id = board.at(*path.locs().last().unwrap_or(&path.locs()[0]));
    // The log's line written in one text (a run is the commonest action
    // of a replay: the referee plays every run of every line it reads).
    let mut text = String::with_capacity(64);
    match id {
        Some(id) => write_name(id, &mut text),
        None => text.push_str("a character"),
    }
    text.push_str(" ran ");
    crate::games::battlegates::one_board::notation::write(&Action::Run(*path), &mut text);
    board
        .maze
        .write_turned_since(&state.board.maze, ", pushing ", &mut text);
    if let Some(v) = report.victim {
        text.push_str(", killing ");
        write_name(v, &mut text);
    }
    if !report.carries.is_empty() {
        text.push_str(&carry_text(&report.carries));
    }
    state.log.push(text);
    let removed = crate::games::battlegates::moves::alley::removal_text(&report.removed);
    if !removed.is_empty() {
        state.log.push(removed);
    }
    state.board = board;
    state.dice = d;
    Ok(())
}

/// End the turn: the card action made, the roll spent as the rules ask.
pub fn end_turn(state: &mut State) -> Result<(), Illegal> {
    if state.outcome.is_over() {
        return Ok(());
    }
    let side = state.to_move;
    if !state.card_done {
        return illegal!(
            "a turn plays or discards a card first (the hand: {})",
            hand_text(state, side)
        );
    }
    let d = state.dice;
    if !d.forfeited && !d.shot {
        let target = d.target.unwrap_or(0);
        if d.spent < target {
            return illegal!(
                "the roll of {} is not spent: {} of it spent, and {target} can be (a split \
                 roll spends the most it can; or an Archer shoots)",
                d.roll.unwrap_or(0),
                d.spent
            );
        }
    }
    if d.spent > 0 {
        state.log.push(format!(
            "{} of the roll of {} spent",
            d.spent,
            d.roll.unwrap_or(0)
        ));
    } else if !d.forfeited && !d.shot && d.target == Some(0) {
        state
            .log
            .push("no move could spend the roll: the dice phase was void".into());
    }
    if let Some(line) = state.rules.turn_end(&mut state.board) {
        state.log.push(line);
        state.judge();
        if state.outcome.is_over() {
            return Ok(());
        }
    }
    state.to_move = state.rules.next_to_move(state, side);
    state.dice = Dice::default();
    state.drawn = None;
    state.card_done = false;
    Ok(())
}

/// `side` resigns. A resignation ends a turn line like any other: the
/// turn's draw and roll were made at its start (the line carries their
/// facts), so the resigner may end holding four cards. The finished
/// position still names `side` as to move, the side that wrote the last
/// line, as every game's finished position does.
pub fn resign(state: &mut State, side: Side) {
    let rules = state.rules;
    rules.resign(state, side);
}

/// Every legal action now, in a stable order: the card actions while
/// the card phase lasts, then the shots and the runs.
pub fn legal_actions(state: &State, out: &mut Vec<Action>) {
    if state.outcome.is_over() || !state.started || state.dice.roll.is_none() {
        return;
    }
    if !state.card_done {
        card_actions(state, out);
        return;
    }
    let d = state.dice;
    if d.forfeited || d.shot {
        return;
    }
    let side = state.to_move;
    if d.runs == 0 {
        let mut shots = Vec::new();
        dice::legal_shots(&state.board, side, d.roll.unwrap_or(0), &mut shots);
        out.extend(shots.into_iter().map(Action::Shoot));
    }
    let mut runs = Vec::new();
    dice::legal_runs(&state.board, &d, side, d.target.unwrap_or(0), &mut runs);
    out.extend(runs.into_iter().map(Action::Run));
}

/// The card actions: every discard, and every play of a held card that
/// is legal.
fn card_actions(state: &State, out: &mut Vec<Action>) {
    let side = state.to_move;
    let hand = *state.cards.hand(side);
    for c in hand.kinds() {
        out.push(Action::Discard(c));
    }
    let g = state.board.geo();
    let mut tries: Vec<Action> = Vec::new();
    if hand.holds(Card::Scale) || hand.holds(Card::Climb) {
        for (_, loc) in state.board.alive(side) {
            for to in dice::neighbours(g, loc) {
                tries.push(Action::Scale(loc, to));
                tries.push(Action::Climb(loc, to));
            }
        }
    }
    let interior: Vec<Edge> = g.edges().filter(|&e| !g.edge_on_perimeter(e)).collect();
    if hand.holds(Card::MoveWall) {
        for w in state.board.maze.walls() {
            for &e in &interior {
                tries.push(Action::MoveWall(w, e));
            }
        }
    }
    let gates: Vec<Gate> = state.board.maze.gates().map(|(_, g)| g).collect();
    if hand.holds(Card::MoveGate) {
        for &g in &gates {
            for to in all_gates(state.board.geo(), g.long) {
                tries.push(Action::MoveGate(g, to));
            }
        }
    }
    for (card, quarters) in [(Card::Rotate90, 1), (Card::Rotate180, 2)] {
        if !hand.holds(card) {
            continue;
        }
        let mut posts: Vec<_> = gates.iter().map(|g| g.hinge).collect();
        posts.sort();
        posts.dedup();
        for post in posts {
            let Some(first) = state.board.maze.first_on(post) else {
                continue;
            };
            for sense in [Sense::Cw, Sense::Ccw] {
                tries.push(Action::Rotate {
                    quarters,
                    gate: first,
                    sense,
                });
            }
        }
    }
    for a in tries {
        if a.card().is_some_and(|c| hand.holds(c)) && try_card(state, a) {
            out.push(a);
        }
    }
}

/// Whether card action `a` is legal (cheaply: without working out the
/// dice phase that follows).
fn try_card(state: &State, a: Action) -> bool {
    let mut s = State {
        log: Vec::new(),
        ..state.clone()
    };
    match a {
        Action::Scale(f, t) => cross(&mut s, f, t, Card::Scale).is_ok(),
        Action::Climb(f, t) => cross(&mut s, f, t, Card::Climb).is_ok(),
        Action::MoveWall(f, t) => move_wall(&mut s, f, t).is_ok(),
        Action::MoveGate(f, t) => move_gate(&mut s, f, t).is_ok(),
        Action::Rotate {
            quarters,
            gate,
            sense,
        } => rotate(&mut s, gate, sense, quarters).is_ok(),
        _ => false,
    }
}

/// Every gate placement of a kind that lies on board `g`.
fn all_gates(g: &Geometry, long: bool) -> impl Iterator<Item = Gate> + '_ {
    g.posts()
        .flat_map(move |hinge| {
            Dir::ALL
                .into_iter()
                .map(move |dir| Gate { hinge, dir, long })
        })
        .filter(|gate| gate.on_board(g))
}
