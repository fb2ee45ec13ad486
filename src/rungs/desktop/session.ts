import { LiftError } from '../../contract/errors.js';
import { AtspiBridge, DEBIAN_PYTHON } from './bridge.js';
import { DesktopDisplay, type LaunchedProgram } from './display.js';
import type { JournalEntry } from './journal.js';
import { builtinPrograms, gsettingsKeyfile, type Program, programFrom } from './programs.js';
import { type Control, controlsOf, fingerprintOf, type RawNode, type Richness, richnessOf } from './tree.js';

/** How a deployment configures the desktop rung (`settings.desktop` in lift.config). */
export interface DesktopSettings {
  /** A person watches the session: high-risk actions may run once they say yes. Default false. */
  attended?: boolean;
  /** More programs, by name: the same shape as a program.yaml (command, title, gsettings, shortcuts). */
  programs?: Record<string, unknown>;
  /** Folder that relative shortcuts paths of configured programs start from. */
  root?: string;
  python?: string;
}

export interface WindowRef {
  program: string;
  pid: number;
  /** The program's name on the accessibility bus. */
  app: string;
  path: string;
  title: string;
  role: string;
}

export interface Stamp {
  any: number;
  structure: number;
  inserts: number;
  /** The bridge that counted: counts start again when it is restarted. */
  epoch: string;
}

export interface WindowRead {
  window: WindowRef;
  controls: Control[];
  fingerprint: string;
  richness: Richness;
  stamp: Stamp;
  truncated: boolean;
  readMs: number;
  /** False when the last read was reused because the window's structure had not changed. */
  fresh: boolean;
}

interface AppInfo {
  app: string;
  name: string;
  pid: number;
  windows: Array<{ path: string; title: string; role: string; states: string[] }>;
}

/**
 * One desktop session: a display Lift owns, the AT-SPI bridge on its buses, the programs it
 * started, the refs of the latest observation of each window, and the journal of what was
 * done (the raw material of learned skills). Nothing starts until the first call needs it.
 */
export class DesktopSession {
  readonly attended: boolean;
  readonly journal: JournalEntry[] = [];
  /** act_window calls so far: the journal's entries carry it. */
  calls = 0;
  readonly #programs = new Map<string, Program>();
  readonly #running = new Map<string, LaunchedProgram>();
  readonly #refs = new Map<string, Map<string, string>>();
  readonly #reads = new Map<string, WindowRead>();
  readonly #known = new Map<string, WindowRef>();
  readonly #python: string;
  #started: Promise<{ display: DesktopDisplay; bridge: AtspiBridge }> | undefined;
  #closed = false;

