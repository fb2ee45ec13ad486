import type { Runtime } from '../runtime/runtime.js';
import { isModelEvent, type RunEvent, type RunRecord } from '../store/runs.js';
import type { ConsoleSession } from './auth.js';
import { type Html, html } from './html.js';
import { BASE, page } from './layout.js';
import { Missing } from './missing.js';
import { type RunScreenshot, screenshotsOf, screenshotUrl } from './run-screenshots.js';

const SINCE = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  all: Number.POSITIVE_INFINITY,
} as const;
type Since = keyof typeof SINCE;
const OUTCOMES = ['any', 'ok', 'held', 'failed', 'open'] as const;
type Outcome = (typeof OUTCOMES)[number];
/** How many recent runs the list reads before it filters; the CLI reads further (lift runs --limit). */
const SCAN = 2_000;

export interface RunFilter {
  tool: string;
  outcome: Outcome;
  since: Since;
}

export function filterFrom(url: URL): RunFilter {
  const outcome = url.searchParams.get('outcome') ?? 'any';
  const since = url.searchParams.get('since') ?? 'all';
  return {
    tool: (url.searchParams.get('tool') ?? '').trim().slice(0, 200),
    outcome: (OUTCOMES as readonly string[]).includes(outcome) ? (outcome as Outcome) : 'any',
    since: since in SINCE ? (since as Since) : 'all',
  };
}

/** A held run (waiting for a person's yes) is neither ok nor failed. */
function outcomeOf(record: RunRecord): Exclude<Outcome, 'any'> {
  if (record.held) return 'held';
  return record.ok === undefined ? 'open' : record.ok ? 'ok' : 'failed';
}

