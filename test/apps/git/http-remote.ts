import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface HttpRemote {
  /** http://127.0.0.1:PORT/ ; repositories are served by name below it. */
  url: string;
  /** How many requests were refused for missing or wrong credentials. */
  refused: () => number;
  close(): Promise<void>;
}

/**
 * A git remote over HTTP: a small node server that checks basic auth and hands every
 * request to `git http-backend` (CGI), as a real smart-HTTP git host does.
 */
export async function startHttpRemote(
  projectRoot: string,
  user: string,
  password: string,
): Promise<HttpRemote> {
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  let refused = 0;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    if (request.headers.authorization !== expected) {
      refused += 1;
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="lift-test"' });
      response.end('401 Unauthorized\n');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const backend = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
        ...(request.headers['content-encoding']
          ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] }
          : {}),
        ...(request.headers['git-protocol'] ? { GIT_PROTOCOL: String(request.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    request.pipe(backend.stdin);
    let head = Buffer.alloc(0);
    let headersSent = false;
    backend.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) {
        response.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      response.writeHead(status, headers);
      headersSent = true;
      response.write(head.subarray(end + 4));
    });
    backend.stdout.on('end', () => response.end());
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
