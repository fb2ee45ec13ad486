/**
 * Prices each design choice of the agent on one fixed scripted workload, all in one run: the real loop and
 * the real model client against a local OpenAI-compatible server, real tools writing real files.
 *
 *   npm run bench -- ablation        or        node --import tsx bench/ablation.bench.ts
 *
 * The workload is 002's three-program sentence in small: write a note, count its words, write a summary,
 * post it to #team (held at the gate, approved). Tokens are counted from the request bodies actually sent
 * (about four characters a token); the scripted model's own usage numbers are not used.
 * LIFT_BENCH_SHORT=1 (bench/short.ts) changes nothing here: each variant runs the workload once already.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Conversation } from '../src/agent/gate.js';
import { runAgent } from '../src/agent/loop.js';
import { importModule, toolsFrom } from '../src/config/load.js';
import type { AnyTool } from '../src/contract/define-tool.js';
import { ModelClient } from '../src/model/model-client.js';
import { createLanguageModel } from '../src/model/model-provider.js';
import { parseModelSpec } from '../src/model/model-spec.js';
import { estimateTokens, formatCount } from '../src/model/tokens.js';
import { Runtime } from '../src/runtime/runtime.js';
import { TEST_SHORTLIST } from '../test/agent/harness.js';
import { testTools } from '../test/agent/tools.js';
import {
  type RecordedRequest,
  type ScriptedEntry,
  type ScriptedResponse,
  startScriptedOpenAIServer,
} from '../test/support/scripted-openai-server.js';
import { tempDir } from '../test/support/temp.js';

const REQUEST =
  'write a note Groceries with milk eggs bread butter, count its words, write a summary and post it to #team';
const SLOW_MS = 2_000;
const HEDGE_MS = 250;

/** Token cost of one 1920x1080 screenshot: OpenAI high detail (85 + 170 per 512 px tile after scaling) and Anthropic (w*h/750 after scaling to 1568 px). */
const SCREENSHOT = {
  openai: (() => {
    const scale = 768 / 1080;
    const [w, h] = [Math.round(1920 * scale), 768];
    return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
  })(),
  anthropic: Math.round((1568 * Math.round((1080 * 1568) / 1920)) / 750),
};

interface Variant {
  shortlist: boolean;
  chain: boolean;
  hedge: boolean;
  slowFirst: boolean;
}

interface Measured {
  modelCalls: number;
  requests: RecordedRequest[];
  inputTokens: number;
  seconds: number;
  /** Tokens of tool results carried in each request, and how many step results they hold. */
  results: Array<{ tokens: number; steps: number }>;
}

async function catalogue(): Promise<AnyTool[]> {
  const apps = join(import.meta.dirname, '..', 'src', 'apps');
  const tools = [...testTools];
  for (const app of readdirSync(apps)) {
    try {
      tools.push(...toolsFrom(await importModule(join(apps, app, 'tools.ts'))));
    } catch {
      // An app without a tools module (or one that does not load here) adds nothing.
    }
  }
  return tools;
}

function script(outputDir: string, variant: Variant): ScriptedEntry[] {
  const note = join(outputDir, 'write_note', 'groceries.txt');
  const summary = join(outputDir, 'write_summary', 'summary.txt');
  const steps = [
    { id: 'note', tool: 'write_note', args: { title: 'Groceries', text: 'milk eggs bread butter' } },
    { id: 'count', tool: 'count_words', args: { path: '$note.fields.path' } },
    { id: 'sum', tool: 'write_summary', args: { note: '$note.files.note', words: '$count.fields.words' } },
    { id: 'post', tool: 'post_message', args: { channel: '#team', path: '$sum.files.summary' } },
  ];
  const reply = {
    kind: 'answer' as const,
    text: 'Posted summary.txt to #team: groceries.txt has 4 words (all checks passed).',
  };
  const entries: ScriptedResponse[] = variant.chain
    ? [{ kind: 'answer', toolCalls: [{ name: 'run_chain', args: { steps } }] }, reply]
    : [
        { kind: 'answer', toolCalls: [{ name: 'write_note', args: steps[0]!.args }] },
        { kind: 'answer', toolCalls: [{ name: 'count_words', args: { path: note } }] },
        { kind: 'answer', toolCalls: [{ name: 'write_summary', args: { note, words: 4 } }] },
        { kind: 'answer', toolCalls: [{ name: 'post_message', args: { channel: '#team', path: summary } }] },
        reply,
      ];
  // Answer by the state of the conversation (how many tool results it carries), not by arrival order, so
  // an identical hedged request gets the identical answer. The first request of a slow run is held back.
  let slowSent = false;
  const respond = (request: RecordedRequest): ScriptedResponse => {
    const answer = entries[Math.min(toolResults(request).length, entries.length - 1)]!;
    if (variant.slowFirst && !slowSent) {
      slowSent = true;
      return { ...answer, delayMs: SLOW_MS };
    }
    return answer;
  };
  return Array.from({ length: 40 }, () => respond);
}

