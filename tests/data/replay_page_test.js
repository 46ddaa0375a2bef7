// The replay page's test, run inside the page by tests/pictures.rs: it
// steps through the page as a reader would (keys and buttons) and writes
// one PASS or FAIL line per check into <pre id="test-result">.
(function () {
  'use strict';
  var expected = /*EXPECTED*/[];
  var ownAtStart = /*OWN_AT_START*/false;
  var atLoad = /*AT_LOAD*/0;
  var lines = [];
  function check(name, ok, detail) {
    lines.push((ok ? 'PASS ' : 'FAIL ') + name + (ok ? '' : ' (' + detail + ')'));
  }
  function frames() { return document.querySelectorAll('section.frame'); }
  function visible() {
    var shown = [];
    var all = frames();
    for (var i = 0; i < all.length; i++) {
      if (!all[i].hidden && getComputedStyle(all[i]).display !== 'none') { shown.push(all[i]); }
    }
    return shown;
  }
  function current() { return document.querySelectorAll('#moves li.current'); }
  function key(name) {
    document.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
  }
  // Exactly one position shows, the list highlights the same one, and the
  // status names its turn.
  function at(step, index) {
    var shown = visible();
    var marked = current();
    var ok = shown.length === 1 && marked.length === 1 &&
      shown[0].getAttribute('data-index') === String(index) &&
      marked[0].getAttribute('data-index') === String(index) &&
      marked[0].getAttribute('data-turn') === shown[0].getAttribute('data-turn') &&
      document.getElementById('status').textContent.indexOf(shown[0].getAttribute('data-label')) === 0;
    var seen = shown.map(function (f) { return f.getAttribute('data-index'); }).join(',');
    check(step + ': position ' + index + ' shows', ok,
      'shown [' + seen + '], highlighted ' + marked.length);
  }
  try {
    var count = frames().length;
    check('the page has its positions', count > 2 && window.herald && window.herald.count === count,
      count + ' frames');
    // Opened at a position's address, the page shows that position.
    at('on load at ' + window.location.hash, atLoad);
    window.herald.show(0);
    at('the start', 0);
    key('ArrowRight');
    at('right arrow', 1);
    document.getElementById('next').click();
    at('On button', 2);
    key('ArrowLeft');
    at('left arrow', 1);
    document.getElementById('prev').click();
    at('Back button', 0);
    key('ArrowLeft');
    at('left arrow at the start', 0);
    key('End');
    at('End key', count - 1);
    key('ArrowRight');
    at('right arrow at the end', count - 1);
    document.getElementById('first').click();
    at('Start button', 0);
    document.querySelectorAll('#moves li')[2].click();
    at('a click on the list', 2);
    // The address names the position shown, and a new address shows its
    // position.
    var id2 = frames()[2].getAttribute('data-id');
    check('the address names the position shown', window.location.hash === '#' + id2,
      window.location.hash + ' for ' + id2);
    window.history.replaceState(null, '', '#' + frames()[1].getAttribute('data-id'));
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    at('a new address', 1);
    expected.forEach(function (e) {
      window.herald.show(e.index);
      var shown = visible();
      var turn = shown.length === 1 ? shown[0].getAttribute('data-turn') : '?';
      var drawn = shown.length === 1 ? shown[0].querySelectorAll('svg g.piece').length : -1;
      check('pieces at turn ' + e.turn, turn === String(e.turn) && drawn === e.pieces,
        'turn ' + turn + ', ' + drawn + ' pieces drawn, ' + e.pieces + ' in the position');
    });
    window.herald.show(0);
    var own = visible()[0].querySelectorAll('g.piece.own').length;
    check('own pieces marked only with a key', ownAtStart ? own > 0 : own === 0, own + ' marked');
  } catch (err) {
    check('the test ran', false, String(err));
  }
  check('no errors', window.__errors.length === 0, window.__errors.join('; '));
  var pre = document.createElement('pre');
  pre.id = 'test-result';
  pre.textContent = lines.join('\n');
  document.body.appendChild(pre);
})();
