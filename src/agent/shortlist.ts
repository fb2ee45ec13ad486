import { extname } from 'node:path';
import type { AnyTool } from '../contract/define-tool.js';
import { isLiftError } from '../contract/errors.js';
import { linearPattern, type TextPattern } from '../contract/pattern.js';
import {
  BUILTIN_EXTENSIONS,
  BUILTIN_GROUPS,
  type GroupSignals,
  parseShortlistConfig,
  type ShortlistConfig,
} from './shortlist-config.js';
import { bestGroupsByWords } from './shortlist-fallback.js';

/** Tools without a group belong here; they form the general set when nothing scores. */
export const GENERAL_GROUP = 'general';

export interface GroupScore {
  group: string;
  score: number;
  /** What scored: matched patterns, `program NAME`, `kind KIND`. */
  signals: string[];
}

export interface ShortlistChoice {
  /**
   * clear: one group; unclear: the top groups; general: nothing scored (the general set, or
   * the groups whose tools share the most words with the request); all: the shortlist is off.
   */
  kind: 'clear' | 'unclear' | 'general' | 'all';
  scores: GroupScore[];
  groups: string[];
  tools: AnyTool[];
}

interface CompiledGroup {
  signals: Array<{ pattern: TextPattern; source: string; weight: number }>;
  programs: Array<{ pattern: RegExp; name: string }>;
  kinds: Record<string, number>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(name: string, group: GroupSignals): CompiledGroup {
  return {
    signals: group.signals.map(({ pattern, weight }) => {
      // An operator's pattern, so RE2 runs it: no signal can stall the request it scores.
      try {
        return { pattern: linearPattern(pattern, { ignoreCase: true }), source: pattern, weight };
      } catch (error) {
        const reason = isLiftError(error) ? `${error.message} ${error.hint ?? ''}` : String(error);
        throw new Error(
          `lift.config shortlist: group '${name}' has an invalid pattern ${pattern}: ${reason}`,
        );
      }
    }),
    programs: group.programs.map((program) => ({
      pattern: new RegExp(`\\b${escapeRegExp(program)}\\b`, 'i'),
      name: program,
    })),
    kinds: group.kinds,
  };
}

/**
 * Picks the tool groups a request needs, so each model call carries only their schemas. A group's score
 * is its strongest matching signal plus a little for each extra one, raised to the program bonus when the
 * request names one of its programs, plus what attachment kinds add.
 */
export class Shortlist {
  readonly config: ShortlistConfig;
  readonly #tools: AnyTool[];
  readonly #groups = new Map<string, CompiledGroup>();
  readonly #extensions: Record<string, string>;

  constructor(tools: AnyTool[], rawConfig: unknown = {}) {
    this.config = parseShortlistConfig(rawConfig);
    this.#tools = tools;
    const present = new Set(tools.map(groupOf));
    const defined = { ...BUILTIN_GROUPS, ...this.config.groups };
    for (const [name, group] of Object.entries(defined)) {
      if (!present.has(name)) continue;
      const complete = parseShortlistConfig({ groups: { [name]: group } }).groups[name]!;
      this.#groups.set(name, compile(name, complete));
    }
    this.#extensions = { ...BUILTIN_EXTENSIONS, ...this.config.extensions };
  }

  /** Every group that scores above zero, best first. */
  score(request: string, attachments: readonly string[] = []): GroupScore[] {
    const kinds = new Set(
      attachments
        .map((file) => this.#extensions[extname(file).slice(1).toLowerCase()])
        .filter((kind) => kind !== undefined),
    );
    const scores: GroupScore[] = [];
    for (const [group, compiled] of this.#groups) {
      const hits = compiled.signals
        .filter(({ pattern }) => pattern.test(request))
        .sort((a, b) => b.weight - a.weight);
      let score = hits.length > 0 ? hits[0]!.weight + this.config.extraSignal * (hits.length - 1) : 0;
      const signals = hits.map((hit) => hit.source);
      const program = compiled.programs.find(({ pattern }) => pattern.test(request));
      if (program) {
        score = Math.max(score, this.config.programBonus);
        signals.push(`program ${program.name}`);
      }
      for (const kind of kinds) {
        const weight = compiled.kinds[kind];
        if (weight) {
          score += weight;
          signals.push(`kind ${kind}`);
        }
      }
      if (score > 0) scores.push({ group, score, signals });
    }
    return scores.sort((a, b) => b.score - a.score || a.group.localeCompare(b.group));
  }

  /** One group when the choice is clear, else the top groups, else the general set. */
  choose(request: string, attachments: readonly string[] = []): ShortlistChoice {
    const scores = this.score(request, attachments);
    const [first, second] = scores;
    if (
      first &&
      first.score >= this.config.clearScore &&
      first.score - (second?.score ?? 0) >= this.config.clearLead
    ) {
      return { kind: 'clear', scores, groups: [first.group], tools: this.#inGroups([first.group]) };
    }
    if (first) {
      const groups = scores.slice(0, this.config.topGroups).map((entry) => entry.group);
      return { kind: 'unclear', scores, groups, tools: this.#inGroups(groups) };
    }
    const general = this.config.general
      ? this.#tools.filter((tool) => this.config.general?.includes(tool.name))
      : this.#inGroups([GENERAL_GROUP]);
    if (general.length > 0 || this.#tools.length === 0)
      return { kind: 'general', scores, groups: [GENERAL_GROUP], tools: general };
    // Nothing scored and there is no general set: never a request without tools.
    const groups = bestGroupsByWords(request, this.#tools, groupOf, this.config.topGroups);
    return { kind: 'general', scores, groups, tools: this.#inGroups(groups) };
  }

  /** Every tool, for runs with the shortlist off. */
  all(): ShortlistChoice {
    return {
      kind: 'all',
      scores: [],
      groups: [...new Set(this.#tools.map(groupOf))],
      tools: [...this.#tools],
    };
  }

  #inGroups(groups: string[]): AnyTool[] {
    return this.#tools.filter((tool) => groups.includes(groupOf(tool)));
  }
}

export function groupOf(tool: AnyTool): string {
  return tool.group ?? GENERAL_GROUP;
}

/** `hub 10.5   three 10.0   cad 7.0` */
export function describeScores(scores: GroupScore[]): string {
  if (scores.length === 0) return 'no group scores';
  return scores.map((entry) => `${entry.group} ${entry.score.toFixed(1)}`).join('   ');
}
