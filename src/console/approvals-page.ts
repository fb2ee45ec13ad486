import { describeEnvelope, type Envelope, isPending } from '../contract/envelope.js';
import { isLiftError } from '../contract/errors.js';
import type { Runtime } from '../runtime/runtime.js';
import type { Approval } from '../store/approvals.js';
import type { ConsoleSession } from './auth.js';
import { type Html, html } from './html.js';
import { BASE, csrfField, page } from './layout.js';

function effectOf(runtime: Runtime, approval: Approval): string {
  return runtime.registry.get(approval.tool)?.effect.class ?? 'unknown effect';
}

/** The input as the person may see it: every known secret masked. */
function maskedInput(runtime: Runtime, approval: Approval): string {
  return runtime.store.secrets.scrubbedJson(approval.input, 2);
}

function approveForm(approval: Approval, session: ConsoleSession): Html {
  const phraseId = `${approval.id}-phrase`;
  const signature = approval.gate === 'signature' && approval.phrase;
  return html`<form method="post" action="${BASE}/approvals/${approval.id}/approve" class="answer">
${csrfField(session)}
${
  signature
    ? html`<label for="${phraseId}">Type the phrase <code class="phrase">${approval.phrase}</code> to sign</label>
<input id="${phraseId}" name="phrase" autocomplete="off" spellcheck="false" required>`
    : ''
}
<button type="submit" class="yes" aria-describedby="${approval.id}-title">Approve</button>
</form>`;
}

function heldCard(runtime: Runtime, approval: Approval, session: ConsoleSession): Html {
  const id = approval.id;
  return html`<li class="card held" data-id="${id}">
<article aria-labelledby="${id}-title">
<h3 id="${id}-title"><span class="tool">${approval.tool}</span> <span class="badge ${approval.gate}">${effectOf(runtime, approval)} · ${approval.gate}</span></h3>
<dl class="facts">
<div><dt>Approval</dt><dd><code>${id}</code></dd></div>
<div><dt>Held at</dt><dd><time datetime="${approval.createdAt}">${approval.createdAt.replace('T', ' ').slice(0, 19)}</time></dd></div>
${approval.requestId ? html`<div><dt>Request id</dt><dd><code>${approval.requestId}</code></dd></div>` : ''}
</dl>
<h4>What it will do</h4>
<pre class="preview">${approval.preview}</pre>
<p class="digest">Input digest <code>${approval.inputDigest}</code>${approval.phrase ? ' (the phrase to sign names it)' : ''}</p>
${approval.envelope ? html`<p class="attempt" role="note">Approved before, and nothing ran: ${runtime.store.secrets.scrub(describeEnvelope(JSON.parse(approval.envelope) as Envelope))}</p>` : ''}
<details>
<summary>Input (secrets masked)</summary>
<pre class="input">${maskedInput(runtime, approval)}</pre>
</details>
<div class="answers">
${approveForm(approval, session)}
<form method="post" action="${BASE}/approvals/${id}/deny" class="answer">
${csrfField(session)}
<button type="submit" class="no" aria-describedby="${id}-title">Deny</button>
</form>
</div>
<details class="change">
<summary>Change the input</summary>
<form method="post" action="${BASE}/approvals/${id}/change">
${csrfField(session)}
<label for="${id}-input">New input for ${approval.tool} (JSON). The changed call is held again and needs its own yes; this one is denied.</label>
<textarea id="${id}-input" name="input" rows="6" spellcheck="false">${maskedInput(runtime, approval)}</textarea>
<button type="submit">Hold the changed call</button>
</form>
</details>
</article>
</li>`;
}

function outcomeOf(approval: Approval): string {
  if (approval.state === 'executed' && approval.envelope) {
    return describeEnvelope(JSON.parse(approval.envelope) as Envelope);
  }
  if (approval.state === 'denied' && approval.replacedBy) return `changed: now ${approval.replacedBy}`;
  return approval.state;
}

/**
 * The held calls as a list (of one tool's calls when `tool` names one); the page's script swaps
 * it in when the set of held calls changes.
 */
export async function heldList(runtime: Runtime, session: ConsoleSession, tool = ''): Promise<Html> {
  const held = (await runtime.store.approvals.list(['pending'])).filter(
    (approval) => tool === '' || approval.tool === tool,
  );
  return html`<ol id="held" class="cards" data-count="${held.length}">${held.map((approval) => heldCard(runtime, approval, session))}</ol>
${held.length === 0 ? html`<p id="none-held" class="empty">Nothing is held. Calls that need a person appear here as they arrive.</p>` : ''}`;
}

