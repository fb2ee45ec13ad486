import { readdir } from 'node:fs/promises';
import type { ToolContext } from '../../contract/context.js';
import { houseFolder } from './draft.js';
import type { PlanFile } from './plan-file.js';
import type { Plot } from './plot.js';
import { FT } from './program.js';

/** The next revision number free in this tool's folder for the house, never below the source's + 1. */
export async function nextRevision(ctx: ToolContext, plan: PlanFile): Promise<number> {
  const names = await readdir(houseFolder(ctx, plan)).catch(() => [] as string[]);
  const taken = names
    .map((name) => /^v(\d+)\.plan\.json$/.exec(name)?.[1])
    .filter((n) => n !== undefined)
    .map(Number);
  return Math.max(plan.revision + 1, ...taken.map((n) => n + 1));
}

export function plotOf(plan: PlanFile): Plot {
  return {
    widthFt: plan.plot.width / FT,
    depthFt: plan.plot.depth / FT,
    asGiven: plan.plot.as_given,
    marla: plan.plot.marla,
  };
}

/** Every pair of rooms a door joins, as "a|b" in a stable order. */
export function doorPairs(plan: Pick<PlanFile, 'storeys'>): Array<[string, string]> {
  return plan.storeys.flatMap((storey) =>
    storey.doors.map((door) => [...door.between].sort() as [string, string]),
  );
}
