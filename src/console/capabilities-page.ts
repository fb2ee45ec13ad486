import type { Capability } from '../capability/capability.js';
import { diffValues, formatDifference } from '../capability/diff.js';
import { CapabilityStore, type StoredCapability } from '../capability/store.js';
import { isLiftError } from '../contract/errors.js';
import type { Registration } from '../replay/registrations.js';
import { describeTarget } from '../replay/targets.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ConsoleSession } from './auth.js';
import { type Html, html } from './html.js';
import { BASE, csrfField, page } from './layout.js';
import { Missing } from './missing.js';

function stores(runtime: Runtime) {
  return {
    capabilities: new CapabilityStore(runtime.store.capabilities),
    registrations: runtime.store.registrations,
  };
}

function short(revision: string): string {
  return revision.slice(0, 12);
}

function stateOf(
  stored: StoredCapability,
  registration: Registration | undefined,
  session: ConsoleSession,
): Html {
  if (!registration || registration.revision !== stored.revision)
    return html`<span class="badge">not registered</span>`;
  if (registration.enabled)
    return html`<span class="badge ok">enabled · ${registration.effectClass}</span>${registration.surfaceFailures > 0 ? html` <small>${registration.surfaceFailures} surface failure(s)</small>` : ''}`;
  return html`<span class="badge failed">switched off</span>
<p class="reason">${registration.disabledReason ?? 'after repeated SURFACE_CHANGED failures'}</p>
<form method="post" action="${BASE}/capabilities/${registration.name}/enable">${csrfField(session)}<button type="submit" aria-label="Enable ${registration.name} again">Enable again</button></form>`;
}

function revisionOptions(all: StoredCapability[], chosen: string): Html[] {
  return all.map(
    (stored) =>
      html`<option value="${stored.revision}"${stored.revision === chosen ? html` selected` : ''}>${stored.name} ${short(stored.revision)} (${stored.createdAt.slice(0, 16)})</option>`,
  );
}

function diffForm(all: StoredCapability[], a = '', b = ''): Html {
  if (all.length < 2) return html``;
  return html`<form method="get" action="${BASE}/capabilities/diff" class="filters" aria-label="Compare two revisions">
<div><label for="diff-a">Before</label><select id="diff-a" name="a">${revisionOptions(all, a || (all[1]?.revision ?? ''))}</select></div>
<div><label for="diff-b">After</label><select id="diff-b" name="b">${revisionOptions(all, b || (all[0]?.revision ?? ''))}</select></div>
<button type="submit">Compare</button>
</form>`;
}