function durationOf(record: RunRecord): string {
  if (!record.endedAt) return 'running';
  const ms = Date.parse(record.endedAt) - Date.parse(record.startedAt);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function shortTime(iso: string): string {
  return iso.replace('T', ' ').slice(0, 19);
}

function matches(record: RunRecord, filter: RunFilter, now: number): boolean {
  if (filter.tool && !record.title.toLowerCase().includes(filter.tool.toLowerCase())) return false;
  if (filter.outcome !== 'any' && outcomeOf(record) !== filter.outcome) return false;
  return now - Date.parse(record.startedAt) <= SINCE[filter.since];
}

function option(value: string, label: string, chosen: string): Html {
  return html`<option value="${value}"${value === chosen ? html` selected` : ''}>${label}</option>`;
}

function filterForm(filter: RunFilter): Html {
  return html`<form method="get" action="${BASE}/runs" class="filters" role="search" aria-label="Filter runs">
<div><label for="tool">Tool or title</label><input id="tool" name="tool" value="${filter.tool}" placeholder="notice_publish"></div>
<div><label for="outcome">Outcome</label><select id="outcome" name="outcome">${OUTCOMES.map((value) =>
    option(value, value === 'any' ? 'Any' : value, filter.outcome),
  )}</select></div>
<div><label for="since">Started</label><select id="since" name="since">${[
    option('hour', 'Last hour', filter.since),
    option('day', 'Last day', filter.since),
    option('week', 'Last week', filter.since),
    option('all', 'Any time', filter.since),
  ]}</select></div>
<button type="submit">Filter</button>
</form>`;
}

function badge(record: RunRecord): Html {
  const outcome = outcomeOf(record);
  return html`<span class="badge ${outcome}">${outcome}</span>`;
}

export async function runsPage(runtime: Runtime, session: ConsoleSession, filter: RunFilter): Promise<Html> {
  const now = Date.now();
  const runs = (await runtime.store.runs.list(SCAN))
    .filter((record) => matches(record, filter, now))
    .slice(0, 200);
  const table = html`<div class="scroll"><table>
<caption class="visually-hidden">Runs, newest first</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Kind</th><th scope="col">Title</th><th scope="col">Outcome</th><th scope="col">Events</th><th scope="col">Model events</th><th scope="col">Duration</th><th scope="col">Started</th></tr></thead>
<tbody>${runs.map(
    (record) => html`<tr>
<td><a href="${BASE}/runs/${record.id}"><code>${record.id}</code></a></td><td>${record.kind}</td><td>${record.title}</td><td>${badge(record)}</td>
<td>${record.events}</td><td>${record.modelEvents}</td><td>${durationOf(record)}</td><td><time datetime="${record.startedAt}">${shortTime(record.startedAt)}</time></td></tr>`,
  )}</tbody></table></div>`;
  return page({
    title: 'Runs',
    section: 'runs',
    session,
    body: html`<h1>Runs</h1>${filterForm(filter)}
<p id="run-count">${runs.length} ${runs.length === 1 ? 'run' : 'runs'}</p>
${runs.length > 0 ? table : html`<p class="empty">No run matches.</p>`}`,
  });
}

function eventRow(event: RunEvent): Html {
  const { t, type, duration_ms, ...rest } = event;
  const details = Object.keys(rest).length > 0 ? JSON.stringify(rest) : '';
  return html`<tr${isModelEvent(event) ? html` class="model"` : ''}><td><time datetime="${t}">${t.slice(11, 23)}</time></td><td>${type}</td><td>${duration_ms !== undefined ? `${duration_ms} ms` : ''}</td><td><code>${details}</code></td></tr>`;
}

function screenshotFigure(runId: string, shot: RunScreenshot): Html {
  const masked =
    shot.masks === undefined ? '' : `, ${shot.masks} region${shot.masks === 1 ? '' : 's'} masked`;
  return html`<li><figure>
<a href="${screenshotUrl(runId, shot)}"><img src="${screenshotUrl(runId, shot)}" alt="Screenshot ${shot.number} of the run: ${shot.label}, secrets and bound values blacked out" loading="lazy"></a>
<figcaption>${shot.number}. ${shot.label} · <time datetime="${shot.t}">${shot.t.slice(11, 19)}</time>${masked}</figcaption>
</figure></li>`;
}

/** The run's screenshots, masked when they were taken (bound values, secrets, password fields). */
function screenshotList(runId: string, shots: RunScreenshot[]): Html {
  if (shots.length === 0) return html``;
  return html`<h2>Screenshots</h2>
<p>Masked when they were taken: bound inputs, stored secrets, password fields and hidden columns are black boxes.</p>
<ol class="shots">${shots.map((shot) => screenshotFigure(runId, shot))}</ol>`;
}

/** One run: its record and every event, as the run log holds them (already scrubbed). */
export async function runPage(runtime: Runtime, session: ConsoleSession, id: string): Promise<Html> {
  const record = await runtime.store.runs.get(id);
  if (!record) throw new Missing(`No run has id ${id}.`, 'runs', { href: `${BASE}/runs`, label: 'All runs' });
  const events = await runtime.store.runs.events(id);
  const model = events.filter(isModelEvent).length;
  return page({
    title: `Run ${id}`,
    section: 'runs',
    session,
    body: html`<p><a href="${BASE}/runs">← All runs</a></p>
<h1>${record.title}</h1>
<dl class="facts">
<div><dt>Run</dt><dd><code>${record.id}</code></dd></div>
<div><dt>Kind</dt><dd>${record.kind}</dd></div>
<div><dt>Outcome</dt><dd>${badge(record)}</dd></div>
<div><dt>Duration</dt><dd>${durationOf(record)}</dd></div>
<div><dt>Events</dt><dd>${events.length}</dd></div>
<div><dt>Model events</dt><dd id="model-events">${model}</dd></div>
<div><dt>Started</dt><dd><time datetime="${record.startedAt}">${shortTime(record.startedAt)}</time></dd></div>
</dl>
${screenshotList(record.id, screenshotsOf(events))}
<h2>Events</h2>
<div class="scroll"><table>
<caption class="visually-hidden">Events of run ${record.id}</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Duration</th><th scope="col">Details</th></tr></thead>
<tbody>${events.map(eventRow)}</tbody></table></div>`,
  });
}
