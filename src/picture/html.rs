//! The replay page: one self-contained HTML file holding the SVG of every
//! position of a game, step controls (buttons, the arrow keys, Home and
//! End, a click on a turn) and the list of turns with each turn's
//! annotation, the current one highlighted. Inline CSS and JavaScript
//! only: nothing is fetched when the page is viewed.
//!
//! Each position is a `<section class="frame" data-index data-turn
//! data-id>`; the list item of the same index is `li.current` while it is
//! shown; the script exposes `window.herald.show(i)` and
//! `window.herald.current()`. The pictures are kept as data, drawn once:
//! every line of every position's SVG is stored once in a table
//! (`<script type="application/json" id="positions">`: `parts`, and for
//! each position the list of its lines, `frames`), and a position's
//! picture is put together when it is first shown (the first position's
//! is in the page as it stands, for a reader without scripts). So the
//! page grows by what changes from one position to the next, not by a
//! whole board a position. The address names the position shown
//! (`game.html#t12`: after turn 12; `#t0` the start; a second position
//! of the same turn `#t0-2`), and opening the page at such an address
//! shows that position.

use std::collections::HashMap;

use std::fmt::Write;

use super::escape;

/// One position of the page: the line that led to it and its picture.
#[derive(Clone, PartialEq, Debug)]
pub struct Frame {
    /// The turn number after which the position stands (0: the start).
    pub turn: u32,
    /// How the list names the line: `Start`, `S1. Blue`, `6. Red`.
    pub label: String,
    /// The line's actions and chance, as `replay` prints them.
    pub line: String,
    /// The turn's annotation, as `annotate` writes it (may be empty).
    pub comment: String,
    /// The SVG of the position after the line.
    pub svg: String,
}

const STYLE: &str = "
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 16px; color: #111; background: #fff; }
h1 { font-size: 1.3em; margin: 0 0 4px 0; }
p.view { margin: 0 0 10px 0; color: #333; }
#controls { margin: 8px 0; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#controls button { font-size: 1em; padding: 4px 12px; }
#status { margin-left: 8px; font-weight: bold; }
#main { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }
#board svg { max-width: 100%; height: auto; }
#moves { list-style: none; padding: 0; margin: 0; max-height: 80vh; overflow-y: auto; min-width: 260px; max-width: 520px; }
#moves li { padding: 4px 8px; border-left: 4px solid transparent; cursor: pointer; }
#moves li.current { background: #FFF3C4; border-left-color: #E69F00; }
#moves .label { font-weight: bold; }
#moves .line { font-family: DejaVu Sans Mono, Menlo, Consolas, monospace; }
#moves .comment { display: block; color: #444; font-size: 0.9em; }
";

const SCRIPT: &str = "
(function () {
  'use strict';
  var frames = document.querySelectorAll('section.frame');
  var items = document.querySelectorAll('#moves li');
  var status = document.getElementById('status');
  var data = JSON.parse(document.getElementById('positions').textContent);
  var current = 0;
  function draw(i) {
    if (frames[i].firstElementChild) { return; }
    frames[i].innerHTML = data.frames[i].map(function (k) { return data.parts[k]; }).join('');
  }
  function fromAddress() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    for (var k = 0; k < frames.length; k++) {
      if (frames[k].getAttribute('data-id') === id) { return k; }
    }
    return -1;
  }
  function show(i) {
    if (frames.length === 0) { return; }
    current = Math.max(0, Math.min(frames.length - 1, i));
    draw(current);
    try {
      window.history.replaceState(null, '', '#' + frames[current].getAttribute('data-id'));
    } catch (e) { /* an address that cannot change: the page still steps */ }
    for (var k = 0; k < frames.length; k++) {
      var on = k === current;
      frames[k].hidden = !on;
      items[k].classList.toggle('current', on);
      items[k].setAttribute('aria-current', on ? 'step' : 'false');
    }
    status.textContent = frames[current].getAttribute('data-label') +
      ' (' + (current + 1) + ' of ' + frames.length + ')';
    if (items[current].scrollIntoView) { items[current].scrollIntoView({ block: 'nearest' }); }
  }
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  document.getElementById('last').addEventListener('click', function () { show(frames.length - 1); });
  for (var k = 0; k < items.length; k++) {
    items[k].addEventListener('click', (function (i) { return function () { show(i); }; })(k));
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(current - 1); }
    else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(current + 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(frames.length - 1); }
    else { return; }
    e.preventDefault();
  });
  window.addEventListener('hashchange', function () {
    var k = fromAddress();
    if (k >= 0 && k !== current) { show(k); }
  });
  window.herald = { show: show, current: function () { return current; }, count: frames.length };
  show(Math.max(0, fromAddress()));
})();
";

