import { type AnyTool, gateOf } from './define-tool.js';
import { RUNG_TITLES, rungNumber } from './effects.js';
import { ALWAYS_PRESENT, type ErrorCode, errorAdvice } from './errors.js';
import { describeProperty, inputSchemaOf, outputSchemaOf } from './json-schema.js';

const LABEL = 14;

function block(label: string, lines: string[]): string[] {
  const [first = '', ...rest] = lines;
  return [`${label.padEnd(LABEL)}${first}`, ...rest.map((line) => `${''.padEnd(LABEL)}${line}`)];
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The contract card, in the layout of the WRAPPER CONTRACT block of the design notes. */
export function contractCard(tool: AnyTool): string {
  const input = inputSchemaOf(tool);
  const output = outputSchemaOf(tool);
  const required = new Set(input.required ?? []);
  const inputs = Object.entries(input.properties ?? {}).map(
    ([name, schema]) => `${name}${required.has(name) ? '' : '?'} · ${describeProperty(schema)}`,
  );
  inputs.push(
    tool.rung === 'ui' || tool.rung === 'screen'
      ? 'never an input: a credential'
      : 'never an input: a credential, a command line, a selector or a coordinate',
  );

  const codes = [
    ...new Set<ErrorCode>([...(Object.keys(tool.errors ?? {}) as ErrorCode[]), ...ALWAYS_PRESENT]),
  ];
  const errors = codes.map((code) => {
    const { retry, hint } = errorAdvice(code, {}, tool.errors?.[code]);
    return `${code} · retry: ${retry} · hint: ${hint}`;
  });

  const budget = tool.timeout.budget;
  const budgetText = budget
    ? [
        budget.steps !== undefined ? `${budget.steps} steps` : '',
        budget.attempts !== undefined ? `${budget.attempts} attempt(s)` : '',
      ]
        .filter(Boolean)
        .join(', ')
    : '1 attempt';

  const lines = [
    'WRAPPER CONTRACT',
    ...block('Tool', [`${tool.name} · ${tool.description}`]),
    ...block('Rung', [`${rungNumber(tool.rung)} ${RUNG_TITLES[tool.rung]}`]),
  ];
  if (tool.ladder?.ruledOut?.length) lines.push(...block('  ruled out', tool.ladder.ruledOut));
  if (tool.ladder?.stepDown) lines.push(...block('  step down', [tool.ladder.stepDown]));
  if (tool.ladder?.climb) lines.push(...block('  climb', [tool.ladder.climb]));
  lines.push(
    ...block('1 INPUTS', inputs),
    ...block('2 OUTPUT', [
      `fields: ${Object.keys(output.properties ?? {}).join(', ') || '(none)'}`,
      `effect: ${tool.effect.class === 'read' ? 'none' : 'changed | existing | no_change'}`,
      `verified_by: ${tool.verifiedBy ?? 'the parsed output'}`,
      `cap: ${tool.cap?.rows ? `${tool.cap.rows} rows, ` : ''}${tool.cap?.chars ?? 4000} characters; when cut: truncated: true + ${tool.cap?.narrow ?? 'how to narrow'}`,
    ]),
    ...block('3 ERRORS', errors),
    ...block('4 SIDE EFFECT', [
      `class: ${tool.effect.class} · gate: ${gateOf(tool)}`,
      `repeat: ${tool.effect.repeat ?? (tool.effect.class === 'read' ? 'a read; repeating it changes nothing' : 'a new call each time')}`,
    ]),
    ...block('5 TIMEOUT', [
      `deadline: ${seconds(tool.timeout.deadlineMs)} · budget: ${budgetText}`,
      'on expiry: stop; return TIMEOUT with outcome: not_started | unknown',
      `settle: ${tool.timeout.settle ?? (tool.effect.class === 'read' ? 'none needed (a read)' : 'none declared')}`,
    ]),
    ...block('Session', [
      tool.session
        ? `secret '${tool.session.secret}' from the secret store · on expiry: ${tool.session.onExpiry}`
        : 'none',
    ]),
  );
  return lines.join('\n');
}
