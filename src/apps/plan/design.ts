import type { LayoutParams, Site } from './layout.js';
import { OUTSIDE, PLAN_FILE_FORMAT, PLAN_FILE_VERSION, type PlanFile, type Room } from './plan-file.js';
import type { Plot } from './plot.js';
import { FT, storeyPrograms } from './program.js';
import type { Constraints, Evaluation } from './score.js';
import { searchLayout } from './search.js';
import { chooseSheet, type Paper } from './sheet.js';

export const STOREY_HEIGHT = 11 * FT;
const STOREY_NAMES = ['Ground floor', 'First floor', 'Second floor'];

export interface DesignRequest {
  plot: Plot;
  bedrooms: number;
  storeys: number;
  seed: number;
  budgetMs: number;
  paper: Paper;
  scale?: number | undefined;
  constraints?: Constraints;
  start?: LayoutParams;
  revision?: number;
  house?: string;
  signal?: AbortSignal;
}

export function houseId(plot: Plot, bedrooms: number, storeys: number): string {
  const said = plot.asGiven
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${said}-${bedrooms}-bed${storeys > 1 ? `-${storeys}-storey` : ''}`.slice(0, 80);
}

/** Houses on deep plots keep 5 ft open at the back, shallow ones 3 ft. */
export function rearSetback(depthFt: number): number {
  return (depthFt >= 45 ? 5 : 3) * FT;
}

export function siteOf(plot: Plot, bedrooms: number, storeys: number): Site {
  return {
    width: plot.widthFt * FT,
    houseDepth: plot.depthFt * FT - rearSetback(plot.depthFt),
    programs: storeyPrograms(bedrooms, storeys, plot.widthFt),
  };
}

const ADVICE: Partial<Record<Room['kind'], string>> = {
  kitchen: 'give it a skylight or a ventilator and an exhaust fan',
  bath: 'give it an exhaust fan',
};

/** What a builder should add where the layout could not reach daylight. */
export function notesFor(plan: Pick<PlanFile, 'storeys'>): string[] {
  const notes: string[] = [];
  for (const storey of plan.storeys) {
    for (const room of storey.rooms) {
      const lit = storey.windows.some((window) => window.room === room.id);
      const advice =
        ADVICE[room.kind] ??
        (['drawing', 'dining', 'lounge', 'bedroom'].includes(room.kind) ? 'give it a skylight' : undefined);
      if (!lit && advice) notes.push(`${room.name.toUpperCase()} has no outside wall: ${advice}`);
    }
  }
  return notes;
}

/** Runs the layout search and turns the best candidate into a plan file (without its drawings). */
export function designPlan(request: DesignRequest): { plan: PlanFile; evaluation: Evaluation } {
  const { plot, bedrooms, storeys } = request;
  const site = siteOf(plot, bedrooms, storeys);
  const found = searchLayout(site, {
    seed: request.seed,
    budgetMs: request.budgetMs,
    ...(request.constraints ? { constraints: request.constraints } : {}),
    ...(request.start ? { start: request.start } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const gate = found.best.storeys[0]?.doors.find((door) => door.between[0] === OUTSIDE);
  const groundDoors = found.best.storeys[0]?.doors ?? [];
  const intoPorch = (room: string) =>
    groundDoors.find((door) => door.between.includes('g_porch') && door.between.includes(room));
  const front = intoPorch('g_lounge') ?? intoPorch('g_drawing') ?? gate;
  const plan: PlanFile = {
    format: PLAN_FILE_FORMAT,
    version: PLAN_FILE_VERSION,
    house: request.house ?? houseId(plot, bedrooms, storeys),
    revision: request.revision ?? 0,
    units: 'inch',
    plot: { width: plot.widthFt * FT, depth: plot.depthFt * FT, as_given: plot.asGiven, marla: plot.marla },
    road_side: 'south',
    walls: { outer: 9, inner: 4.5 },
    program: { bedrooms, storeys },
    storeys: found.best.storeys.map((storey) => ({
      level: storey.level,
      name: STOREY_NAMES[storey.level] ?? `Floor ${storey.level}`,
      height: STOREY_HEIGHT,
      rooms: storey.rooms,
      doors: storey.doors,
      windows: storey.windows,
    })),
    front_door: front?.id ?? 'g_gate',
    sheet: { paper: request.paper, orientation: 'landscape', scale: 100 },
    search: {
      seed: request.seed,
      candidates: found.candidates,
      seconds: Math.round(found.ms) / 1000,
      score: Math.round(found.best.score * 10) / 10,
      params: found.params,
    },
    notes: [],
  };
  plan.notes = notesFor(plan);
  plan.sheet = chooseSheet(plan, request.paper, request.scale);
  return { plan, evaluation: found.best };
}
