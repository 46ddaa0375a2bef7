//! `show --key`: one look a turn. The library's [`Referee::look`] gives
//! the position from the key holder's side, its hand with this turn's
//! draw marked, the roll, the step due and the legal actions stage by
//! stage; this module only prints it, as text, JSON or lines under an
//! SVG picture.

use serde::Serialize;

use super::context::fit;
use crate::game::{action_text, Game};
use crate::referee::{Look, Stage};

/// A card of the viewer's hand.
#[derive(Serialize)]
pub(super) struct JsonHandCard {
    position: u32,
    card: String,
    /// Drawn at the start of the viewer's turn now due.
    drawn: bool,
}

/// An action and its cost, where the game counts one.
#[derive(Serialize)]
pub(super) struct JsonStageAction {
    action: String,
    cost: Option<u32>,
}

/// A stage of the turn ahead.
#[derive(Serialize)]
pub(super) struct JsonStage {
    /// `card phase`, `dice phase` or `actions`.
    name: String,
    /// The actions made before this stage (an example), as herald writes
    /// them; empty for the first stage.
    after: Vec<String>,
    actions: Vec<JsonStageAction>,
}

/// The step due.
#[derive(Serialize)]
pub(super) struct JsonDue {
    side: &'static str,
    line: String,
    step: &'static str,
    text: String,
}

/// `show --key --format json`'s `look`.
#[derive(Serialize)]
pub(super) struct JsonLook {
    side: &'static str,
    due: Option<JsonDue>,
    to_move: bool,
    /// The hand in a game with hidden hands, else null.
    hand: Option<Vec<JsonHandCard>>,
    chance: Vec<JsonLookChance>,
    note: Option<String>,
    stages: Vec<JsonStage>,
}

/// A chance value the viewer's turn starts with.
#[derive(Serialize)]
pub(super) struct JsonLookChance {
    label: &'static str,
    value: String,
}

/// The name of stage `i` of `stages`: a card phase (every action of it
/// spends a card) and the dice phase after it, else `actions` and `then`.
fn stage_name<G: Game>(look: &Look<G>, i: usize) -> &'static str {
    let cards = |s: &Stage<G>| {
        !s.actions.is_empty()
            && s.actions
                .iter()
                .all(|a| G::card_spent(&look.state, a).is_some())
    };
    match (i, look.stages.first().is_some_and(cards)) {
        (0, true) => "card phase",
        (0, false) => "actions",
        (_, true) if look.chance.iter().any(|c| c.label == "die") => "dice phase",
        _ => "then",
    }
}

