import type { AnyTool } from '../../../src/contract/define-tool.js';
import type { Envelope, ErrorEnvelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { tools as skillTools } from '../../../src/replay/desktop-skills.js';
import { DESKTOP_SERVICE, DESKTOP_SETTINGS_SERVICE } from '../../../src/rungs/desktop/context.js';
import type { DesktopSession, DesktopSettings } from '../../../src/rungs/desktop/session.js';
import { tools } from '../../../src/rungs/desktop/tools.js';
import type { RawNode } from '../../../src/rungs/desktop/tree.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';

/** A runtime with the desktop tools and a temporary home; one display for the whole test file. */
export interface DesktopRuntime {
  runtime: Runtime;
  session(): Promise<DesktopSession>;
  close(): Promise<{ left: number[]; sessionId: string | undefined }>;
}

export function desktopRuntime(settings: DesktopSettings = {}, extra: AnyTool[] = []): DesktopRuntime {
  const home = tempDir('lift-desktop-test-');
  const runtime = new Runtime({ home: home.path, tools: [...tools, ...skillTools, ...extra] });
  void runtime.service(DESKTOP_SETTINGS_SERVICE, () => settings);
  const session = () =>
    runtime.service<DesktopSession>(DESKTOP_SERVICE, () => {
      throw new Error('the desktop session starts with the first desktop call');
    });
  return {
    runtime,
    session,
    close: async () => {
      const current = await session().catch(() => undefined);
      const display = current ? await current.display().catch(() => undefined) : undefined;
      await runtime.close();
      const { processesOfSession } = await import('../../../src/rungs/desktop/session-processes.js');
      return {
        left: display ? processesOfSession(display.id).map((stat) => stat.pid) : [],
        sessionId: display?.id,
      };
    },
  };
}

export function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope, null, 2)}`);
  return envelope;
}

export function failure(envelope: Envelope): ErrorEnvelope {
  if (!('error' in envelope)) throw new Error(`expected an error, got ${JSON.stringify(envelope, null, 2)}`);
  return envelope;
}

/**
 * Reads a program's window three ways through the bridge: asking every node for itself
 * (`cache: false`), then twice as observe_window does. Returns the nodes of each read and the
 * D-Bus calls each took, so a test can hold the cached reads to the node-by-node one.
 */
export async function readThreeWays(desktop: DesktopRuntime, program: string) {
  const session = await desktop.session();
  const window = await session.window({ program }, Date.now() + 20_000);
  const bridge = await session.bridge();
  const calls: number[] = [];
  bridge.onTiming = (timing) => {
    if (timing.op === 'tree') calls.push(timing.bridge?.calls ?? -1);
  };
  const read = (cache: boolean) =>
    session.request<{ nodes: RawNode[] }>('tree', { app: window.app, path: window.path, cache }, 20_000);
  try {
    const everyNode = await read(false);
    const first = await read(true);
    const second = await read(true);
    return { everyNode: everyNode.nodes, first: first.nodes, second: second.nodes, calls };
  } finally {
    bridge.onTiming = undefined;
  }
}
