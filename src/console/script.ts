/**
 * The console's one script, small and plain: it swaps in the held-call list when the server
 * says the set changed (Server-Sent Events), and drives a handoff's screencast. Every page
 * works without it; it only saves a reload.
 */
export const SCRIPT = `
'use strict';
(function () {
  function ids(list) {
    return Array.prototype.map.call(list.querySelectorAll('li[data-id]'), function (item) { return item.dataset.id; });
  }
  function say(text) {
    var note = document.getElementById('live-note');
    if (note) note.textContent = text;
  }
  function mergeHeld(section, html) {
    var incoming = document.createElement('div');
    incoming.innerHTML = html;
    var next = incoming.querySelector('#held');
    var list = section.querySelector('#held');
    if (!next || !list) return;
    var wanted = ids(next);
    Array.prototype.forEach.call(list.querySelectorAll('li[data-id]'), function (item) {
      if (wanted.indexOf(item.dataset.id) < 0) item.remove();
    });
    var have = ids(list);
    var added = [];
    Array.prototype.forEach.call(next.querySelectorAll('li[data-id]'), function (item) {
      if (have.indexOf(item.dataset.id) < 0) { list.appendChild(item); added.push(item); }
    });
    var empty = section.querySelector('#none-held');
    var nextEmpty = incoming.querySelector('#none-held');
    if (empty && !nextEmpty) empty.remove();
    if (!empty && nextEmpty) list.after(nextEmpty);
    var count = wanted.length;
    document.title = (count > 0 ? '(' + count + ') ' : '') + 'Approvals · Lift console';
    if (added.length > 0) {
      var tool = added[0].querySelector('.tool');
      say('New held call' + (tool ? ': ' + tool.textContent : '') + '.');
    }
  }
  function watchHeld() {
    var section = document.querySelector('[data-live]');
    if (!section || !window.EventSource) return;
    var source = new EventSource(section.dataset.live.replace(/held(\\?.*)?$/, 'events'));
    source.addEventListener('held', function (event) {
      var list = section.querySelector('#held');
      if (list && ids(list).join(' ') === event.data) return;
      fetch(section.dataset.live, { credentials: 'same-origin' })
        .then(function (response) { return response.ok ? response.text() : ''; })
        .then(function (html) { if (html) mergeHeld(section, html); });
    });
  }
  // A list with nothing to lose (the handoffs): when its set changes, it is read again.
  function reloadOnChange() {
    var marker = document.querySelector('[data-live-reload]');
    if (!marker || !window.EventSource) return;
    var source = new EventSource(marker.dataset.liveReload);
    source.addEventListener('handoffs', function (event) {
      if (event.data === marker.dataset.ids) return;
      source.close();
      marker.textContent = 'The list changed; reading it again.';
      window.location.reload();
    });
  }
  document.addEventListener('DOMContentLoaded', function () {
    watchHeld();
    reloadOnChange();
    if (window.liftHandoff) window.liftHandoff();
  });
})();
`;