/// The look as JSON.
pub(super) fn json<G: Game>(look: &Look<G>) -> JsonLook {
    JsonLook {
        side: look.viewer.name::<G>(),
        due: look.due.as_ref().map(|d| JsonDue {
            side: d.side.name::<G>(),
            line: d.line.clone(),
            step: d.step.as_str(),
            text: d.text.to_string(),
        }),
        to_move: look.viewer_to_move,
        hand: look.hand.as_ref().map(|h| {
            h.iter()
                .map(|c| JsonHandCard {
                    position: c.position,
                    card: G::card_text(c.card),
                    drawn: c.drawn,
                })
                .collect()
        }),
        chance: look
            .chance
            .iter()
            .map(|c| JsonLookChance {
                label: c.label,
                value: c.text.clone(),
            })
            .collect(),
        note: look.note.clone(),
        stages: look
            .stages
            .iter()
            .enumerate()
            .map(|(i, s)| JsonStage {
                name: stage_name(look, i).into(),
                after: s.after.iter().map(action_text::<G>).collect(),
                actions: s
                    .actions
                    .iter()
                    .map(|a| JsonStageAction {
                        action: action_text::<G>(a),
                        cost: G::action_cost(&look.state, a),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The hand on one line: `North's hand: 4 cards, move-gate*, rotate90*
/// (* drawn this turn)`; `None` in a game without hidden hands.
fn hand_line<G: Game>(look: &Look<G>) -> Option<String> {
    let hand = look.hand.as_ref()?;
    let name = look.viewer.name::<G>();
    if hand.is_empty() {
        return Some(format!("{name}'s hand: none"));
    }
    let cards: Vec<String> = hand
        .iter()
        .map(|c| {
            let mark = if c.drawn { "*" } else { "" };
            format!("{}{mark}", G::card_text(c.card))
        })
        .collect();
    let drawn = hand.iter().filter(|c| c.drawn).count();
    Some(format!(
        "{name}'s hand: {} card{}: {}{}",
        hand.len(),
        if hand.len() == 1 { "" } else { "s" },
        cards.join(", "),
        if drawn > 0 {
            " (* drawn this turn)"
        } else {
            ""
        }
    ))
}

/// The roll and other chance the turn starts with: `Roll: die 4`.
fn chance_line<G: Game>(look: &Look<G>) -> Option<String> {
    (!look.chance.is_empty()).then(|| {
        let values: Vec<String> = look
            .chance
            .iter()
            .map(|c| format!("{} {}", c.label, c.text))
            .collect();
        format!("Chance this turn: {}", values.join(", "))
    })
}

/// The step due, and whose: `Due: turn 1 is North's (herald move)`.
fn due_line<G: Game>(look: &Look<G>) -> String {
    match &look.due {
        Some(d) => format!("Due: {}", d.text),
        None => "Due: nothing (the game is over)".into(),
    }
}

/// The lines `show --key` draws under the SVG picture (the actions
/// counted, not listed): the hand, the chance, the step due, a note,
/// wrapped as the text is.
pub(super) fn caption<G: Game>(look: &Look<G>) -> Vec<String> {
    lines(look)
        .iter()
        .flat_map(|l| fit(l, "  ").lines().map(str::to_owned).collect::<Vec<_>>())
        .collect()
}

/// The lines of the look before its actions, one a fact.
fn lines<G: Game>(look: &Look<G>) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    lines.extend(hand_line(look));
    lines.extend(chance_line(look));
    lines.push(due_line(look));
    if let Some(n) = &look.note {
        lines.push(format!("Note: {n}"));
    }
    if !look.stages.is_empty() {
        let counts: Vec<String> = look
            .stages
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {}", stage_name(look, i), s.actions.len()))
            .collect();
        lines.push(format!("Legal actions: {}", counts.join(", ")));
    }
    lines
}

/// The text under `show --key`'s diagram: the caption, then the legal
/// actions stage by stage; `legal` is the `herald legal` command that
/// lists them all (`herald legal game.pbem --key north.key`).
pub(super) fn text<G: Game>(look: &Look<G>, legal: &str) -> String {
    let mut text = String::new();
    for line in lines(look) {
        if !line.starts_with("Legal actions:") {
            text.push_str(&fit(&line, "  "));
        }
    }
    for (i, stage) in look.stages.iter().enumerate() {
        let name = stage_name(look, i);
        let n = stage.actions.len();
        let mut head = format!(
            "{}{}: {n} legal action{}",
            name[..1].to_ascii_uppercase(),
            &name[1..],
            if n == 1 { "" } else { "s" }
        );
        if !stage.after.is_empty() {
            let after: Vec<String> = stage.after.iter().map(action_text::<G>).collect();
            let like = if name == "dice phase" {
                " or any card action that leaves the board as it is;"
            } else {
                ""
            };
            head.push_str(&format!(
                ", after `{}` ({like} {legal} --after ACTIONS lists them after another)",
                after.join(", ")
            ));
            head = head.replace("( ", "(");
        }
        text.push_str(&fit(&head, "  "));
        let listed: Vec<String> = stage
            .actions
            .iter()
            .map(|a| match G::action_cost(&look.state, a) {
                Some(c) => format!("{} (cost {c})", action_text::<G>(a)),
                None => action_text::<G>(a),
            })
            .collect();
        let all = match stage.after.is_empty() {
            true => legal.to_owned(),
            false => {
                let after: Vec<String> = stage.after.iter().map(action_text::<G>).collect();
                format!("{legal} --after \"{}\"", after.join(", "))
            }
        };
        text.push_str(&listing(&listed, &all));
    }
    text
}

/// Actions listed one look can take in: those of a word (`discard`,
/// `move-gate`) together, a word with more than [`SHOWN`] of them
/// counted with the first few shown; actions of no word (`b12-b11`) the
/// first [`SHOWN`] and the rest counted. `herald legal` lists them all.
fn listing(listed: &[String], all: &str) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut plain: Vec<&str> = Vec::new();
    for a in listed {
        match a.split_once(' ') {
            Some((word, rest)) if !rest.starts_with('(') => {
                match groups.iter_mut().find(|(w, _)| *w == word) {
                    Some((_, list)) => list.push(rest),
                    None => groups.push((word, vec![rest])),
                }
            }
            _ => plain.push(a),
        }
    }
    let more = |n: usize| format!("... {n} more ({all} lists them all)");
    let mut text = String::new();
    for (word, list) in &groups {
        let mut shown: Vec<&str> = list.iter().take(SHOWN / 4).copied().collect();
        let rest = list.len() - shown.len();
        let tail = (rest > 0).then(|| more(rest));
        shown.extend(tail.as_deref());
        text.push_str(&fit(
            &format!("  {word} ({}): {}", list.len(), shown.join(", ")),
            "    ",
        ));
    }
    if !plain.is_empty() {
        let mut shown: Vec<&str> = plain.iter().take(SHOWN).copied().collect();
        let rest = plain.len() - shown.len();
        let tail = (rest > 0).then(|| more(rest));
        shown.extend(tail.as_deref());
        text.push_str(&fit(&format!("  {}", shown.join(", ")), "  "));
    }
    text
}

/// How many actions of no word a look lists (a quarter of it of each word).
const SHOWN: usize = 40;
