import { approvalsPage, approveHeld, changeHeld, denyHeld, heldList } from './approvals-page.js';
import { capabilitiesPage, capabilityPage, diffPage, enableCapability } from './capabilities-page.js';
import { HANDOFF_ROUTES } from './handoff-routes.js';
import { BASE } from './layout.js';
import { redirect, sendBytes, sendHtml } from './respond.js';
import { screenshotBytes } from './run-screenshots.js';
import { filterFrom, runPage, runsPage } from './runs-page.js';
import type { ConsoleContext } from './server.js';
import { ladderPage, toolPage, toolsPage } from './tools-page.js';

export interface Route {
  method: 'GET' | 'POST';
  path: RegExp;
  run(context: ConsoleContext): Promise<void> | void;
}

const ID = '([A-Za-z0-9_.:-]{1,200})';

function path(pattern: string): RegExp {
  return new RegExp(`^${BASE}${pattern.replaceAll(':id', ID)}$`);
}

/** Answers a form post with the outcome on the next page (post, redirect, get). */
function answered(context: ConsoleContext, flash: string, location: string): void {
  context.session.flash = flash;
  redirect(context.response, location);
}

const APPROVALS = `${BASE}/approvals`;

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: path('/approvals'),
    run: async (c) =>
      sendHtml(
        c.response,
        200,
        await approvalsPage(c.runtime, c.session, c.url.searchParams.get('tool') ?? ''),
      ),
  },
  {
    method: 'GET',
    path: path('/approvals/held'),
    run: async (c) =>
      sendHtml(c.response, 200, await heldList(c.runtime, c.session, c.url.searchParams.get('tool') ?? '')),
  },
  { method: 'GET', path: path('/approvals/events'), run: (c) => c.watch.subscribe(c.response) },
  {
    method: 'POST',
    path: path('/approvals/:id/approve'),
    run: async (c) => {
      const phrase = c.form.get('phrase') ?? undefined;
      answered(c, await approveHeld(c.runtime, c.params[0] ?? '', phrase), APPROVALS);
    },
  },
  {
    method: 'POST',
    path: path('/approvals/:id/deny'),
    run: async (c) => answered(c, await denyHeld(c.runtime, c.params[0] ?? ''), APPROVALS),
  },
  {
    method: 'POST',
    path: path('/approvals/:id/change'),
    run: async (c) =>
      answered(c, await changeHeld(c.runtime, c.params[0] ?? '', c.form.get('input') ?? ''), APPROVALS),
  },
  {
    method: 'GET',
    path: path('/runs'),
    run: async (c) => sendHtml(c.response, 200, await runsPage(c.runtime, c.session, filterFrom(c.url))),
  },
  {
    method: 'GET',
    path: path('/runs/:id'),
    run: async (c) => sendHtml(c.response, 200, await runPage(c.runtime, c.session, c.params[0] ?? '')),
  },
  {
    method: 'GET',
    path: path('/runs/:id/screenshots/(\\d{1,4})'),
    run: async (c) =>
      sendBytes(
        c.response,
        await screenshotBytes(c.runtime, c.params[0] ?? '', Number(c.params[1])),
        'image/png',
      ),
  },
  {
    method: 'GET',
    path: path('/capabilities'),
    run: async (c) => sendHtml(c.response, 200, await capabilitiesPage(c.runtime, c.session)),
  },
  {
    method: 'GET',
    path: path('/capabilities/diff'),
    run: async (c) =>
      sendHtml(
        c.response,
        200,
        await diffPage(
          c.runtime,
          c.session,
          c.url.searchParams.get('a') ?? '',
          c.url.searchParams.get('b') ?? '',
        ),
      ),
  },
  {
    method: 'GET',
    path: path('/capabilities/:id'),
    run: async (c) =>
      sendHtml(c.response, 200, await capabilityPage(c.runtime, c.session, c.params[0] ?? '')),
  },
  {
    method: 'POST',
    path: path('/capabilities/:id/enable'),
    run: async (c) =>
      answered(c, await enableCapability(c.runtime, c.params[0] ?? ''), `${BASE}/capabilities`),
  },
  {
    method: 'GET',
    path: path('/tools'),
    run: (c) => sendHtml(c.response, 200, toolsPage(c.runtime, c.session, c.url.searchParams.get('q') ?? '')),
  },
  {
    method: 'GET',
    path: path('/tools/:id'),
    run: (c) => sendHtml(c.response, 200, toolPage(c.runtime, c.session, c.params[0] ?? '')),
  },
  {
    method: 'GET',
    path: path('/ladder'),
    run: async (c) => sendHtml(c.response, 200, await ladderPage(c.runtime, c.session)),
  },
  ...HANDOFF_ROUTES,
];
