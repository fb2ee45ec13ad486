import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServer, startHttp, TOKEN, type Workspace, workspace } from '../serve/support.js';

let ws: Workspace;
let server: HttpServer;

beforeAll(async () => {
  ws = workspace({ token: true });
  server = await startHttp(ws);
});
afterAll(async () => {
  await server?.stop();
  ws?.remove();
});

describe('lift serve --http serves the console under /console', () => {
  it('signs a browser in with the serve token, while /mcp still wants the bearer token', async () => {
    const base = server.url.replace(/\/mcp$/, '');
    const login = await fetch(`${base}/console/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('Serve token');
    const signedIn = await fetch(`${base}/console/login`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${TOKEN}`,
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const tools = await fetch(`${base}/console/tools`, { headers: { cookie } });
    expect(await tools.text()).toContain('note_wait');
    const mcp = await fetch(server.url, { method: 'POST', headers: { cookie }, body: '{}' });
    expect(mcp.status).toBe(401);
  });
});
