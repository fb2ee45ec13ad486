import { HANDOFF_KEYS } from '../rungs/ui/handoff/input.js';
import type { HandoffRecord } from '../store/handoffs.js';
import type { ConsoleSession } from './auth.js';
import { type Html, html } from './html.js';
import { BASE, csrfField, page } from './layout.js';

function shortTime(iso: string): string {
  return iso.replace('T', ' ').slice(0, 19);
}

/** Which call waits on the page: the tool, and its run when one is recorded. */
function heldBy(record: HandoffRecord): Html {
  const tool = record.tool ? html`<code>${record.tool}</code>` : html`a run`;
  return record.runId
    ? html`${tool}, run <a href="${BASE}/runs/${record.runId}"><code>${record.runId}</code></a>`
    : tool;
}

export function handoffsPage(waiting: HandoffRecord[], session: ConsoleSession): Html {
  return page({
    title: waiting.length > 0 ? `(${waiting.length}) Handoffs` : 'Handoffs',
    section: 'handoffs',
    session,
    body: html`<h1>Handoffs</h1>
<p id="handoffs-live" class="visually-hidden" role="status" data-live-reload="${BASE}/handoffs/events" data-ids="${waiting.map((handoff) => handoff.id).join(' ')}"></p>
<p>Pages Lift handed to a person: an expired session, a second factor. Take one over, sign in, then press Done; the run goes on where the page is.</p>
${
  waiting.length === 0
    ? html`<p class="empty">No page is waiting for a person.</p>`
    : html`<ol class="cards">${waiting.map(
        (handoff) => html`<li class="card held"><article aria-labelledby="${handoff.id}-title">
<h2 id="${handoff.id}-title">${handoff.reason}</h2>
<p>For ${heldBy(handoff)} · waiting since <time datetime="${handoff.startedAt}">${shortTime(handoff.startedAt)}</time>, until <time datetime="${handoff.deadlineAt}">${shortTime(handoff.deadlineAt)}</time> · <code>${handoff.id}</code></p>
<p><a class="button" href="${BASE}/handoffs/${handoff.id}">Take over</a></p>
</article></li>`,
      )}</ol>`
}`,
  });
}

function keyButton(id: string, key: string, session: ConsoleSession): Html {
  return html`<form method="post" action="${BASE}/handoffs/${id}/input" data-send>${csrfField(session)}<input type="hidden" name="kind" value="key"><input type="hidden" name="key" value="${key}"><button type="submit" aria-label="Press ${key} in the page">${key}</button></form>`;
}

const KEY_BUTTONS: readonly string[] = HANDOFF_KEYS.filter((key) =>
  ['Tab', 'Enter', 'Backspace', 'Escape'].includes(key),
);

export function handoffPage(handoff: HandoffRecord, session: ConsoleSession): Html {
  const { id } = handoff;
  const action = `${BASE}/handoffs/${id}/input`;
  return page({
    title: 'Take over',
    section: 'handoffs',
    session,
    body: html`<p><a href="${BASE}/handoffs">← All handoffs</a></p>
<h1>Take over: ${handoff.reason}</h1>
<p>For ${heldBy(handoff)}, until <time datetime="${handoff.deadlineAt}">${shortTime(handoff.deadlineAt)}</time>. The page as it is now, live. Click on it to put the cursor where you want, then type; your keys go to that page and are never logged.</p>
<form method="post" action="${action}" class="answer" data-send data-clear>
${csrfField(session)}<input type="hidden" name="kind" value="text">
<label for="send-text">Type into the page (hidden while you type)</label>
<input id="send-text" name="text" type="password" autocomplete="off" spellcheck="false">
<button type="submit">Send text</button>
</form>
<div class="keys" role="group" aria-label="Keys">${KEY_BUTTONS.map((key) => keyButton(id, key, session))}</div>
<form method="post" action="${BASE}/handoffs/${id}/done" class="answer">
${csrfField(session)}
<button type="submit" class="yes">Done: resume the run</button>
</form>
<div class="handoff" data-handoff="${id}" data-csrf="${session.csrf}">
<img id="screen" class="screen" tabindex="0" alt="Live view of the handed-over page. Click to point; while it has focus, typing goes to the page.">
</div>`,
  });
}
