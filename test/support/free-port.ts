import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// A port handed to a child server is free only when it was checked. The kernel gives the
// ephemeral range (32768–60999 here) to every outgoing connection too, so a port picked there
// can be taken by a browser's or a client's connection before the server binds it (CI saw
// WordPress's `php -S` fail with "Address already in use" on a port picked minutes earlier).
// Ports below that range are never handed out by the kernel, so only another listener can take
// them, and a random pick from ~20,000 of them makes two of the bed's own picks meeting unlikely.
const LOWEST = 10_000;
const FALLBACK_EPHEMERAL_START = 32_768;
const TRIES = 200;

function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const start = Number(low);
    return Number.isInteger(start) && start > LOWEST + 1000 ? start : FALLBACK_EPHEMERAL_START;
  } catch {
    return FALLBACK_EPHEMERAL_START;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function osPicked(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A TCP port on 127.0.0.1 that nothing listens on and no outgoing connection will be given. */
export async function freePort(taken: ReadonlySet<number> = new Set()): Promise<number> {
  const end = ephemeralStart();
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (end - LOWEST));
    if (!taken.has(port) && (await bindable(port))) return port;
  }
  return osPicked();
}

/** Several distinct free ports. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort(ports));
  return [...ports];
}
