import { approvalsPage, approveHeld, changeHeld, denyHeld, heldList } from './approvals-page.js';
import { BASE } from './layout.js';
import { redirect, sendHtml } from './respond.js';
import type { ConsoleContext } from './server.js';

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
    run: (c) => sendHtml(c.response, 200, approvalsPage(c.runtime, c.session)),
  },
  {
    method: 'GET',
    path: path('/approvals/held'),
    run: (c) => sendHtml(c.response, 200, heldList(c.runtime, c.session)),
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
    run: (c) => answered(c, denyHeld(c.runtime, c.params[0] ?? ''), APPROVALS),
  },
  {
    method: 'POST',
    path: path('/approvals/:id/change'),
    run: async (c) =>
      answered(c, await changeHeld(c.runtime, c.params[0] ?? '', c.form.get('input') ?? ''), APPROVALS),
  },
];
