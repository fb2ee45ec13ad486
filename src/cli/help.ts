import { argumentLabel, type CommandSpec, type OptionSpec } from './spec.js';

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

/** `[--name VALUE]` for a string flag, `[--name]` for a boolean one, as a usage line shows it. */
function flagLabel(name: string, option: OptionSpec | undefined): string {
  return option?.type === 'string' ? `[--${name} ${option.value ?? 'VALUE'}]` : `[--${name}]`;
}

/**
 * A command's usage, one line per listed subcommand with its arguments and flags, derived from
 * its declaration (what a usage error prints, so that it never drifts from help).
 */
export function usageOf(spec: CommandSpec): string {
  const lines = spec.subcommands
    ? Object.entries(spec.subcommands)
        .filter(([, sub]) => !sub.hidden)
        .map(([name, sub]) =>
          [
            'lift',
            spec.name,
            name,
            ...(sub.arguments ?? []).map(argumentLabel),
            ...(sub.options ?? Object.keys(spec.options)).map((flag) => flagLabel(flag, spec.options[flag])),
          ].join(' '),
        )
    : [
        [
          'lift',
          spec.name,
          ...(spec.arguments ?? []).map(argumentLabel),
          ...Object.keys(spec.options).map((flag) => flagLabel(flag, spec.options[flag])),
        ].join(' '),
      ];
  return [`Usage: ${lines[0]}`, ...lines.slice(1).map((line) => `       ${line}`)].join('\n');
}