async function recentTable(runtime: Runtime): Promise<Html> {
  const recent = await runtime.store.approvals.recent(20);
  if (recent.length === 0) return html`<p class="empty">No answers yet.</p>`;
  return html`<div class="scroll"><table>
<caption class="visually-hidden">Recently answered held calls</caption>
<thead><tr><th scope="col">Approval</th><th scope="col">Tool</th><th scope="col">Answer</th><th scope="col">By</th><th scope="col">When</th></tr></thead>
<tbody>${recent.map(
    (approval) =>
      html`<tr><td><code>${approval.id}</code></td><td>${approval.tool}</td><td>${runtime.store.secrets.scrub(outcomeOf(approval))}</td><td>${approval.decidedBy ?? ''}</td><td><time datetime="${approval.decidedAt ?? ''}">${(approval.decidedAt ?? '').replace('T', ' ').slice(0, 19)}</time></td></tr>`,
  )}</tbody>
</table></div>`;
}

/** `tool` (from `?tool=`) shows only that tool's held calls: a person with many waiting can take one tool's in turn. */
export async function approvalsPage(runtime: Runtime, session: ConsoleSession, tool = ''): Promise<Html> {
  const count = (await runtime.store.approvals.list(['pending'])).length;
  const only = tool === '' ? '' : `?tool=${encodeURIComponent(tool)}`;
  return page({
    title: count > 0 ? `(${count}) Approvals` : 'Approvals',
    section: 'approvals',
    session,
    body: html`<h1>Approvals</h1>
<section aria-labelledby="held-title" data-live="${BASE}/approvals/held${only}">
<h2 id="held-title">${tool === '' ? 'Held calls' : `Held calls of ${tool}`}</h2>
<p id="live-note" class="visually-hidden" role="status" aria-live="polite" aria-label="New held calls"></p>
${await heldList(runtime, session, tool)}
</section>
<section aria-labelledby="recent-title">
<h2 id="recent-title">Recently answered</h2>
${await recentTable(runtime)}
</section>`,
  });
}

/** Yes: runs the held call once, here; a caller waiting on it sees the recorded result. */
export async function approveHeld(runtime: Runtime, id: string, phrase: string | undefined): Promise<string> {
  try {
    const envelope = await runtime.approve(id, {
      by: 'console',
      ...(phrase !== undefined ? { phrase } : {}),
    });
    return runtime.store.secrets.scrub(`${id} (${envelope.tool}) approved: ${describeEnvelope(envelope)}`);
  } catch (error) {
    if (!isLiftError(error)) throw error;
    return `${id} was not run. ${error.code}: ${error.message}${error.hint ? ` ${error.hint}` : ''}`;
  }
}

export async function denyHeld(runtime: Runtime, id: string): Promise<string> {
  if (await runtime.deny(id, 'console')) return `${id} denied; it will not run.`;
  const approval = await runtime.store.approvals.get(id);
  return approval ? `${id} was already ${approval.state}.` : `No held call has approval id ${id}.`;
}

function parseInput(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** The runtime fills request_id from the held call, so the check does too. */
function withRequestId(value: unknown, requestId: string | undefined): unknown {
  if (!requestId || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return 'request_id' in value ? value : { ...value, request_id: requestId };
}

/**
 * Change: the old call is denied with a pointer to a new held call with the edited input, which
 * needs its own yes. The input is checked first, so a typo does not drop the call.
 */
export async function changeHeld(runtime: Runtime, id: string, text: string): Promise<string> {
  const approval = await runtime.store.approvals.get(id);
  if (approval?.state !== 'pending') return `${id} is no longer held; nothing was changed.`;
  const parsed = parseInput(text);
  if (!parsed.ok) return `The new input is not JSON (${parsed.message}); ${id} is still held.`;
  const tool = runtime.registry.get(approval.tool);
  const valid = tool?.input.safeParse(withRequestId(parsed.value, approval.requestId));
  if (valid && !valid.success) {
    const problem = runtime.store.secrets.scrub(
      valid.error.issues.map((issue: { message: string }) => issue.message).join('; '),
    );
    return `The new input does not fit ${approval.tool} (${problem}); ${id} is still held.`;
  }
  if (!(await runtime.store.approvals.denyForChange(id, 'console (changed the input)')))
    return `${id} was answered meanwhile.`;
  const envelope = await runtime.invoke(
    approval.tool,
    parsed.value,
    approval.requestId ? { requestId: approval.requestId } : {},
  );
  await runtime.store.approvals.linkReplacement(
    id,
    isPending(envelope) ? envelope.pending.approval_id : undefined,
  );
  if (isPending(envelope))
    return `${id} denied; the changed call is held as ${envelope.pending.approval_id} and needs its own yes.`;
  return runtime.store.secrets.scrub(
    `${id} denied; the changed call was not held: ${describeEnvelope(envelope)}`,
  );
}
