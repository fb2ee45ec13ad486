import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, freePorts } from './free-port.js';

const ephemeralStart = Number(
  readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
);

describe('ports for the servers a test starts', () => {
  it('are bindable and below the range the kernel gives outgoing connections', async () => {
    const ports = await freePorts(20);
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
