import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';

export const IFC_CHECK_HINT =
  "The IFC reader is built from ifc_check.cpp against Debian's IFC++ (packages libifcplusplus-dev, libboost-dev and g++); install them with bash scripts/setup.sh design.";

/** What IFC++ found in the file. */
export interface IfcReading {
  schema: string;
  statements: number;
  counts: Record<string, number>;
  problems: string[];
  products: Array<{
    id: number;
    type: string;
    closed: number;
    open: number;
    volume: number;
    min: number[];
    max: number[];
  }>;
}

const FLAGS = [
  '-O1',
  '-std=c++17',
  '-I/usr/include/ifcpp',
  '-L/usr/lib/ifcplusplus',
  '-lIfcPlusPlus',
  '-lcarve',
  '-Wl,-rpath,/usr/lib/ifcplusplus',
];

function sourcePath(): string {
  const candidates = [
    fileURLToPath(new URL('./ifc_check.cpp', import.meta.url)),
    fileURLToPath(new URL('../../../src/apps/ifc/ifc_check.cpp', import.meta.url)),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found)
    throw new LiftError('INTERNAL_ERROR', `ifc_check.cpp is missing (looked in ${candidates.join(', ')}).`);
  return found;
}

/**
 * The reader program, compiled once per version of its source into a shared cache folder
 * (a compile takes half a minute; every later call reuses it).
 */
export async function ifcChecker(
  ctx: ToolContext,
  cacheDir = join(tmpdir(), 'lift-native'),
): Promise<string> {
  const source = sourcePath();
  const hash = createHash('sha256')
    .update(await readFile(source))
    .update(FLAGS.join(' '))
    .digest('hex')
    .slice(0, 16);
  const binary = join(cacheDir, `ifc-check-${hash}`);
  if (existsSync(binary)) return binary;
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  const temp = `${binary}.${process.pid}.tmp`;
  ctx.emit({ type: 'progress-reported', stage: 'compile', message: 'building the IFC++ reader (once)' });
  try {
    await runWrapped({
      program: '/usr/bin/g++',
      args: [FLAGS[0]!, FLAGS[1]!, FLAGS[2]!, '-o', temp, source, ...FLAGS.slice(3)],
      deadline: Math.min(ctx.deadline, Date.now() + 240_000),
      signal: ctx.signal,
      input: '',
    });
  } catch (error) {
    await rm(temp, { force: true });
    throw new LiftError('PROGRAM_FAILED', `The IFC++ reader did not compile: ${(error as Error).message}`, {
      hint: IFC_CHECK_HINT,
      cause: error,
    });
  }
  await rename(temp, binary);
  return binary;
}

/** Reads an IFC file with IFC++: schema, unknown entities, argument counts, references, solids. */
export async function readIfc(path: string, ctx: ToolContext): Promise<IfcReading> {
  const program = await ifcChecker(ctx);
  const result = await runWrapped({
    program,
    args: [path],
    deadline: Math.min(ctx.deadline, Date.now() + 60_000),
    signal: ctx.signal,
    input: '',
    cap: 32 * 1024 * 1024,
  });
  return JSON.parse(result.stdout.text) as IfcReading;
}
