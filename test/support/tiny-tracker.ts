import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One issue of the tracker. */
export interface Issue {
  id: number;
  title: string;
  status: string;
}

/**
 * How the tracker answers a create: `prg` redirects to the new issue's page (a page that loads
 * again by its URL), `direct` answers the post with a page of its own at a URL that shows
 * nothing when loaded again (as many older applications do).
 */
export type CreateMode = 'prg' | 'direct';

/** A tiny issue tracker with state, for discovery and replay tests: list, search, issue pages, a create form. */
export interface TinyTracker {
  origin: string;
  issues: Issue[];
  /** Every POST it took, in order (a rehearsal must add none). */
  posts: string[];
  mode: CreateMode;
  close(): Promise<void>;
}

const esc = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${esc(title)} - Tracker</title></head><body><nav aria-label="Main"><a href="/issues">Issues</a> <a href="/issues/new">New issue</a></nav><main>${body}</main></body></html>`;

function list(issues: Issue[], query: string): string {
  const shown = query ? issues.filter((issue) => issue.title.includes(query)) : issues;
  const rows =
    shown.length > 0
      ? shown
          .map(
            (issue) =>
              `<tr><td><a href="/issue?id=${issue.id}">${issue.id}</a></td><td>${esc(issue.title)}</td><td>${esc(issue.status)}</td></tr>`,
          )
          .join('')
      : '<tr><td colspan="3">No data to display</td></tr>';
  return page(
    'Issues',
    `<h1>Issues</h1><form method="get" action="/issues" role="search"><label>Search <input name="q" value="${esc(query)}"></label><button>Search</button></form><table><caption>Issues</caption><thead><tr><th>Id</th><th>Title</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function issuePage(issue: Issue, created: boolean): string {
  return page(
    `Issue ${issue.id}`,
    `${created ? `<p role="status">Issue ${issue.id} created.</p>` : ''}<h1>Issue ${issue.id}</h1><dl><dt>Title</dt><dd>${esc(issue.title)}</dd><dt>Status</dt><dd>${esc(issue.status)}</dd></dl>`,
  );
}

function form(error?: string, title = ''): string {
  return page(
    'New issue',
    `<h1>New issue</h1>${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}<form method="post" action="/issues/create"><label for="title">Title</label> <input id="title" name="title" value="${esc(title)}"><label for="status">Status</label> <select id="status" name="status"><option>New</option><option>Open</option><option>Closed</option></select><button>Create issue</button></form>`,
  );
}

async function body(request: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return new URLSearchParams(text);
}

export async function startTinyTracker(mode: CreateMode = 'prg'): Promise<TinyTracker> {
  const tracker: TinyTracker = {
    origin: '',
    mode,
    posts: [],
    issues: [
      { id: 2, title: 'Printer jams on page 3', status: 'Open' },
      { id: 3, title: 'Cannot log in', status: 'New' },
      { id: 12, title: 'Contact form returns 500', status: 'Closed' },
    ],
    close: async () => undefined,
  };
  const send = (
    response: ServerResponse,
    status: number,
    html: string,
    headers: Record<string, string> = {},
  ) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(html);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    void (async () => {
      if (request.method === 'POST' && url.pathname === '/issues/create') {
        const fields = await body(request);
        const title = fields.get('title')?.trim() ?? '';
        tracker.posts.push(title);
        if (!title) return send(response, 200, form('A title is required.'));
        if (tracker.issues.some((issue) => issue.title === title))
          return send(response, 200, form(`An issue titled "${title}" already exists.`, title));
        const issue = {
          id: Math.max(...tracker.issues.map((known) => known.id)) + 1,
          title,
          status: fields.get('status') ?? 'New',
        };
        tracker.issues.push(issue);
        if (tracker.mode === 'prg')
          return send(response, 303, '', { location: `/issue?id=${issue.id}&created=1` });
        return send(
          response,
          200,
          page(
            'Saved',
            `<h1>Saved issue #${issue.id}</h1><table><thead><tr><th>Title</th><th>Status</th></tr></thead><tbody><tr><td>${esc(issue.title)}</td><td>${esc(issue.status)}</td></tr></tbody></table>`,
          ),
        );
      }
      if (url.pathname === '/issues')
        return send(response, 200, list(tracker.issues, url.searchParams.get('q') ?? ''));
      if (url.pathname === '/issues/new') return send(response, 200, form());
      if (url.pathname === '/issues/create')
        return send(response, 200, page('Tracker', '<p>Nothing to see here.</p>'));
      if (url.pathname === '/issue') {
        const issue = tracker.issues.find((known) => String(known.id) === url.searchParams.get('id'));
        if (issue) return send(response, 200, issuePage(issue, url.searchParams.has('created')));
        return send(
          response,
          200,
          page('Nothing here', '<h1>Nothing here</h1><p>The issue you asked for is not in this tracker.</p>'),
        );
      }
      send(response, 404, page('Not found', '<h1>Not found</h1>'));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tracker.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tracker.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return tracker;
}
