/**
 * Where a desktop call's time goes, from the bridge's own timings (AtspiBridge.onTiming):
 * Node outside the bridge (runtime, run log, replay logic), the pipes and JSON between Node
 * and the Python worker, and inside the worker each phase (focus, act, wait, reads) and the
 * number of D-Bus calls it sent. One `Breakdown` collects many calls and prints medians.
 */
import type { RequestTiming } from '../src/rungs/desktop/bridge.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

interface Call {
  totalMs: number;
  requests: RequestTiming[];
}

export class Breakdown {
  readonly #calls: Call[] = [];
  #current: RequestTiming[] = [];

  /** The listener to hand to AtspiBridge.onTiming. */
  readonly listen = (timing: RequestTiming): void => {
    this.#current.push(timing);
  };

  /** Starts a new call: requests heard from now belong to it. */
  begin(): void {
    this.#current = [];
  }

  /** Ends the call begun last, `totalMs` long end to end. */
  end(totalMs: number): void {
    this.#calls.push({ totalMs, requests: this.#current });
    this.#current = [];
  }

  lines(label: string): string[] {
    const sum = (call: Call, pick: (request: RequestTiming) => number) =>
      call.requests.reduce((total, request) => total + pick(request), 0);
    const rows: Array<[string, number[]]> = [
      ['end to end', this.#calls.map((call) => call.totalMs)],
      [
        'Node outside the bridge (runtime, replay logic)',
        this.#calls.map((call) => call.totalMs - sum(call, (request) => request.roundTripMs)),
      ],
      [
        'pipes + JSON + event loops (round trip - bridge)',
        this.#calls.map((call) => sum(call, (request) => request.roundTripMs - (request.bridge?.ms ?? 0))),
      ],
      ['  of which Node JSON', this.#calls.map((call) => sum(call, (request) => request.jsonMs))],
      ['inside the bridge', this.#calls.map((call) => sum(call, (request) => request.bridge?.ms ?? 0))],
    ];
    const phases = new Set<string>();
    for (const call of this.#calls)
      for (const request of call.requests)
        for (const phase of Object.keys(request.bridge ?? {}))
          if (phase !== 'ms' && phase !== 'calls') phases.add(phase);
    for (const phase of [...phases].sort()) {
      rows.push([
        `  ${phase}`,
        this.#calls.map((call) => sum(call, (request) => request.bridge?.[phase] ?? 0)),
      ]);
    }
    const ops = new Map<string, number[][]>();
    for (const call of this.#calls) {
      const seen = new Map<string, number>();
      for (const request of call.requests) {
        const nth = seen.get(request.op) ?? 0;
        seen.set(request.op, nth + 1);
        const key = nth === 0 ? request.op : `${request.op} #${nth + 1}`;
        const row = ops.get(key) ?? [];
        row.push([request.roundTripMs, request.bridge?.ms ?? 0]);
        ops.set(key, row);
      }
    }
    const perRequest = [...ops].map(
      ([op, pairs]) =>
        `    ${`request ${op}`.padEnd(50)} ${median(pairs.map(([trip]) => trip!))
          .toFixed(1)
          .padStart(7)} ms round trip, ${median(pairs.map(([, inside]) => inside!)).toFixed(1)} ms inside`,
    );
    const requests = median(this.#calls.map((call) => call.requests.length));
    const dbus = median(this.#calls.map((call) => sum(call, (request) => request.bridge?.calls ?? 0)));
    const sequence = this.#calls[0]?.requests.map((request) => request.op).join(', ') ?? '';
    return [
      `${label}: ${requests} bridge requests (${sequence}), ${dbus} D-Bus calls, medians over ${this.#calls.length} calls`,
      ...rows.map(([name, values]) => `    ${name.padEnd(50)} ${median(values).toFixed(1).padStart(7)} ms`),
      ...perRequest,
    ];
  }
}