function toolResults(request: RecordedRequest): Array<{ tokens: number; steps: number }> {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: string }>;
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => {
      const steps = /"tool":"run_chain"/.test(message.content)
        ? (message.content.match(/"checks_total"/g) ?? []).length
        : 1;
      return { tokens: estimateTokens(message.content), steps: Math.max(1, steps) };
    });
}

async function measure(tools: AnyTool[], variant: Variant): Promise<Measured> {
  const server = await startScriptedOpenAIServer();
  const home = tempDir('lift-ablation-');
  const runtime = new Runtime({ home: home.path, tools });
  try {
    server.enqueue(...script(runtime.outputDir, variant));
    const spec = parseModelSpec('openai:bench-model');
    const client = new ModelClient({
      model: createLanguageModel({ spec, baseURL: server.baseURL, apiKey: 'bench-key' }),
      provider: spec.provider,
      modelName: spec.model,
      hedgeMs: variant.hedge ? HEDGE_MS : undefined,
      maxOutputTokens: 2048,
    });
    const conversation: Conversation = { say: () => {}, ask: async () => 'yes' };
    const started = performance.now();
    const result = await runAgent(REQUEST, {
      runtime,
      client,
      conversation,
      shortlist: variant.shortlist,
      shortlistConfig: TEST_SHORTLIST,
      chain: variant.chain,
    });
    const seconds = (performance.now() - started) / 1000;
    if (result.outcome !== 'answered') throw new Error(`workload ended ${result.outcome}: ${result.answer}`);
    const requests = [...server.requests];
    const answered = requests.filter((request) => request.completed);
    return {
      modelCalls: result.row.modelCalls,
      requests,
      inputTokens: answered.reduce((sum, request) => sum + estimateTokens(request.rawBody), 0),
      seconds,
      results: answered.flatMap(toolResults),
    };
  } finally {
    await server.close();
    await runtime.close();
    home.remove();
  }
}

function report(name: string, lift: number, baseline: number, unit: string, digits = 0): void {
  const format = (value: number) => (digits > 0 ? value.toFixed(digits) : formatCount(value));
  console.log(
    `${name}: lift ${format(lift)} ${unit}, baseline ${format(baseline)} ${unit}, ratio ${(lift / baseline).toFixed(2)}`,
  );
}

const tools = await catalogue();
// Token variants run without hedging, so that a backup request never doubles what is counted.
const full: Variant = { shortlist: true, chain: true, hedge: false, slowFirst: false };
const lift = await measure(tools, full);
const noShortlist = await measure(tools, { ...full, shortlist: false });
const noChain = await measure(tools, { ...full, chain: false });
const hedged = await measure(tools, { ...full, hedge: true, slowFirst: true });
const unhedged = await measure(tools, { ...full, hedge: false, slowFirst: true });

console.log(`workload: ${REQUEST}`);
console.log(
  `catalogue: ${tools.length} tools; 1080p screenshot = ${SCREENSHOT.openai} tokens (OpenAI high detail), ${SCREENSHOT.anthropic} (Anthropic)`,
);
report(
  'shortlist off (every schema in every call), input tokens per task',
  lift.inputTokens,
  noShortlist.inputTokens,
  'tok',
);
report(
  'shortlist off, input tokens per model call',
  lift.inputTokens / lift.modelCalls,
  noShortlist.inputTokens / noShortlist.modelCalls,
  'tok',
);
report(
  'chain off (one round trip per tool), model calls per task',
  lift.modelCalls,
  noChain.modelCalls,
  'calls',
);
report('chain off, input tokens per task', lift.inputTokens, noChain.inputTokens, 'tok');
const perResult = [...lift.results, ...noChain.results];
const envelopePerStep =
  perResult.reduce((sum, result) => sum + result.tokens, 0) /
  perResult.reduce((sum, result) => sum + result.steps, 0);
report(
  'results as screenshots, tokens per step result (OpenAI 1080p)',
  envelopePerStep,
  SCREENSHOT.openai,
  'tok',
);
report(
  'results as screenshots, tokens per step result (Anthropic 1080p)',
  envelopePerStep,
  SCREENSHOT.anthropic,
  'tok',
);
const asPictures = (measured: Measured, shot: number) =>
  measured.inputTokens +
  measured.results.reduce((sum, result) => sum + result.steps * shot - result.tokens, 0);
report(
  'results as screenshots, input tokens per task (OpenAI 1080p)',
  lift.inputTokens,
  asPictures(lift, SCREENSHOT.openai),
  'tok',
);
report(
  'results as screenshots, input tokens per task without the chain (OpenAI 1080p)',
  noChain.inputTokens,
  asPictures(noChain, SCREENSHOT.openai),
  'tok',
);
report(
  `hedging off (first response ${SLOW_MS / 1000} s late), seconds per task`,
  hedged.seconds,
  unhedged.seconds,
  's',
  2,
);
console.log(
  `hedging: ${hedged.requests.length} requests sent with hedging (the slow one aborted: ${hedged.requests[0]?.aborted === true}), ${unhedged.requests.length} without`,
);
