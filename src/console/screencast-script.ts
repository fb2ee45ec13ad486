/**
 * The handoff page's script: draws the screencast frames into the image, and sends the
 * person's clicks, text and keys to the page in order (one request at a time).
 */
export const SCREENCAST = `
window.liftHandoff = function () {
  var box = document.querySelector('[data-handoff]');
  if (!box || !window.EventSource) return;
  var id = box.dataset.handoff;
  var csrf = box.dataset.csrf;
  var screen = document.getElementById('screen');
  var base = '/console/handoffs/' + id;
  var size = { width: 0, height: 0 };
  var queue = Promise.resolve();
  function send(fields) {
    var body = new URLSearchParams(fields);
    body.set('csrf', csrf);
    queue = queue.then(function () {
      return fetch(base + '/input', { method: 'POST', body: body, credentials: 'same-origin', headers: { 'x-lift-console': 'input' } });
    }).catch(function () {});
    return queue;
  }
  var frames = new EventSource(base + '/frames');
  frames.addEventListener('frame', function (event) {
    var frame = JSON.parse(event.data);
    size = { width: frame.width, height: frame.height };
    screen.src = 'data:image/jpeg;base64,' + frame.data;
    screen.dataset.frames = String(Number(screen.dataset.frames || '0') + 1);
  });
  screen.addEventListener('click', function (event) {
    screen.focus();
    var box = screen.getBoundingClientRect();
    if (!size.width || !box.width) return;
    var x = Math.round(((event.clientX - box.left) / box.width) * size.width);
    var y = Math.round(((event.clientY - box.top) / box.height) * size.height);
    send({ kind: 'click', x: String(x), y: String(y) });
  });
  // Tab is not taken from the image, so the keyboard can always leave it; the Tab button sends one.
  var KEYS = { Enter: 1, Backspace: 1, Delete: 1, Escape: 1, ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1, ArrowRight: 1, Home: 1, End: 1 };
  screen.addEventListener('keydown', function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (KEYS[event.key]) { event.preventDefault(); send({ kind: 'key', key: event.key }); return; }
    if (event.key.length === 1) { event.preventDefault(); send({ kind: 'text', text: event.key }); }
  });
  Array.prototype.forEach.call(document.querySelectorAll('form[data-send]'), function (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var fields = {};
      new FormData(form).forEach(function (value, name) { fields[name] = String(value); });
      send(fields);
      if (form.hasAttribute('data-clear')) form.querySelector('input[name=text]').value = '';
    });
  });
};
`;