/// Each frame's address in the page: `t12` after turn 12, `t12-2` for a
/// second frame of the same turn (set-up lines all stand at turn 0).
fn addresses(frames: &[Frame]) -> Vec<String> {
    let mut seen: HashMap<u32, usize> = HashMap::new();
    frames
        .iter()
        .map(|f| {
            let n = seen.entry(f.turn).or_insert(0);
            *n += 1;
            match *n {
                1 => format!("t{}", f.turn),
                k => format!("t{}-{k}", f.turn),
            }
        })
        .collect()
}

/// The pictures of `frames` as data: every distinct line once (`parts`),
/// and each frame as the list of its lines (`frames`), in JSON that can
/// stand inside a `<script>` element.
fn positions(frames: &[Frame]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let lists: Vec<Vec<usize>> = frames
        .iter()
        .map(|f| {
            f.svg
                .split_inclusive('\n')
                .map(|line| {
                    *index.entry(line).or_insert_with(|| {
                        parts.push(line);
                        parts.len() - 1
                    })
                })
                .collect()
        })
        .collect();
    let json = serde_json::json!({ "parts": parts, "frames": lists }).to_string();
    // `</` would end the script element early.
    json.replace("</", "<\\/")
}

/// The whole page: `title` as its heading, `view` saying whose view it
/// is (public, or a key holder's), one frame per position.
pub fn page(title: &str, view: &str, frames: &[Frame]) -> String {
    let data = positions(frames);
    let ids = addresses(frames);
    let first = frames.first().map_or(0, |f| f.svg.len());
    let mut out = String::with_capacity(data.len() + first + frames.len() * 512 + 8192);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{t}</h1>\n<p class=\"view\">{v}</p>\n",
        t = escape(title),
        v = escape(view)
    );
    out.push_str(
        "<div id=\"controls\">\
         <button id=\"first\" type=\"button\" title=\"The start (Home)\">&#x25C0;&#x25C0; Start</button>\
         <button id=\"prev\" type=\"button\" title=\"Back a turn (left arrow)\">&#x25C0; Back</button>\
         <button id=\"next\" type=\"button\" title=\"On a turn (right arrow)\">On &#x25B6;</button>\
         <button id=\"last\" type=\"button\" title=\"The end (End)\">End &#x25B6;&#x25B6;</button>\
         <span id=\"status\" aria-live=\"polite\"></span></div>\n<div id=\"main\">\n<div id=\"board\">\n",
    );
    for (i, f) in frames.iter().enumerate() {
        // The first picture stands in the page; the others are drawn
        // from the data when first shown.
        let _ = writeln!(
            out,
            "<section class=\"frame\" data-index=\"{i}\" data-turn=\"{}\" data-id=\"{}\" data-label=\"{}\"{}>{}</section>",
            f.turn,
            ids[i],
            escape(&f.label),
            if i == 0 { "" } else { " hidden" },
            if i == 0 { f.svg.as_str() } else { "" }
        );
    }
    out.push_str("</div>\n<ol id=\"moves\">\n");
    for (i, f) in frames.iter().enumerate() {
        let _ = write!(
            out,
            "<li data-index=\"{i}\" data-turn=\"{}\"><span class=\"label\">{}</span> <span class=\"line\">{}</span>",
            f.turn,
            escape(&f.label),
            escape(&f.line)
        );
        if !f.comment.is_empty() {
            let _ = write!(out, "<span class=\"comment\">{}</span>", escape(&f.comment));
        }
        out.push_str("</li>\n");
    }
    let _ = write!(
        out,
        "</ol>\n</div>\n<script type=\"application/json\" id=\"positions\">{data}</script>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}
