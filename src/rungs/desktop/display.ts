import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { LiftError } from '../../contract/errors.js';
import { quietEnvironment } from '../cli/environment.js';
import { terminate } from '../cli/terminate.js';
import { processesOfSession } from './session-processes.js';

/** Where Debian puts the programs a display needs. */
export interface DisplayPrograms {
  xvfb: string;
  dbusDaemon: string;
  busLauncher: string;
}

export const DEBIAN_DISPLAY: DisplayPrograms = {
  xvfb: '/usr/bin/Xvfb',
  dbusDaemon: '/usr/bin/dbus-daemon',
  busLauncher: '/usr/libexec/at-spi-bus-launcher',
};

/** What makes GTK 3, GTK 4 and Qt programs publish their tree on the accessibility bus. */
const ACCESSIBILITY_ON: Record<string, string> = {
  GTK_MODULES: 'gail:atk-bridge',
  NO_AT_BRIDGE: '0',
  GNOME_ACCESSIBILITY: '1',
  GTK_A11Y: 'atspi',
  QT_ACCESSIBILITY: '1',
  QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
  GDK_BACKEND: 'x11',
  XDG_SESSION_TYPE: 'x11',
  GTK_USE_PORTAL: '0',
  // Settings live in a plain file under the private HOME, so no settings daemon is needed.
  GSETTINGS_BACKEND: 'keyfile',
};

/**
 * Xvfb has no GPU, so GTK 4's default GL renderer draws through Mesa in software; its cairo
 * renderer draws the same window for far less CPU. On a loaded machine GNOME Calculator
 * answered a learned skill's keys and reads in about half the time with cairo.
 */
const SOFTWARE_RENDERING: Record<string, string> = { GSK_RENDERER: 'cairo' };

export interface LaunchedProgram {
  readonly pid: number;
  readonly command: string;
  readonly child: ChildProcess;
  /** The end of what the program wrote to its error stream. */
  stderrTail(): string;
}

function tailOf(text: string, chars = 1500): string {
  return text.length > chars ? text.slice(-chars) : text;
}

/** The first line a stream writes, or undefined when it closes or the time is up. */
function firstLine(stream: Readable, withinMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: stream });
    const timer = setTimeout(() => finish(undefined), withinMs);
    const finish = (line: string | undefined) => {
      clearTimeout(timer);
      lines.removeAllListeners();
      lines.close();
      resolve(line);
    };
    lines.on('line', (line) => finish(line));
    lines.on('close', () => finish(undefined));
  });
}

/**
 * A display Lift owns: Xvfb on a free display number, a private D-Bus session bus and the
 * accessibility bus, and a private HOME with XDG folders. Programs started here never touch
 * the user's display or settings, and `close()` ends every process of the session: each
 * process group it started, then anything else carrying the session's marker.
 */
export class DesktopDisplay {
  readonly id: string;
  readonly root: string;
  readonly home: string;
  readonly display: string;
  readonly env: Record<string, string>;
  readonly #children: ChildProcess[];
  #programs: LaunchedProgram[] = [];
  #closed = false;

  private constructor(parts: {
    id: string;
    root: string;
    display: string;
    env: Record<string, string>;
    children: ChildProcess[];
  }) {
    this.id = parts.id;
    this.root = parts.root;
    this.home = join(parts.root, 'home');
    this.display = parts.display;
    this.env = parts.env;
    this.#children = parts.children;
  }

  static async start(programs: DisplayPrograms = DEBIAN_DISPLAY, startMs = 15_000): Promise<DesktopDisplay> {
    const root = mkdtempSync(join(tmpdir(), 'lift-desktop-'));
    const id = root.slice(root.lastIndexOf('-') + 1);
    const home = join(root, 'home');
    const runtimeDir = join(root, 'run');
    for (const folder of [home, join(home, '.config'), join(home, '.local/share'), join(home, '.cache')]) {
      mkdirSync(folder, { recursive: true });
    }
    mkdirSync(runtimeDir, { mode: 0o700 });
    const base: Record<string, string> = {
      ...quietEnvironment({ path: '/usr/bin:/bin', home }),
      LIFT_DESKTOP_SESSION: id,
      XDG_RUNTIME_DIR: runtimeDir,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      ...ACCESSIBILITY_ON,
      ...SOFTWARE_RENDERING,
    };
    const children: ChildProcess[] = [];
    const partial = new DesktopDisplay({ id, root, display: '', env: base, children });
    try {
      const display = await startXvfb(programs.xvfb, base, children, startMs);
      const withDisplay = { ...base, DISPLAY: display };
      const address = await startSessionBus(programs.dbusDaemon, withDisplay, children, startMs);
      const env = { ...withDisplay, DBUS_SESSION_BUS_ADDRESS: address };
      children.push(
        spawn(programs.busLauncher, ['--launch-immediately'], {
          env,
          detached: true,
          stdio: 'ignore',
        }),
      );
      return new DesktopDisplay({ id, root, display, env, children });
    } catch (error) {
      await partial.close();
      throw error;
    }
  }

