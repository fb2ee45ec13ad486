import type { CellCut, LayoutParams, MiddleOrder, Site } from './layout.js';
import { FT } from './program.js';
import { type Constraints, type Evaluation, evaluate } from './score.js';

export interface SearchOptions {
  seed: number;
  /** Wall-clock budget; the best plan found by then is kept. */
  budgetMs: number;
  /** Upper bound on candidates, so a fast machine gives the same plan every time. */
  maxCandidates?: number;
  constraints?: Constraints;
  /** Parameters of an earlier plan: refinement starts from them, so a new version stays close to it. */
  start?: LayoutParams;
  signal?: AbortSignal;
}

export interface SearchResult {
  best: Evaluation;
  params: LayoutParams;
  candidates: number;
  ms: number;
}

/** Mulberry32: small, fast and seedable, so a plan can be searched again and come out the same. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ORDERS: MiddleOrder[] = ['SKL', 'SLK', 'KLS', 'LKS'];
const PATTERNS: CellCut['pattern'][] = ['side', 'outer', 'inner'];
const snap = (inches: number) => Math.round(inches / 3) * 3;

class Sampler {
  constructor(
    readonly site: Site,
    readonly next: () => number,
  ) {}

  between(lowFt: number, highFt: number): number {
    return snap((lowFt + (highFt - lowFt) * this.next()) * FT);
  }

  cut(): CellCut {
    return {
      pattern: PATTERNS[Math.floor(this.next() * PATTERNS.length)]!,
      bathW: this.between(5, 7),
      bathD: this.between(5, 7.5),
      flip: this.next() < 0.5,
    };
  }

  params(): LayoutParams {
    const depthFt = this.site.houseDepth / FT;
    const widthFt = this.site.width / FT;
    return {
      front: this.between(depthFt * 0.26, depthFt * 0.36),
      middle: this.between(depthFt * 0.2, depthFt * 0.3),
      passage: this.between(3.5, 5),
      porchWidth: this.between(10, Math.max(10, Math.min(13, widthFt - 11))),
      porchLeft: this.next() < 0.5,
      diningWidth: this.next() < 0.3 ? 0 : this.between(10, 13),
      order: ORDERS[Math.floor(this.next() * ORDERS.length)]!,
      kitchenWidth: this.between(8, 12),
      stairsWidth: this.between(6.5, 8),
      weights: this.site.programs.map((program) =>
        Array.from({ length: program.rear }, () => 0.85 + 0.3 * this.next()),
      ),
      cuts: this.site.programs.map((program) => Array.from({ length: program.rear }, () => this.cut())),
      frontCut: { ...this.cut(), pattern: 'side' },
    };
  }

  /** The same parameters with one of them drawn again. */
  mutate(base: LayoutParams): LayoutParams {
    const fresh = this.params();
    const keys = Object.keys(base) as Array<keyof LayoutParams>;
    const key = keys[Math.floor(this.next() * keys.length)]!;
    return { ...base, [key]: fresh[key] };
  }
}

/** Keeps the rear band deep enough for a bedroom; candidates that cannot are not worth scoring. */
function feasible(site: Site, params: LayoutParams): boolean {
  return site.houseDepth - params.front - params.middle - params.passage >= 12 * FT;
}

/**
 * Samples layouts, then refines the best by redrawing one parameter at a time, and keeps the
 * best found within the budget.
 */
export function searchLayout(site: Site, options: SearchOptions): SearchResult {
  const started = performance.now();
  const sampler = new Sampler(site, random(options.seed));
  const limit = options.maxCandidates ?? 6000;
  let best: { evaluation: Evaluation; params: LayoutParams } | undefined;
  let candidates = 0;
  if (options.start && feasible(site, options.start)) {
    candidates += 1;
    best = { evaluation: evaluate(site, options.start, options.constraints), params: options.start };
  }
  const exploreShare = options.start ? 0.2 : 0.5;
  while (candidates < limit && performance.now() - started < options.budgetMs && !options.signal?.aborted) {
    const explore = !best || candidates < limit * exploreShare || sampler.next() < 0.2;
    const params = explore || !best ? sampler.params() : sampler.mutate(best.params);
    if (!feasible(site, params)) continue;
    candidates += 1;
    const evaluation = evaluate(site, params, options.constraints);
    if (!best || evaluation.score < best.evaluation.score) best = { evaluation, params };
  }
  if (!best) {
    const params = sampler.params();
    best = { evaluation: evaluate(site, params, options.constraints), params };
  }
  return { best: best.evaluation, params: best.params, candidates, ms: performance.now() - started };
}
