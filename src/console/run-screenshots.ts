import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import type { Runtime } from '../runtime/runtime.js';
import type { RunEvent } from '../store/runs.js';
import { BASE } from './layout.js';
import { Missing } from './missing.js';

/** A screenshot a run recorded (a ui-screenshot-taken event: the UI rung, discovery, replay's evidence). */
export interface RunScreenshot {
  /** Its place among the run's screenshots, which is how the console names it. */
  number: number;
  path: string;
  /** What it shows, from its file name ("surface-changed", "observation"). */
  label: string;
  masks: number | undefined;
  t: string;
}

const MAX_BYTES = 20 * 1024 * 1024;

/** The run's screenshots in the order it took them; each was masked when it was taken. */
export function screenshotsOf(events: RunEvent[]): RunScreenshot[] {
  return events
    .filter((event) => event.type === 'ui-screenshot-taken' && typeof event.path === 'string')
    .map((event, index) => ({
      number: index + 1,
      path: event.path as string,
      label: basename(event.path as string, '.png').replace(/-\d+$/, ''),
      masks: typeof event.masks === 'number' ? event.masks : undefined,
      t: event.t,
    }));
}

export function screenshotUrl(runId: string, shot: RunScreenshot): string {
  return `${BASE}/runs/${runId}/screenshots/${shot.number}`;
}

function inside(folder: string, file: string): boolean {
  return existsSync(folder) && file.startsWith(`${realpathSync(folder)}${sep}`);
}

/**
 * The PNG bytes of a run's nth screenshot. Only a file the run's own log names, inside Lift's
 * home or output folder, ending in .png: a log line cannot make the console read anything else.
 */
export async function screenshotBytes(runtime: Runtime, runId: string, number: number): Promise<Buffer> {
  const back = { href: `${BASE}/runs/${runId}`, label: `Run ${runId}` };
  const shot = screenshotsOf(await runtime.store.runs.events(runId)).find((each) => each.number === number);
  if (!shot) throw new Missing(`Run ${runId} has no screenshot ${number}.`, 'runs', back);
  const gone = new Missing(`Screenshot ${number} of run ${runId} is no longer on disk.`, 'runs', back);
  if (!shot.path.endsWith('.png') || !existsSync(shot.path)) throw gone;
  const file = realpathSync(shot.path);
  if (!(inside(runtime.home, file) || inside(runtime.outputDir, file)) || statSync(file).size > MAX_BYTES)
    throw gone;
  return readFileSync(file);
}
