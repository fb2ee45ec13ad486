import { NEVER_INPUT_RULES } from './never-inputs.js';
import type { Finding, Severity } from './rules.js';

/** What each rule finds, in words a person scanning a long report reads first. */
const RULE_TITLES: Record<string, string> = {
  'pass-through': 'one free-text argument hands over the whole program',
  'credential-input': 'arguments that ask the model for a credential',
  [NEVER_INPUT_RULES.code.rule]: 'arguments that carry code to evaluate',
  [NEVER_INPUT_RULES['shell-command'].rule]: 'arguments that carry a shell command',
  [NEVER_INPUT_RULES.selector.rule]: 'arguments that carry a selector',
  [NEVER_INPUT_RULES.coordinates.rule]: 'arguments that carry screen coordinates',
  'missing-description': 'tools with no description',
  'free-string-for-allow-list': 'free strings where a small set of values fits',
  'unbounded-string': 'strings with no length limit, pattern or allowed values',
  'unbounded-array': 'arrays with no item limit',
  'unbounded-number': 'numbers without a minimum or a maximum',
  'write-without-request-id': 'writes with no request id (a retry does it twice)',
  'irreversible-without-preview': 'irreversible operations with no dry run or preview',
  'thin-description': 'descriptions too short to say the effect and the result',
  'description-missing-result': 'descriptions that do not say what comes back',
  'missing-error-hints': 'no word on which errors come back',
  'no-timeout': 'no declared deadline',
  'name-not-task-shaped': 'names that do not name one task',
};

const SEVERITIES: readonly Severity[] = ['fix-first', 'should-fix', 'consider'];
const WIDTH = 100;

interface Group {
  rule: string;
  severity: Severity;
  findings: Finding[];
}

function groupsOf(findings: readonly Finding[]): Group[] {
  const groups = new Map<string, Group>();
  for (const finding of findings) {
    const group = groups.get(finding.rule) ?? {
      rule: finding.rule,
      severity: finding.severity,
      findings: [],
    };
    group.findings.push(finding);
    groups.set(finding.rule, group);
  }
  return [...groups.values()].sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      b.findings.length - a.findings.length ||
      a.rule.localeCompare(b.rule),
  );
}

/** Words joined by ", " and wrapped at WIDTH, each line indented. */
function wrapped(words: readonly string[], indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line}, ${word}` : word;
    if (line && indent.length + next.length > WIDTH) {
      lines.push(`${indent}${line},`);
      line = word;
    } else line = next;
  }
  if (line) lines.push(`${indent}${line}`);
  return lines;
}

function where(finding: Finding): string {
  return finding.argument ? `${finding.tool}.${finding.argument}` : finding.tool;
}

/** The summary line: how many tools, how many findings of each severity. */
export function summaryLine(toolCount: number, findings: readonly Finding[]): string {
  const count = (severity: Severity) => findings.filter((finding) => finding.severity === severity).length;
  return `${toolCount} tools, ${findings.length} findings: ${count('fix-first')} fix-first, ${count('should-fix')} should-fix, ${count('consider')} consider`;
}

/**
 * Findings grouped by rule, most severe and most frequent first: per rule its count, what it
 * finds, the fix once, and where (tool.argument). A list of a few hundred findings reads in a page.
 */
export function formatLintReport(toolCount: number, findings: readonly Finding[]): string {
  const lines = [summaryLine(toolCount, findings)];
  let severity: Severity | undefined;
  for (const group of groupsOf(findings)) {
    if (group.severity !== severity) {
      severity = group.severity;
      const total = findings.filter((finding) => finding.severity === severity).length;
      lines.push('', `${severity.toUpperCase()} (${total})`);
    }
    const [first] = group.findings;
    const title = RULE_TITLES[group.rule] ?? first?.message ?? '';
    lines.push(`  ${group.rule} (${group.findings.length}): ${title}`);
    if (first) lines.push(`    fix: ${first.fix}`);
    lines.push(...wrapped(group.findings.map(where), '    '));
  }
  return lines.join('\n');
}