  /** Starts a program on this display, in its own process group, with accessibility on. */
  launch(command: readonly string[], extraEnv: Record<string, string> = {}): LaunchedProgram {
    if (this.#closed) throw new LiftError('INTERNAL_ERROR', 'The desktop session was closed.');
    const [program, ...args] = command;
    if (!program) throw new LiftError('BAD_INPUT', 'An empty command cannot be started.');
    const child = spawn(program, args, {
      env: { ...this.env, ...extraEnv },
      cwd: this.home,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = tailOf(stderr + chunk.toString('utf8'));
    });
    child.on('error', (error) => {
      stderr = tailOf(`${stderr}\n${error.message}`);
    });
    if (child.pid === undefined) {
      throw new LiftError('PROGRAM_FAILED', `${program} could not be started on the desktop display.`, {
        hint: `Check that ${program} is installed (bash scripts/setup.sh desktop installs the desktop programs).`,
      });
    }
    const launched: LaunchedProgram = {
      pid: child.pid,
      command: command.join(' '),
      child,
      stderrTail: () => stderr,
    };
    this.#programs.push(launched);
    return launched;
  }

  /** Writes a file under the session's private HOME (program settings, shortcuts). */
  writeHomeFile(relativePath: string, text: string): string {
    const path = join(this.home, relativePath);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    return path;
  }

  get programs(): readonly LaunchedProgram[] {
    return this.#programs;
  }

  /** Ends one program's process group (and what it left behind in the session marker scan). */
  async endProgram(program: LaunchedProgram): Promise<void> {
    this.#programs = this.#programs.filter((known) => known !== program);
    await terminate({ pgid: program.pid, seen: [], pipes: new Set() });
  }

  /** Ends every process of the session, programs first and the display last, and removes its files. */
  async close(): Promise<{ left: number[] }> {
    if (this.#closed) return { left: [] };
    this.#closed = true;
    const groups = [...this.#programs.map((program) => program.pid)];
    for (const child of [...this.#children].reverse()) if (child.pid !== undefined) groups.push(child.pid);
    for (const pgid of groups) {
      await terminate({ pgid, seen: processesOfSession(this.id), pipes: new Set() });
    }
    const strays = processesOfSession(this.id);
    if (strays.length > 0) await terminate({ pgid: strays[0]!.pgid, seen: strays, pipes: new Set() });
    const left = processesOfSession(this.id).map((stat) => stat.pid);
    rmSync(this.root, { recursive: true, force: true });
    return { left };
  }
}

async function startXvfb(
  xvfb: string,
  env: Record<string, string>,
  children: ChildProcess[],
  startMs: number,
): Promise<string> {
  // -displayfd: Xvfb picks a free display number itself and writes it once it accepts clients.
  const server = spawn(
    xvfb,
    ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-noreset'],
    { env, detached: true, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  children.push(server);
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr = tailOf(stderr + chunk.toString('utf8'), 800);
  });
  const line = await firstLine(server.stdio[3] as Readable, startMs);
  if (!line || !/^\d+$/.test(line.trim())) {
    throw new LiftError('PROGRAM_FAILED', 'Xvfb did not report a display number.', {
      hint: `Install Debian's xvfb (bash scripts/setup.sh desktop). Its error output: ${stderr || '(none)'}`,
    });
  }
  return `:${line.trim()}`;
}

async function startSessionBus(
  dbusDaemon: string,
  env: Record<string, string>,
  children: ChildProcess[],
  startMs: number,
): Promise<string> {
  const bus = spawn(dbusDaemon, ['--session', '--nofork', '--nopidfile', '--print-address=1'], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(bus);
  const address = await firstLine(bus.stdout as Readable, startMs);
  if (!address?.startsWith('unix:')) {
    throw new LiftError('PROGRAM_FAILED', 'dbus-daemon did not print the address of the session bus.', {
      hint: "Install Debian's dbus (bash scripts/setup.sh desktop).",
    });
  }
  return address.trim();
}