  constructor(settings: DesktopSettings = {}) {
    this.attended = settings.attended === true;
    this.#python = settings.python ?? DEBIAN_PYTHON;
    for (const program of builtinPrograms()) this.#programs.set(program.name, program);
    for (const [name, raw] of Object.entries(settings.programs ?? {})) {
      const spec = { name, ...(raw as Record<string, unknown>) };
      this.#programs.set(
        name,
        programFrom(spec, settings.root ?? process.cwd(), `settings.desktop.programs.${name}`),
      );
    }
  }

  get programNames(): string[] {
    return [...this.#programs.keys()];
  }

  program(name: string): Program {
    const program = this.#programs.get(name);
    if (!program) {
      throw new LiftError('NOT_FOUND', `Lift knows no desktop program named '${name}'.`, {
        hint: `Known programs: ${this.programNames.join(', ')}. Others are added under settings.desktop.programs.`,
      });
    }
    return program;
  }

  #start(): Promise<{ display: DesktopDisplay; bridge: AtspiBridge }> {
    if (this.#closed)
      return Promise.reject(new LiftError('INTERNAL_ERROR', 'The desktop session was closed.'));
    this.#started ??= DesktopDisplay.start().then((display) => {
      display.writeHomeFile(
        '.config/glib-2.0/settings/keyfile',
        gsettingsKeyfile([...this.#programs.values()]),
      );
      return { display, bridge: new AtspiBridge(display.env, this.#python) };
    });
    this.#started.catch(() => {
      this.#started = undefined;
    });
    return this.#started;
  }

  async display(): Promise<DesktopDisplay> {
    return (await this.#start()).display;
  }

  /** One bridge request with a deadline; the bridge's errors arrive as LiftErrors. */
  async request<T>(op: string, args: Record<string, unknown>, withinMs: number): Promise<T> {
    const { bridge } = await this.#start();
    return bridge.request<T>(op, args, Math.max(50, withinMs));
  }

  async bridge(): Promise<AtspiBridge> {
    return (await this.#start()).bridge;
  }

  /** Starts a known program (once) and waits until its window is on the accessibility bus. */
  async startProgram(name: string, deadline: number): Promise<{ window: WindowRef; started: boolean }> {
    const program = this.program(name);
    const running = this.#running.get(name);
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      return { window: await this.window({ program: name }, deadline), started: false };
    }
    const { display } = await this.#start();
    const launched = display.launch(program.command, program.env);
    this.#running.set(name, launched);
    for (;;) {
      const windows = await this.#windowsOf(name, deadline);
      const main = windows.find((window) => !program.title || window.title === program.title) ?? windows[0];
      if (main) return { window: main, started: true };
      if (launched.child.exitCode !== null || launched.child.signalCode !== null) {
        throw new LiftError('PROGRAM_FAILED', `${name} exited before it showed a window.`, {
          hint: `Its error output: ${launched.stderrTail().slice(-600) || '(none)'}`,
        });
      }
      if (Date.now() >= deadline) {
        throw new LiftError('TIMEOUT', `${name} showed no window on the accessibility bus in time.`, {
          outcome: 'unknown',
          hint: 'It may still be starting; call start_program again to wait for it.',
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async #windowsOf(name: string, deadline: number): Promise<WindowRef[]> {
    const launched = this.#running.get(name);
    if (!launched) return [];
    const apps = await this.request<AppInfo[]>('apps', {}, deadline - Date.now());
    return apps
      .filter((app) => app.pid === launched.pid)
      .flatMap((app) =>
        app.windows
          .filter((window) => window.states.includes('visible') || window.states.includes('showing'))
          .map((window) => ({ program: name, pid: app.pid, app: app.app, ...window })),
      );
  }

  /**
   * The window a call means: the program's window with that title, else its active one,
   * else its newest. Programs are only ever looked for among those this session started.
   */
  async window(selector: { program?: string | undefined; title?: string | undefined }, deadline: number) {
    const names = selector.program ? [selector.program] : [...this.#running.keys()];
    if (selector.program) this.program(selector.program);
    const candidates: Array<WindowRef & { states?: string[] }> = [];
    for (const name of names) candidates.push(...(await this.#windowsOf(name, deadline)));
    const titled = selector.title
      ? candidates.filter((window) => window.title.toLowerCase().includes(selector.title!.toLowerCase()))
      : candidates;
    const chosen = titled.find((window) => window.states?.includes('active')) ?? titled.at(-1);
    if (!chosen) {
      const open = candidates.map((window) => `${window.program}: "${window.title}"`).join(', ');
      throw new LiftError(
        'NOT_FOUND',
        `No window${selector.title ? ` titled "${selector.title}"` : ''} is open.`,
        {
          hint: open
            ? `Open windows: ${open}.`
            : `Start a program first with start_program (known: ${this.programNames.join(', ')}).`,
        },
      );
    }
    const { states: _states, ...window } = chosen;
    return window as WindowRef;
  }

  /**
   * The window of a program with this title, as fast as it can be known: the last one found
   * (`forget` drops it when a read shows it gone), else a fresh look.
   */
  async knownWindow(program: string, title: string, deadline: number): Promise<WindowRef> {
    const key = `${program}\u0000${title}`;
    const last = this.#known.get(key);
    if (last) {
      const states = await this.request<string[]>(
        'states',
        { app: last.app, path: last.path },
        deadline - Date.now(),
      ).catch(() => [] as string[]);
      if (states.includes('visible') && !states.includes('defunct')) return last;
    }
    const found = await this.window({ program, title }, deadline);
    this.#known.set(key, found);
    return found;
  }

  forget(window: WindowRef): void {
    for (const [key, known] of this.#known)
      if (known.path === window.path && known.app === window.app) this.#known.delete(key);
  }

  /**
   * The window of a program with this title and its last read, as remembered, with no round
   * trip: whoever acts on them asks the bridge to check first that neither changed since.
   */
  remembered(program: string, title: string): { window: WindowRef; read: WindowRead } | undefined {
    const window = this.#known.get(`${program}\u0000${title}`);
    const read = window && this.#reads.get(`${window.app} ${window.path}`);
    return window && read ? { window, read } : undefined;
  }

  /** One read of the whole window; with `reuse`, the last read while the structure has not changed. */
  async read(window: WindowRef, deadline: number, options: { reuse?: boolean } = {}): Promise<WindowRead> {
    const key = `${window.app} ${window.path}`;
    const last = this.#reads.get(key);
    if (options.reuse && last) {
      const stamp = await this.request<Stamp>('stamp', { app: window.app }, deadline - Date.now());
      if (stamp.epoch === last.stamp.epoch && stamp.structure === last.stamp.structure)
        return { ...last, stamp, fresh: false };
    }
    const started = performance.now();
    const answer = await this.request<{ nodes: RawNode[]; truncated: boolean; stamp: Stamp }>(
      'tree',
      { app: window.app, path: window.path },
      deadline - Date.now(),
    );
    const controls = controlsOf(answer.nodes);
    const read: WindowRead = {
      window,
      controls,
      fingerprint: fingerprintOf(controls),
      richness: richnessOf(controls),
      stamp: answer.stamp,
      truncated: answer.truncated,
      readMs: Math.round((performance.now() - started) * 10) / 10,
      fresh: true,
    };
    this.#reads.set(key, read);
    return read;
  }

  /** Remembers the refs an observation showed, so that a later act can name controls by ref. */
  rememberRefs(window: WindowRef, refs: Map<string, string>): void {
    this.#refs.set(`${window.app} ${window.path}`, refs);
  }

  refsOf(window: WindowRef): Map<string, string> {
    return this.#refs.get(`${window.app} ${window.path}`) ?? new Map();
  }

  /** Gives the keyboard to the window (and, when named, one of its controls). */
  async focus(window: WindowRef, control: Control | undefined, deadline: number): Promise<boolean> {
    const answer = await this.request<{ window: boolean }>(
      'focus',
      { pid: window.pid, title: window.title, app: window.app, ...(control ? { path: control.path } : {}) },
      deadline - Date.now(),
    );
    return answer.window;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const started = await this.#started?.catch(() => undefined);
    this.#started = undefined;
    started?.bridge.close();
    await started?.display.close();
  }
}
