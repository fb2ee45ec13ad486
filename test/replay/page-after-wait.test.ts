import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability, Step } from '../../src/capability/capability.js';
import { replayCapability } from '../../src/replay/engine.js';
import type { Target } from '../../src/rungs/ui/locator.js';
import { type PageOnServer, pageOnServer } from '../rungs/ui/page-on-server.js';
import { tempDir } from '../support/temp.js';
import { handWrittenCapability } from './helpers.js';

// Roundcube's send, in a few lines: Send posts the message, says so, and goes back to the
// mail view a moment later by itself. That view shows its folder links at once but hears a
// click on one only after it has fetched its message list; a click before that does nothing.
// The Send step's postcondition (the Sent link) holds as soon as the view is drawn, so the
// next click came before the view was set up: ignored, and the list stayed the Inbox.
const COMPOSE = `<!doctype html><title>Compose</title><main><h1>Compose</h1>
<p id="status"></p><button id="send">Send</button></main><script>
document.getElementById('send').addEventListener('click', async () => {
  await fetch('/send', { method: 'POST' });
  document.getElementById('status').textContent = 'Message sent successfully';
  setTimeout(() => { location.href = '/mail'; }, 300);
});
</script>`;
const MAIL = `<!doctype html><title>Mail</title><main><nav><a href="#inbox">Inbox</a> <a href="#sent" id="sent">Sent</a></nav>
<h1 id="folder">Inbox</h1><ul id="list"></ul></main><script>
const list = (folder, subjects) => {
  document.getElementById('folder').textContent = folder;
  document.getElementById('list').innerHTML = subjects.map((subject) => '<li><a href="#m">' + subject + '</a></li>').join('');
};
fetch('/list').then((response) => response.json()).then((subjects) => {
  list('Inbox', subjects.inbox);
  document.getElementById('sent').addEventListener('click', (event) => {
    event.preventDefault();
    list('Sent', subjects.sent);
  });
});
</script>`;

const role = (name: string, accessibleName: string): Target => ({
  frame: [],
  locator: { by: 'role', role: name, name: accessibleName, exact: true },
});

function sendAndList(origin: string): Capability {
  const steps: Step[] = [
    {
      version: 1,
      op: 'click',
      target: role('button', 'Send'),
      expect: { kind: 'visible', target: role('link', 'Sent') },
    },
    {
      version: 1,
      op: 'click',
      target: role('link', 'Sent'),
      expect: { kind: 'visible', target: role('heading', 'Sent') },
    },
    {
      version: 1,
      op: 'read',
      target: role('link', '{{input.subject}}'),
      output: 'listed',
      expect: { kind: 'none' },
    },
  ];
  return handWrittenCapability({
    name: 'send_and_list',
    intent: 'Send the drafted message and read it from the Sent folder',
    inputs: [{ name: 'subject', type: 'string' }],
    outputs: [{ name: 'listed', type: 'string' }],
    preconditions: { origin, path: '/compose', fingerprint: 'not-checked' },
    steps,
    outcomes: ['found'],
    checkpoint: { target: role('link', '{{input.subject}}'), equals: { input: 'subject' }, match: 'exact' },
  });
}

let server: PageOnServer;
const evidence = tempDir('lift-page-after-wait-');

beforeAll(async () => {
  server = await pageOnServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/list') {
      // The list comes slowly, as on a loaded server: the folder links are long drawn by then.
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ inbox: ['Lunch on Friday?'], sent: ['Offsite agenda'] }));
      }, 500);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(path === '/send' ? '' : path === '/mail' ? MAIL : COMPOSE);
  }, 'lift-page-after-wait-page-');
});
afterAll(async () => {
  await server?.close();
  evidence.remove();
});

describe('a document that comes while a step waits for its postcondition', () => {
  it('is set up by its scripts before the next step acts on it', { timeout: 60_000 }, async () => {
    const result = await replayCapability(
      sendAndList(server.origin),
      { subject: 'Offsite agenda' },
      { page: server.page, layoutTolerant: true, evidenceDir: evidence.path, effectClass: 'read' },
    );
    expect(result).toMatchObject({ outcome: 'found', outputs: { listed: 'Offsite agenda' } });
    expect(result.checkpoint).toMatchObject({ passed: true });
  });
});
