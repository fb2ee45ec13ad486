import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LiftError } from '../../contract/errors.js';

/** Where the office suite and the Python that can talk to it live (Debian's own paths). */
export interface OfficePrograms {
  soffice: string;
  python: string;
}

export const DEBIAN_OFFICE: OfficePrograms = {
  soffice: '/usr/lib/libreoffice/program/soffice',
  python: '/usr/bin/python3',
};

/** The bridge script sits next to this module in src/; from dist/ it is found in the source tree. */
function bridgeScript(): string {
  const candidates = [
    fileURLToPath(new URL('./bridge.py', import.meta.url)),
    fileURLToPath(new URL('../../../src/apps/office/bridge.py', import.meta.url)),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found)
    throw new LiftError(
      'INTERNAL_ERROR',
      `The office bridge script is missing (looked in ${candidates.join(', ')}).`,
    );
  return found;
}

/** Process ids whose command line mentions `marker` (a profile folder only Lift's office processes use). */
export function processesMentioning(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (commandLine.includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** The exact argument that names a profile folder on an office process's command line. */
export function profileMarker(profileDir: string): string {
  return `-env:UserInstallation=file://${profileDir}\u0000`;
}

function tail(text: string, chars = 600): string {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * One soffice process with its own profile folder, listening on a UNO pipe, and the Python
 * bridge that feeds it jobs. Everything it starts runs in process groups it owns, so
 * kill() ends exactly those processes and nothing a person opened.
 */
export class OfficeProcess {
  readonly profileDir: string;
  readonly #office: ChildProcess;
  readonly #bridge: ChildProcess;
  #stderr = '';
  #waiting: Waiting | undefined;
  #nextId = 1;
  #dead = false;

  private constructor(profileDir: string, office: ChildProcess, bridge: ChildProcess) {
    this.profileDir = profileDir;
    this.#office = office;
    this.#bridge = bridge;
  }

  /** Starts soffice and the bridge, and resolves once the bridge holds a UNO connection. */
  static async start(profileDir: string, programs: OfficePrograms, startMs: number): Promise<OfficeProcess> {
    mkdirSync(join(profileDir, 'tmp'), { recursive: true });
    rmSync(join(profileDir, 'user', '.lock'), { force: true });
    const pipe = `lift_office_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const env = {
      PATH: '/usr/bin:/bin',
      HOME: profileDir,
      TMPDIR: join(profileDir, 'tmp'),
      LANG: 'C.UTF-8',
      SAL_USE_VCLPLUGIN: 'svp',
      // Lift's copies are its own; lock files left by a killed process must not block the next open.
      SAL_ENABLE_FILE_LOCKING: '0',
    };
    // Through a shell that sets umask 077 and execs soffice in its place (same pid, same group):
    // every file LibreOffice writes, converted documents and PDFs included, is owner-only.
    const office = spawn(
      '/bin/sh',
      [
        '-c',
        'umask 077 && exec "$0" "$@"',
        programs.soffice,
        '--headless',
        '--invisible',
        '--nologo',
        '--norestore',
        '--nodefault',
        '--nolockcheck',
        '--nofirststartwizard',
        profileMarker(profileDir).slice(0, -1),
        `--accept=pipe,name=${pipe};urp;StarOffice.ComponentContext`,
      ],
      { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    if (office.pid === undefined)
      throw new LiftError('PROGRAM_FAILED', `LibreOffice could not start (${programs.soffice}).`);
    // The bridge ends this office process group if the worker dies without closing it.
    const bridge = spawn(
      programs.python,
      [bridgeScript(), pipe, String(startMs / 1000), String(office.pid), profileDir],
      {
        env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const started = new OfficeProcess(profileDir, office, bridge);
    try {
      await started.#ready(startMs);
    } catch (error) {
      started.kill();
      throw error;
    }
    return started;
  }

  get alive(): boolean {
    return !this.#dead;
  }

  #ready(startMs: number): Promise<void> {
    const office = this.#office;
    const bridge = this.#bridge;
    office.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = tail(this.#stderr + chunk.toString('utf8'), 4000);
    });
    bridge.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = tail(this.#stderr + chunk.toString('utf8'), 4000);
    });
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(
        () =>
          reject(
            this.#failure(`LibreOffice did not accept a UNO connection within ${startMs} milliseconds.`),
          ),
        startMs,
      );
      const lines = createInterface({ input: bridge.stdout! });
      lines.on('line', (line) => {
        let message: { ready?: boolean; ok?: boolean; result?: unknown; message?: string };
        try {
          message = JSON.parse(line);
        } catch {
          // Not one of the bridge's answers (a warning printed by a library): keep it for error reports.
          this.#stderr = tail(`${this.#stderr}\n${line}`, 4000);
          return;
        }
        if (!ready) {
          ready = true;
          clearTimeout(timer);
          resolve();
          return;
        }
        const waiting = this.#waiting;
        this.#waiting = undefined;
        if (!waiting) return;
        if (message.ok) waiting.resolve(message.result);
        else
          waiting.reject(
            new LiftError(
              'PROGRAM_FAILED',
              `LibreOffice failed the job: ${message.message ?? 'no reason given'}.`,
            ),
          );
      });
      const onExit = (who: string) => (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.#dead) return;
        this.kill();
        const error = this.#failure(`The ${who} exited (${signal ?? `code ${code}`}).`);
        clearTimeout(timer);
        if (!ready) reject(error);
        this.#waiting?.reject(error);
        this.#waiting = undefined;
      };
      office.on('exit', (code, signal) => {
        // The launcher hands over to soffice.bin; only a failure before the bridge is ready matters here.
        if (!ready && code !== 0) onExit('office process')(code, signal);
      });
      bridge.on('exit', onExit('office bridge'));
      office.on('error', (error) => reject(this.#failure(`LibreOffice could not start: ${error.message}.`)));
      bridge.on('error', (error) =>
        reject(this.#failure(`The office bridge could not start: ${error.message}.`)),
      );
    });
  }

  #failure(message: string): LiftError {
    return new LiftError('PROGRAM_FAILED', message, {
      hint: `Check that LibreOffice and python3-uno are installed. Its error output: ${tail(this.#stderr) || '(none)'}`,
    });
  }

  /** Sends one job; the caller makes sure only one is in flight. */
  send(job: Record<string, unknown>): Promise<unknown> {
    if (this.#dead) return Promise.reject(this.#failure('The office process is no longer running.'));
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#bridge.stdin?.write(`${JSON.stringify({ ...job, id: this.#nextId++ })}\n`);
    });
  }

  /** The running office processes (the launcher's children included). */
  pids(): number[] {
    return processesMentioning(profileMarker(this.profileDir));
  }

  /** Ends the office process group and the bridge, and any process still using this profile folder. */
  kill(): void {
    this.#dead = true;
    for (const child of [this.#bridge, this.#office]) {
      if (child.pid === undefined) continue;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    for (const pid of processesMentioning(profileMarker(this.profileDir))) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }

  /** Waits (bounded) until no process uses this profile folder any more. */
  async gone(withinMs = 5000): Promise<boolean> {
    const until = Date.now() + withinMs;
    while (Date.now() < until) {
      if (processesMentioning(profileMarker(this.profileDir)).length === 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  }
}
