import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processesMentioning, profileMarker } from '../../../src/apps/office/office-process.js';
import { tools } from '../../../src/apps/office/tools.js';
import { OFFICE_SERVICE, type OfficeRunner, WarmOffice } from '../../../src/apps/office/worker.js';
import { Runtime } from '../../../src/runtime/runtime.js';

export interface OfficeRuntime {
  runtime: Runtime;
  office: WarmOffice;
  home: string;
  /** The runtime's working folder: documents the tools may read go here. */
  work: string;
  /** Closes the runtime (and with it the office worker) and removes the home folder. */
  close(): Promise<void>;
}

/** A runtime with the office tools and a warm office worker of its own, already started. */
export async function officeRuntime(runner?: OfficeRunner): Promise<OfficeRuntime> {
  const work = mkdtempSync(join(tmpdir(), 'lift-office-test-'));
  const home = join(work, '.lift');
  const runtime = new Runtime({ home, tools, workingDir: work });
  const office = new WarmOffice();
  await runtime.service(OFFICE_SERVICE, () => runner ?? office);
  if (!runner) await office.warm();
  return {
    runtime,
    office,
    home,
    work,
    close: async () => {
      await runtime.close();
      if (runner) await office.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Office processes still running on a worker's profile folder. */
export function leftBehind(profileDir: string): number[] {
  return processesMentioning(profileMarker(profileDir));
}
