import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A database admin's sign-in form as Adminer writes it: a System select, then Server,
 * Username, Password and Database boxes, labels in each row's header cell, a Login button.
 */
export const ADMINER_LIKE_FORM = `<form method="post" action="/login"><table>
<tr><th>System</th><td><select name="driver"><option value="server">MySQL</option><option value="pgsql">PostgreSQL</option></select></td></tr>
<tr><th>Server</th><td><input name="server" placeholder="localhost"></td></tr>
<tr><th>Username</th><td><input name="user" id="username" autocomplete="username"></td></tr>
<tr><th>Password</th><td><input type="password" name="pass" autocomplete="current-password"></td></tr>
<tr><th>Database</th><td><input name="db"></td></tr>
</table><p><input type="submit" value="Login"> <label><input type="checkbox" name="permanent">Permanent login</label></p></form>`;

/** What the application was sent, and how to stop it. */
export interface SignInApp {
  origin: string;
  /** Every sign-in form posted, as sent. */
  posted: Array<Record<string, string>>;
  close(): Promise<void>;
}

const SERVERS: Array<[string, string, string]> = [
  ['2', 'web-02', 'web-team@example.org'],
  ['3', 'db-03', 'dba-oncall@example.org'],
  ['12', 'cache-12', 'platform@example.org'],
];

/**
 * A small application whose home page is public, with a "Log in" link to an Adminer-like
 * form that sends the person back where they were (and one to the same form at
 * `localhost`, another origin), and a servers page only a signed-in
 * browser sees (anyone else is sent to the form). Signs in `admin` with `password` on any
 * server; a server of "db.local" with database "shop" only, when `strictServer`.
 */
export async function startSignInApp(password: string, options: { strictServer?: boolean } = {}) {
  const posted: Array<Record<string, string>> = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://app.test');
    const signedIn = (request.headers.cookie ?? '').includes('session=ok');
    const html = (body: string, title = 'Servers admin') => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
    };
    const redirect = (location: string, cookie?: string) => {
      response.writeHead(303, { location, ...(cookie ? { 'set-cookie': cookie } : {}) });
      response.end();
    };
    if (request.method === 'POST' && url.pathname === '/login') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        posted.push(form);
        const serverOk = !options.strictServer || (form.server === 'db.local' && form.db === 'shop');
        if (form.user === 'admin' && form.pass === password && serverOk)
          return redirect(url.searchParams.get('back') ?? '/', 'session=ok; Path=/');
        html(`<h1>Login</h1><p role="alert">Invalid credentials.</p>${ADMINER_LIKE_FORM}`, 'Login');
      });
      return;
    }
    if (url.pathname === '/login') {
      const back = url.searchParams.get('back');
      const form = back
        ? ADMINER_LIKE_FORM.replace('action="/login"', `action="/login?back=${encodeURIComponent(back)}"`)
        : ADMINER_LIKE_FORM;
      return html(`<h1>Login</h1>${form}`, 'Login');
    }
    if (url.pathname === '/servers') {
      if (!signedIn) return redirect('/login?back=/servers');
      const rows = SERVERS.map(
        ([id, host, owner]) => `<tr><td>${id}</td><td>${host}</td><td>${owner}</td></tr>`,
      );
      return html(
        `<nav><a href="/">Home</a> <a href="/logout">Logout</a></nav><h1>Servers</h1>
<table><thead><tr><th>Id</th><th>Host</th><th>Owner</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      );
    }
    if (url.pathname === '/logout') return redirect('/', 'session=; Path=/; Max-Age=0');
    // The same server by another name: another origin, for a form the session must not fill.
    const mirror = `http://localhost:${(server.address() as AddressInfo).port}`;
    // The public home page: anyone reads it; a signed-in person sees where to go.
    return html(
      signedIn
        ? '<nav><a href="/servers">Servers</a> <a href="/logout">Logout</a></nav><h1>Servers admin</h1><p>Signed in.</p>' +
            '<form action="/servers"><input type="search" name="q" aria-label="Find a server"><button>Find</button></form>'
        : `<nav><a href="/login?back=/">Log in</a> <a href="${mirror}/login">Log in on the mirror</a></nav><h1>Servers admin</h1><p>Sign in to see the servers.</p>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    posted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } satisfies SignInApp;
}
