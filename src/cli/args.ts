import { Command, CommanderError, Option } from 'commander';
import { type ArgumentSpec, argumentLabel, type CommandSpec, type OptionSpecs, type Parsed } from './spec.js';

/** A mistake in how lift was called: printed after `lift:`, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Thrown when --help or -h was given: the text goes to standard output and lift exits 0. */
export class HelpShown extends Error {
  override readonly name = 'HelpShown';
  constructor(readonly text: string) {
    super('help shown');
  }
}

interface Selected {
  subcommand: string | undefined;
  command: Command;
}

function configured(command: Command, summary: string): Command {
  return command
    .description(summary)
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} })
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .helpCommand(false);
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function addOptions(command: Command, options: OptionSpecs, flags: string[]): void {
  for (const flag of flags) {
    const spec = options[flag];
    if (!spec) throw new Error(`The subcommand names an undeclared flag --${flag}.`);
    const short = spec.short ? `-${spec.short}, ` : '';
    const value = spec.type === 'string' ? ` <${spec.value ?? 'value'}>` : '';
    const option = new Option(`${short}--${flag}${value}`, spec.description);
    if (spec.multiple) option.argParser(collect);
    // A `no-` flag defaults to false as parseArgs reads it; commander's own default (true) is inverted on the way out.
    if (spec.default !== undefined && !flag.startsWith('no-')) option.default(spec.default);
    command.addOption(option);
  }
}

function addArguments(command: Command, specs: ArgumentSpec[] = []): void {
  for (const spec of specs) command.argument(argumentLabel(spec), spec.description);
}

function addHelpText(command: Command, examples: string[], notes?: string): void {
  const text = [
    examples.length > 0 ? `\nExamples:\n${examples.map((example) => `  ${example}`).join('\n')}` : '',
    notes ? `\n${notes}` : '',
  ].join('');
  if (text) command.addHelpText('after', text);
}

function commanderFor(spec: CommandSpec, select: (selected: Selected) => void): Command {
  const root = configured(new Command(`lift ${spec.name}`), spec.summary);
  addHelpText(root, spec.examples, spec.notes);
  if (!spec.subcommands) {
    addArguments(root, spec.arguments);
    addOptions(root, spec.options, Object.keys(spec.options));
    if (spec.passThrough) root.passThroughOptions();
    root.action((...received: unknown[]) =>
      select({ subcommand: undefined, command: received.at(-1) as Command }),
    );
    return root;
  }
  for (const [name, sub] of Object.entries(spec.subcommands)) {
    const command = configured(root.command(name, { hidden: Boolean(sub.hidden) }), sub.summary);
    addArguments(command, sub.arguments);
    addOptions(command, spec.options, sub.options ?? Object.keys(spec.options));
    addHelpText(command, sub.examples, sub.notes);
    command.action((...received: unknown[]) =>
      select({ subcommand: name, command: received.at(-1) as Command }),
    );
  }
  return root;
}

/** The index of the first positional argument, skipping flags and the values they take. */
function firstPositional(args: string[], options: OptionSpecs): number {
  const takesValue = new Set(
    Object.entries(options)
      .filter(([, option]) => option.type === 'string')
      .flatMap(([flag, option]) => [`--${flag}`, ...(option.short ? [`-${option.short}`] : [])]),
  );
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--') return index + 1 < args.length ? index + 1 : -1;
    if (!arg.startsWith('-') || arg === '-') return index;
    if (takesValue.has(arg)) index++;
  }
  return -1;
}

/** `lift tools` means `lift tools list`; `lift tools --help` still shows the whole command. */
function withDefaultSubcommand(args: string[], spec: CommandSpec): string[] {
  const subcommands = spec.subcommands;
  if (!subcommands) return args;
  const at = firstPositional(args, spec.options);
  if (at >= 0 && subcommands[args[at] ?? '']) return args;
  if (args.includes('--help') || args.includes('-h')) return args;
  // `lift runs --limt 3`: flags first means the default subcommand, so the flag gets its suggestion.
  if (at >= 0 && !args[0]?.startsWith('-')) return args;
  const fallback = Object.entries(subcommands).find(([, sub]) => sub.default)?.[0];
  return fallback ? [fallback, ...args] : args;
}

function valuesOf(spec: CommandSpec, command: Command): Record<string, unknown> {
  const given = command.opts();
  const values: Record<string, unknown> = {};
  for (const [flag, option] of Object.entries(spec.options)) {
    const declared = command.options.find((candidate) => candidate.long === `--${flag}`);
    const value = declared ? given[declared.attributeName()] : undefined;
    if (flag.startsWith('no-')) values[flag] = declared ? value === false : option.default;
    else if (value !== undefined) values[flag] = value;
    else if (option.default !== undefined) values[flag] = option.default;
  }
  return values;
}

/** Commander's message as a sentence, and where to read the usage. */
function usageMessage(error: CommanderError, where: string): string {
  const text = error.message
    .replace(/^error: /, '')
    .replace(/\n\(Did you mean (.+)\?\)$/, '. Did you mean $1?')
    .replace(/^(.)/, (first) => first.toUpperCase());
  return `${text}\nSee: ${where} --help`;
}

/**
 * Parses a command's arguments against its declaration with commander: --help and -h on the
 * command and on every subcommand, the nearest flag or subcommand suggested for a misspelt one.
 * Values come back keyed by flag name, typed from the declaration, as node:util parseArgs gave them.
 */
export function parse<O extends OptionSpecs>(args: string[], typed: CommandSpec<O>): Parsed<O> {
  const spec = typed as unknown as CommandSpec;
  let selected: Selected | undefined;
  let help = '';
  const root = commanderFor(spec, (chosen) => {
    selected = chosen;
  });
  const capture = {
    writeOut: (text: string) => {
      help += text;
    },
    writeErr: () => {},
    outputError: () => {},
  };
  root.configureOutput(capture);
  for (const command of root.commands) command.configureOutput(capture);
  const given = withDefaultSubcommand(args, spec);
  try {
    root.parse(given, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed') throw new HelpShown(help);
    if (error.code === 'commander.help') {
      const names = Object.entries(spec.subcommands ?? {}).filter(([, sub]) => !sub.hidden);
      throw new UsageError(
        `lift ${spec.name} needs a subcommand: ${names.map(([name]) => name).join(', ')}.\nSee: lift ${spec.name} --help`,
      );
    }
    const at = firstPositional(given, spec.options);
    const sub = at >= 0 && spec.subcommands?.[given[at] ?? ''] ? ` ${given[at]}` : '';
    throw new UsageError(usageMessage(error, `lift ${spec.name}${sub}`));
  }
  if (!selected) throw new Error(`lift ${spec.name}: commander parsed without running a command.`);
  const positionals = [...(selected.subcommand ? [selected.subcommand] : []), ...selected.command.args];
  return { values: valuesOf(spec, selected.command), positionals } as Parsed<O>;
}

/** The unknown command's error, with the nearest known name when one is close (commander's suggestion). */
export function unknownCommand(name: string, known: string[]): UsageError {
  const root = configured(new Command('lift'), 'lift');
  for (const command of known) root.command(command).action(() => {});
  try {
    root.parse([name], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return new UsageError(usageMessage(error, 'lift'));
    throw error;
  }
  return new UsageError(`Unknown command '${name}'.\nSee: lift --help`);
}

export function parseJsonArgument(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
