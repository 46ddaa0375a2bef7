//! The replay page: one self-contained HTML file holding the SVG of every
//! position of a game, step controls (buttons, the arrow keys, Home and
//! End, a click on a turn) and the list of turns with each turn's
//! annotation, the current one highlighted. Inline CSS and JavaScript
//! only: nothing is fetched when the page is viewed.
//!
//! Each position is a `<section class="frame" data-index data-turn>`; the
//! list item of the same index is `li.current` while it is shown; the
//! script exposes `window.herald.show(i)` and `window.herald.current()`.

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
  var current = 0;
  function show(i) {
    if (frames.length === 0) { return; }
    current = Math.max(0, Math.min(frames.length - 1, i));
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
  window.herald = { show: show, current: function () { return current; }, count: frames.length };
  show(0);
})();
";

/// The whole page: `title` as its heading, `view` saying whose view it
/// is (public, or a key holder's), one frame per position.
pub fn page(title: &str, view: &str, frames: &[Frame]) -> String {
    let mut out = String::with_capacity(frames.iter().map(|f| f.svg.len() + 512).sum());
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
        let _ = write!(
            out,
            "<section class=\"frame\" data-index=\"{i}\" data-turn=\"{}\" data-label=\"{}\"{}>\n{}</section>\n",
            f.turn,
            escape(&f.label),
            if i == 0 { "" } else { " hidden" },
            f.svg
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
        "</ol>\n</div>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}
