/**
 * Hosts a test makes on this machine: network namespaces, each with its own address on a
 * private /24, joined by a bridge whose own address is the "server" host. Nothing else is
 * reachable from a namespace (its loopback and that /24 only). Needs root and iproute2.
 */
import { execFileSync } from 'node:child_process';

export interface PrivateNetwork {
  /** The bridge's address: where a server in the root namespace listens for the hosts. */
  serverAddress: string;
  hosts: Array<{ namespace: string; address: string }>;
  /** Removes the namespaces, their veths and the bridge; safe to call twice. */
  remove(): void;
}

function ip(args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
}

/** `count` namespaces on 10.X.Y.0/24 (X.Y from this process's id, so parallel runs do not meet). */
export function privateNetwork(count: number): PrivateNetwork {
  const tag = String(process.pid % 100_000);
  const subnet = `10.${200 + ((process.pid >> 8) % 50)}.${process.pid % 250}`;
  const bridge = `lb${tag}`;
  const hosts = Array.from({ length: count }, (_, i) => ({
    namespace: `lift-${tag}-${i}`,
    veth: `lv${tag}x${i}`,
    address: `${subnet}.${11 + i}`,
  }));
  const remove = () => {
    for (const host of hosts) {
      try {
        ip(['netns', 'delete', host.namespace]); // takes its end of the veth pair with it
      } catch {}
      try {
        ip(['link', 'delete', host.veth]);
      } catch {}
    }
    try {
      ip(['link', 'delete', bridge]);
    } catch {}
  };
  try {
    ip(['link', 'add', bridge, 'type', 'bridge']);
    ip(['addr', 'add', `${subnet}.1/24`, 'dev', bridge]);
    ip(['link', 'set', bridge, 'up']);
    for (const host of hosts) {
      ip(['netns', 'add', host.namespace]);
      ip(['link', 'add', host.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.namespace]);
      ip(['link', 'set', host.veth, 'master', bridge]);
      ip(['link', 'set', host.veth, 'up']);
      ip(['-n', host.namespace, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0']);
      ip(['-n', host.namespace, 'link', 'set', 'eth0', 'up']);
      ip(['-n', host.namespace, 'link', 'set', 'lo', 'up']);
    }
  } catch (error) {
    remove();
    throw error;
  }
  return {
    serverAddress: `${subnet}.1`,
    hosts: hosts.map(({ namespace, address }) => ({ namespace, address })),
    remove,
  };
}
