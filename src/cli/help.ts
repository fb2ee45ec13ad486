import { argumentLabel, type CommandSpec } from './spec.js';

/** One line per command, or per subcommand: `tools show <name>   a tool's contract card`. */
export function commandLines(specs: readonly CommandSpec[]): Array<{ usage: string; summary: string }> {
  return specs.flatMap((spec) => {
    if (!spec.subcommands)
      return [
        { usage: [spec.name, ...(spec.arguments ?? []).map(argumentLabel)].join(' '), summary: spec.summary },
      ];
    return Object.entries(spec.subcommands)
      .filter(([, sub]) => !sub.hidden)
      .map(([name, sub]) => ({
        usage: [spec.name, name, ...(sub.arguments ?? []).map(argumentLabel)].join(' '),
        summary: sub.summary,
      }));
  });
}

/** lift --help: every command and subcommand, derived from their declarations. */
export function topLevelHelp(specs: readonly CommandSpec[]): string {
  const lines = commandLines(specs);
  const width = Math.min(40, Math.max(...lines.map((line) => line.usage.length)));
  const rows = lines.map(({ usage, summary }) =>
    usage.length > width
      ? `  ${usage}\n  ${' '.repeat(width)}  ${summary}`
      : `  ${usage.padEnd(width)}  ${summary}`,
  );
  return [
    'Usage: lift COMMAND [SUBCOMMAND] [ARGUMENTS] [FLAGS]',
    '',
    'Typed, verified tools over software built for people. Human text by default, --json for machines.',
    '',
    'Commands:',
    ...rows,
    '',
    "lift COMMAND --help (or -h) shows a command's flags and examples; lift --version prints the version.",
    'Environment: LIFT_HOME (state folder), LIFT_MODEL and LIFT_BASE_URL (the model), LIFT_LOG=debug (what Lift does, on stderr).',
    '',
  ].join('\n');
}
