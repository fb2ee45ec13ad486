import { contractCard } from '../contract/card.js';
import { gateOf } from '../contract/define-tool.js';
import { rungNumber } from '../contract/effects.js';
import { Ladder } from '../ladder/ladder.js';
import { formatReport, ladderReport, type OperationReport } from '../ladder/report.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ConsoleSession } from './auth.js';
import { type Html, html } from './html.js';
import { BASE, page } from './layout.js';
import { Missing } from './missing.js';

export function toolsPage(runtime: Runtime, session: ConsoleSession, filter: string): Html {
  const wanted = filter.trim().toLowerCase();
  const tools = runtime.registry
    .list()
    .filter(
      (tool) => !wanted || tool.name.includes(wanted) || tool.description.toLowerCase().includes(wanted),
    );
  return page({
    title: 'Tools',
    section: 'tools',
    session,
    body: html`<h1>Tools</h1>
<form method="get" action="${BASE}/tools" class="filters" role="search" aria-label="Find a tool">
<div><label for="q">Name or words</label><input id="q" name="q" value="${filter}" placeholder="record"></div>
<button type="submit">Find</button>
</form>
<p>${tools.length} of ${runtime.registry.list().length} tools</p>
<div class="scroll"><table>
<caption class="visually-hidden">Tools and their contracts</caption>
<thead><tr><th scope="col">Tool</th><th scope="col">Rung</th><th scope="col">Effect</th><th scope="col">Gate</th><th scope="col">What it does</th></tr></thead>
<tbody>${tools.map(
      (
        tool,
      ) => html`<tr><td><a href="${BASE}/tools/${tool.name}"><code>${tool.name}</code></a></td><td>${rungNumber(tool.rung)} ${tool.rung}</td>
<td>${tool.effect.class}</td><td>${gateOf(tool)}</td><td>${tool.description}</td></tr>`,
    )}</tbody></table></div>`,
  });
}

export function toolPage(runtime: Runtime, session: ConsoleSession, name: string): Html {
  const tool = runtime.registry.get(name);
  if (!tool)
    throw new Missing(`No tool is named ${name}.`, 'tools', { href: `${BASE}/tools`, label: 'All tools' });
  return page({
    title: tool.name,
    section: 'tools',
    session,
    body: html`<p><a href="${BASE}/tools">← All tools</a></p>
<h1><code>${tool.name}</code></h1>
<p>${tool.description}</p>
<h2>Contract card</h2>
<pre class="card-text" aria-label="Contract card of ${tool.name}">${contractCard(tool)}</pre>`,
  });
}

function flagList(report: OperationReport): Html {
  if (report.flags.length === 0) return html``;
  return html`<ul class="flags">${report.flags.map((flag) => html`<li class="error"><strong>${flag.flag}</strong>: ${flag.message}</li>`)}</ul>`;
}

export async function ladderPage(runtime: Runtime, session: ConsoleSession): Promise<Html> {
  const reports = await ladderReport(new Ladder(runtime));
  return page({
    title: 'Ladder',
    section: 'ladder',
    session,
    body: html`<h1>Ladder</h1>
${
  reports.length === 0
    ? html`<p class="empty">No operations declared (lift ladder declare FILE).</p>`
    : html`<div class="scroll"><table>
<caption class="visually-hidden">Each operation's rung</caption>
<thead><tr><th scope="col">Operation</th><th scope="col">Rung</th><th scope="col">Tool</th><th scope="col">Effect</th><th scope="col">System</th><th scope="col">Walked</th></tr></thead>
<tbody>${reports.map(
        (
          report,
        ) => html`<tr><td>${report.operation}</td><td>${report.rung ? `${rungNumber(report.rung)} ${report.rung_title}` : 'no rung'}</td>
<td>${report.tool ? html`<a href="${BASE}/tools/${report.tool}"><code>${report.tool}</code></a>` : '-'}</td><td>${report.effect}</td><td>${report.system}${report.own_system ? ' (own)' : ''}</td><td>${report.walks} × (${report.walked_at?.slice(0, 16) ?? 'never'})</td></tr>`,
      )}</tbody></table></div>
${reports.map(
  (report) =>
    html`<section aria-label="${report.operation}"><h2>${report.operation}</h2>${flagList(report)}<pre class="card-text">${formatReport([report])}</pre></section>`,
)}`
}`,
  });
}
