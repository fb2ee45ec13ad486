import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Daemon, startDaemon, waitForPort } from '../daemon.js';
import { freePorts } from '../free-port.js';

const run = promisify(execFile);

/** A private Prosody 0.12 for one test file: client connections, group rooms with archives, file sharing. */
export interface ProsodyServer {
  host: '127.0.0.1';
  c2sPort: number;
  httpPort: number;
  /** The users' domain: `me@example.test`. */
  domain: string;
  /** Rooms here archive every message (XEP-0313) and support moderation (XEP-0425: retraction by a moderator). */
  rooms: string;
  /** Rooms here archive every message but offer no retraction. */
  plainRooms: string;
  /** The HTTP file sharing service (XEP-0363). */
  upload: string;
  dir: string;
  addUser(user: string, password: string): Promise<void>;
  /** Creates a persistent room owned by `owner` (a bare JID). */
  createRoom(room: string, owner: string): Promise<void>;
  stop(): Promise<void>;
}

const DOMAIN = 'example.test';

function config(dir: string, ports: { c2s: number; http: number }): string {
  return `-- Written by test/support/chat/prosody.ts for one test file.
pidfile = "${dir}/prosody.pid"
data_path = "${dir}/data"
certificates = "${dir}/certs"
admin_socket = "${dir}/admin.sock"
log = { info = "${dir}/prosody.log"; error = "${dir}/prosody.err" }
interfaces = { "127.0.0.1" }
c2s_ports = { ${ports.c2s} }
c2s_direct_tls_ports = { }
legacy_ssl_ports = { }
http_ports = { ${ports.http} }
http_interfaces = { "127.0.0.1" }
https_ports = { }
-- No TLS on loopback in tests: plain passwords are fine here, nowhere else.
c2s_require_encryption = false
allow_unencrypted_plain_auth = true
authentication = "internal_hashed"
storage = "internal"
modules_enabled = { "roster"; "saslauth"; "disco"; "ping"; "mam"; "admin_shell"; "http" }
modules_disabled = { "s2s" }
archive_expires_after = "never"

VirtualHost "${DOMAIN}"

Component "rooms.${DOMAIN}" "muc"
  modules_enabled = { "muc_mam"; "muc_moderation" }
  muc_log_all_rooms = true
  muc_log_by_default = true
  muc_room_default_persistent = true
  muc_room_locking = false
  max_archive_query_results = 100

Component "plain-rooms.${DOMAIN}" "muc"
  modules_enabled = { "muc_mam" }
  muc_log_all_rooms = true
  muc_log_by_default = true
  muc_room_default_persistent = true
  muc_room_locking = false

Component "upload.${DOMAIN}" "http_file_share"
  http_file_share_size_limit = 16 * 1024 * 1024
  http_external_url = "http://127.0.0.1:${ports.http}/"
  -- Requests reach it as 127.0.0.1:port, not by its XMPP name.
  http_host = "127.0.0.1"
`;
}

/**
 * Starts Debian's Prosody (`prosody`, `prosody-modules` for moderation) from a config in a temp
 * folder, never the system service, as the prosody user: client connections without TLS, a MUC
 * service with message archives and moderation, one without retraction, and HTTP file sharing.
 */
export async function startProsody(): Promise<ProsodyServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lift-prosody-'));
  for (const folder of ['data', 'certs']) mkdirSync(join(dir, folder));
  const [c2s = 0, http = 0] = await freePorts(2);
  const configFile = join(dir, 'prosody.cfg.lua');
  writeFileSync(configFile, config(dir, { c2s, http }));
  const uid = Number(execFileSync('id', ['-u', 'prosody'], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', 'prosody'], { encoding: 'utf8' }));
  for (const path of [dir, join(dir, 'data'), join(dir, 'certs'), configFile]) chownSync(path, uid, gid);
  const log = join(dir, 'prosody.log');
  const shell = async (command: string): Promise<void> => {
    const bound = Date.now() + 20_000;
    for (;;) {
      const result = await run(
        'runuser',
        ['-u', 'prosody', '--', 'prosodyctl', '--config', configFile, 'shell', command],
        {
          timeout: 20_000,
        },
      ).catch((error: { stdout?: string; stderr?: string }) => ({
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? '',
      }));
      if (/^(Result: |OK)/m.test(result.stdout)) return;
      if (Date.now() > bound)
        throw new Error(`prosodyctl shell ${command}: ${result.stdout}${result.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  let daemon: Daemon | undefined;
  try {
    daemon = startDaemon('runuser', ['-u', 'prosody', '--', 'prosody', '--config', configFile, '-F'], {
      log,
    });
    await waitForPort(daemon, c2s, { log });
    await waitForPort(daemon, http, { log });
  } catch (error) {
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const running = daemon;
  const lua = (text: string) => JSON.stringify(text);
  return {
    host: '127.0.0.1',
    c2sPort: c2s,
    httpPort: http,
    domain: DOMAIN,
    rooms: `rooms.${DOMAIN}`,
    plainRooms: `plain-rooms.${DOMAIN}`,
    upload: `upload.${DOMAIN}`,
    dir,
    addUser: (user, password) => shell(`user:create(${lua(`${user}@${DOMAIN}`)}, ${lua(password)})`),
    createRoom: (room, owner) => {
      const host = room.split('@')[1] ?? '';
      return shell(
        `> local room = prosody.hosts[${lua(host)}].modules.muc.create_room(${lua(room)}); room:set_affiliation(true, ${lua(owner)}, "owner"); room:save(true); return room:get_persistent()`,
      );
    },
    async stop() {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
