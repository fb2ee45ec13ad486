import { join } from 'node:path';
import { freePort, type Service, startService, waitFor } from './processes.js';

export interface PhpServerOptions {
  name: string;
  /** The folder served; PHP files run, everything else is sent as a file. */
  docroot: string;
  /** Where the server's log (one line per request, PHP errors) goes. */
  logDir: string;
  /** php.ini settings, as `-d key=value`. */
  ini?: Record<string, string>;
  env?: Record<string, string>;
  /** A path that answers once the application is ready (any HTTP status below 500). */
  probe: string;
  port?: number;
}

export interface PhpServer {
  readonly port: number;
  readonly origin: string;
  readonly service: Service;
  stop(): Promise<void>;
}

/** Four workers: a page's parallel requests (scripts, styles, XHR) do not queue behind each other. */
const WORKERS = '4';

const BASE_INI: Record<string, string> = {
  'opcache.enable_cli': '1',
  'apc.enabled': '0',
  memory_limit: '512M',
  upload_max_filesize: '16M',
  post_max_size: '16M',
  display_errors: 'stderr',
  log_errors: '1',
  'date.timezone': 'UTC',
  max_execution_time: '120',
};

/** PHP's built-in web server on 127.0.0.1, running Debian's php-cli. */
export async function startPhpServer(options: PhpServerOptions): Promise<PhpServer> {
  const port = options.port ?? (await freePort());
  const ini = { ...BASE_INI, ...options.ini };
  const service = startService(
    `${options.name} (php -S)`,
    'php',
    [
      ...Object.entries(ini).flatMap(([key, value]) => ['-d', `${key}=${value}`]),
      '-S',
      `127.0.0.1:${port}`,
      '-t',
      options.docroot,
    ],
    {
      cwd: options.docroot,
      env: { ...process.env, ...options.env, PHP_CLI_SERVER_WORKERS: WORKERS },
      logFile: join(options.logDir, `${options.name}-php.log`),
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      `${options.name} to answer ${options.probe}`,
      async () => {
        const response = await fetch(`${origin}${options.probe}`, { redirect: 'manual' });
        await response.arrayBuffer();
        return response.status < 500 ? true : undefined;
      },
      { timeoutMs: 60_000, service },
    );
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { port, origin, service, stop: () => service.stop() };
}
