import type { ParseArgsConfig, parseArgs } from 'node:util';

type ParseArgsOption = NonNullable<ParseArgsConfig['options']>[string];

/** One flag: how it parses (as node:util parseArgs reads it) and what help says about it. */
export interface OptionSpec extends ParseArgsOption {
  description: string;
  /** The value's name in help, e.g. JSON for `--input <JSON>`; strings only. */
  value?: string;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** A positional argument; help shows `<name>`, `[name]` when optional, `...` when it repeats. */
export interface ArgumentSpec {
  name: string;
  description: string;
  optional?: boolean;
  variadic?: boolean;
}

export interface SubcommandSpec {
  summary: string;
  arguments?: ArgumentSpec[];
  /** The command's flags this subcommand takes; all of them when absent. */
  options?: string[];
  /** One or two command lines that work as written. */
  examples: string[];
  /** Runs when the command is given without a subcommand (`lift tools` is `lift tools list`). */
  default?: boolean;
  /** Internal: accepted, never listed (the session daemon). */
  hidden?: boolean;
  /** Text after the examples in the subcommand's help (the fields a JSON argument takes). */
  notes?: string;
}

/**
 * One `lift` command as help and the parser see it. Its flags are declared once for the command;
 * each subcommand names the ones it takes, so every flag has one description and one type.
 */
export interface CommandSpec<O extends OptionSpecs = OptionSpecs> {
  name: string;
  summary: string;
  arguments?: ArgumentSpec[];
  options: O;
  examples: string[];
  subcommands?: Record<string, SubcommandSpec>;
  /** Flags after the first argument belong to it, not to lift (`lift exec ls -la`). */
  passThrough?: boolean;
  /** Text after the flags in help: environment variables, exit codes. */
  notes?: string;
}

/** Keeps the flags' literal types, so that parsed values are typed from the declaration. */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/** What parse() returns: the values typed as node:util parseArgs types them, the positionals in order. */
export type Parsed<O extends OptionSpecs> = Pick<
  ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>,
  'values' | 'positionals'
>;

/** `<name>`, `[name]`, `<name...>` for one argument. */
export function argumentLabel(argument: ArgumentSpec): string {
  const name = `${argument.name}${argument.variadic ? '...' : ''}`;
  return argument.optional ? `[${name}]` : `<${name}>`;
}