export async function capabilitiesPage(runtime: Runtime, session: ConsoleSession): Promise<Html> {
  const { capabilities, registrations } = stores(runtime);
  const all = await capabilities.list();
  const registered = new Map(
    (await registrations.list()).map((registration) => [registration.name, registration]),
  );
  const rows = all.map(
    (stored) => html`<tr>
<td><a href="${BASE}/capabilities/${stored.revision}">${stored.name}</a></td><td><code class="nowrap">${short(stored.revision)}</code></td>
<td>${stored.intent}</td><td>${stored.steps}</td><td>${stateOf(stored, registered.get(stored.name), session)}</td>
<td><time datetime="${stored.createdAt}">${stored.createdAt.replace('T', ' ').slice(0, 19)}</time></td></tr>`,
  );
  return page({
    title: 'Capabilities',
    section: 'capabilities',
    session,
    body: html`<h1>Capabilities</h1>
${
  all.length === 0
    ? html`<p class="empty">No capabilities yet (lift discover, or lift demo).</p>`
    : html`${diffForm(all)}<div class="scroll"><table>
<caption class="visually-hidden">Stored capability revisions, newest first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Revision</th><th scope="col">Intent</th><th scope="col">Steps</th><th scope="col">Tool</th><th scope="col">Created</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}`,
  });
}

function stepText(step: Capability['steps'][number]): string {
  const where = step.op === 'navigate' ? step.path : describeTarget(step.target);
  const value = 'value' in step ? ` ← ${JSON.stringify(step.value)}` : '';
  return `${step.op} ${where}${value}${step.op === 'read' ? ` → ${step.output}` : ''}`;
}

function cardBody(capability: Capability, revision: string): Html {
  const p = capability.provenance;
  return html`<dl class="facts">
<div><dt>Revision</dt><dd><code>${revision}</code></dd></div>
<div><dt>Start</dt><dd><code>${capability.preconditions.origin}${capability.preconditions.path}</code></dd></div>
</dl>
<h2>Intent</h2><p>${capability.intent}</p>
<h2>Inputs</h2><ul>${capability.inputs.map((input) => html`<li><code>${input.name}</code>: ${input.type}</li>`)}</ul>
<h2>Outputs</h2><ul>${capability.outputs.map((output) => html`<li><code>${output.name}</code>: ${output.type}</li>`)}</ul>
<h2>Steps</h2><ol class="steps">${capability.steps.map((step) => html`<li><code>${stepText(step)}</code></li>`)}</ol>
<h2>Checkpoint</h2><p><code>${describeTarget(capability.checkpoint.target)}</code> equals input <code>${capability.checkpoint.equals.input}</code></p>
<h2>Outcomes</h2><p>${capability.outcomes.join(', ')}</p>
<h2>Provenance</h2><p>${p.explorer} explorer${p.model ? ` (${p.model})` : ''}, run <a href="${BASE}/runs/${p.runId}"><code>${p.runId}</code></a>, ${p.createdAt}, Lift ${p.liftVersion}</p>`;
}

const ALL_CAPABILITIES = { href: `${BASE}/capabilities`, label: 'All capabilities' };

/** A name, revision or prefix that no stored capability answers to. */
function missingRevision(reference: string): Missing {
  return new Missing(
    reference
      ? `No stored capability or revision matches ${reference}.`
      : 'Pick two stored revisions to compare.',
    'capabilities',
    ALL_CAPABILITIES,
  );
}

/** The stored capability, or Missing when its file is gone from the store. */
async function loadStored(capabilities: CapabilityStore, stored: StoredCapability): Promise<Capability> {
  try {
    return await capabilities.load(stored.revision);
  } catch (error) {
    if (isLiftError(error) && error.code === 'NOT_FOUND')
      throw new Missing(
        `The file of ${stored.name} ${short(stored.revision)} is gone from the store.`,
        'capabilities',
        ALL_CAPABILITIES,
      );
    throw error;
  }
}

export async function capabilityPage(
  runtime: Runtime,
  session: ConsoleSession,
  reference: string,
): Promise<Html> {
  const { capabilities, registrations } = stores(runtime);
  const stored = await capabilities.resolve(reference);
  if (!stored) throw missingRevision(reference);
  const capability = await loadStored(capabilities, stored);
  const others = (await capabilities.list()).filter((other) => other.name === stored.name);
  const registration = await registrations.get(stored.name);
  return page({
    title: capability.name,
    section: 'capabilities',
    session,
    body: html`<p><a href="${BASE}/capabilities">← All capabilities</a></p>
<h1>${capability.name}</h1>
<div class="state">${stateOf(stored, registration, session)}</div>
${cardBody(capability, stored.revision)}
${others.length > 1 ? html`<h2>Other revisions</h2>${diffForm(others, others.find((o) => o.revision !== stored.revision)?.revision, stored.revision)}` : ''}`,
  });
}

function differenceClass(kind: string): string {
  return kind === 'added' ? 'diff-add' : kind === 'removed' ? 'diff-remove' : 'diff-change';
}

export async function diffPage(
  runtime: Runtime,
  session: ConsoleSession,
  a: string,
  b: string,
): Promise<Html> {
  const { capabilities } = stores(runtime);
  const before = await capabilities.resolve(a);
  const after = await capabilities.resolve(b);
  if (!before) throw missingRevision(a);
  if (!after) throw missingRevision(b);
  const differences = diffValues(
    await loadStored(capabilities, before),
    await loadStored(capabilities, after),
  );
  const all = await capabilities.list();
  return page({
    title: `Diff ${before.name}`,
    section: 'capabilities',
    session,
    body: html`<p><a href="${BASE}/capabilities">← All capabilities</a></p>
<h1>${before.name} <code>${short(before.revision)}</code> → ${after.name} <code>${short(after.revision)}</code></h1>
${diffForm(all, before.revision, after.revision)}
${
  differences.length === 0
    ? html`<p>The two revisions are identical.</p>`
    : html`<p>${differences.length} difference${differences.length === 1 ? '' : 's'}</p>
<ul class="diff">${differences.map((difference) => html`<li class="${differenceClass(difference.kind)}"><code>${formatDifference(difference)}</code></li>`)}</ul>`
}`,
  });
}

export async function enableCapability(runtime: Runtime, name: string): Promise<string> {
  return (await runtime.store.registrations.enable(name))
    ? `${name} is enabled again.`
    : `No registered capability is named ${name}.`;
}
