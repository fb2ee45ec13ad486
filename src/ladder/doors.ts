import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { CapabilityStore } from '../capability/store.js';
import type { AnyTool } from '../contract/define-tool.js';
import { type Rung, rungNumber } from '../contract/effects.js';
import { isSuccess } from '../contract/envelope.js';
import { outputSchemaOf } from '../contract/json-schema.js';
import { importOpenApi } from '../rungs/api/import.js';
import { apiOriginOf, loadApiTools, toolsFromApiFile } from '../rungs/api/loader.js';
import { listOperations, readSpec } from '../rungs/api/openapi.js';
import { sha256 } from '../runtime/canonical.js';
import type { Runtime } from '../runtime/runtime.js';
import {
  type ApiCandidate,
  type Candidate,
  type CapabilityCandidate,
  candidateLabel,
  type DeclaredOperation,
} from './declaration.js';
import type { CandidateResult, TestName, TestResult } from './store.js';

/** What a door needs from the rest of Lift: secrets, tools, capabilities, and the rung of another operation. */
export interface DoorContext {
  runtime: Runtime;
  capabilities: CapabilityStore;
  /** The current rung of the operation that reads a write back (walking it first if it never was). */
  rungOf: (operation: string) => Promise<{ rung: Rung | undefined; evidence: string }>;
}

type Door = { tool: string; fingerprint: string | undefined; present: TestResult; apiTool?: AnyTool };

const pass = (evidence: string): TestResult => ({ passed: true, evidence });
const fail = (evidence: string): TestResult => ({ passed: false, evidence });

function fileHash(path: string): string | undefined {
  return existsSync(path) ? `sha256:${sha256(readFileSync(path, 'utf8')).slice(0, 16)}` : undefined;
}

/** Present on rung 1: the operation is in the description and imports into a tool. */
function apiDoor(candidate: ApiCandidate, operation: DeclaredOperation): Door {
  const fingerprint = fileHash(candidate.tool_file ?? candidate.spec);
  const fallbackTool = candidate.tool ?? operation.name;
  if (!existsSync(candidate.spec)) {
    return {
      tool: fallbackTool,
      fingerprint,
      present: fail(`the description ${candidate.spec} does not exist`),
    };
  }
  const document = readSpec(candidate.spec);
  const ids = listOperations(document).map((entry) => entry.operationId);
  if (!ids.includes(candidate.operation_id)) {
    const known = ids.length > 6 ? `${ids.slice(0, 6).join(', ')}, …` : ids.join(', ');
    return {
      tool: fallbackTool,
      fingerprint,
      present: fail(
        `operation '${candidate.operation_id}' is not in ${basename(candidate.spec)} (${ids.length} operation(s): ${known || 'none'})`,
      ),
    };
  }
  const options = candidate.base_url ? { baseUrl: candidate.base_url } : {};
  try {
    const tools = candidate.tool_file
      ? loadApiTools(candidate.tool_file, options)
      : toolsFromApiFile(importOpenApi(document, { only: [candidate.operation_id] }).file, options);
    const tool = tools.find((each) => apiOriginOf(each)?.operationId === candidate.operation_id);
    if (!tool) {
      return {
        tool: fallbackTool,
        fingerprint,
        present: fail(`the tool file has no tool for '${candidate.operation_id}'`),
      };
    }
    return {
      tool: candidate.tool ?? tool.name,
      fingerprint,
      apiTool: tool,
      present: pass(
        `operation '${candidate.operation_id}' (${tool.name}) is in ${basename(candidate.spec)}, ${fingerprint ?? 'unhashed'}`,
      ),
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      tool: fallbackTool,
      fingerprint,
      present: fail(`'${candidate.operation_id}' is described but cannot be imported: ${reason}`),
    };
  }
}

async function capabilityDoor(
  candidate: CapabilityCandidate,
  operation: DeclaredOperation,
  context: DoorContext,
): Promise<Door> {
  const tool = candidate.tool ?? operation.name;
  const stored = await context.capabilities.resolve(candidate.capability);
  if (!stored) {
    return {
      tool,
      fingerprint: undefined,
      present: fail(`no compiled capability is named '${candidate.capability}'`),
    };
  }
  const fingerprint = `rev:${stored.revision.slice(0, 16)}`;
  const registration = await context.runtime.store.registrations.get(candidate.capability);
  if (registration && !registration.enabled) {
    return {
      tool,
      fingerprint,
      present: fail(
        `capability '${candidate.capability}' is switched off: ${registration.disabledReason ?? 'two failures in a row'} (rediscover it or lift capabilities enable)`,
      ),
    };
  }
  if (!context.runtime.registry.get(tool)) {
    return {
      tool,
      fingerprint,
      present: fail(
        `capability '${candidate.capability}' ${fingerprint} exists, but no tool '${tool}' carries it`,
      ),
    };
  }
  return {
    tool,
    fingerprint,
    present: pass(
      `capability '${candidate.capability}' ${fingerprint} (${stored.steps} steps) is carried by tool '${tool}'`,
    ),
  };
}

function toolDoor(candidate: Candidate & { tool: string }, context: DoorContext): Door {
  const tool = context.runtime.registry.get(candidate.tool);
  if (!tool)
    return {
      tool: candidate.tool,
      fingerprint: undefined,
      present: fail(`no tool is named '${candidate.tool}'`),
    };
  const fingerprint = `tool:${tool.name}@${tool.rung}`;
  if (tool.rung !== candidate.rung) {
    return {
      tool: tool.name,
      fingerprint,
      present: fail(`tool '${tool.name}' is on rung ${tool.rung}, not ${candidate.rung}`),
    };
  }
  return {
    tool: tool.name,
    fingerprint,
    present: pass(`tool '${tool.name}' is registered on rung ${tool.rung}`),
  };
}

function unattended(candidate: Candidate, door: Door, context: DoorContext): TestResult {
  if (candidate.needs_person) return fail(`a person must supply: ${candidate.needs_person}`);
  const secrets = [...candidate.secrets];
  const registered = door.apiTool ?? context.runtime.registry.get(door.tool);
  if (registered?.session) secrets.push(registered.session.secret);
  const missing = secrets.filter((name) => !context.runtime.store.secrets.has(name));
  if (missing.length > 0)
    return fail(`secret(s) not stored: ${missing.join(', ')} (a person must store them)`);
  return pass(
    secrets.length > 0
      ? `every credential is stored: ${[...new Set(secrets)].join(', ')}`
      : 'needs no credential and no answer from a person',
  );
}

async function readableBack(
  candidate: Candidate,
  door: Door,
  operation: DeclaredOperation,
  context: DoorContext,
): Promise<TestResult> {
  if (operation.effect !== 'read') {
    const readBack = operation.read_back!;
    const { rung, evidence } = await context.rungOf(readBack);
    if (rung === undefined) return fail(`its read-back ${readBack} has no rung: ${evidence}`);
    if (rungNumber(rung) > rungNumber(candidate.rung)) {
      return fail(`its read-back ${readBack} is on rung ${rungNumber(rung)}, lower than this rung`);
    }
    return pass(`read back by ${readBack} on rung ${rungNumber(rung)} (${rung})`);
  }
  const tool = door.apiTool ?? context.runtime.registry.get(door.tool);
  if (!tool) return fail(`no tool to read with`);
  const declared = Object.keys(outputSchemaOf(tool).properties ?? {});
  const missing = operation.fields.filter((field) => !declared.includes(field));
  if (missing.length > 0) return fail(`the output does not name ${missing.join(', ')}`);
  const probe = 'probe' in candidate ? candidate.probe : undefined;
  if (!probe)
    return pass(`the output schema names ${operation.fields.join(', ') || 'its fields'} (no probe declared)`);
  const envelope = await context.runtime.invoke(tool, probe);
  if (!isSuccess(envelope) || !envelope.ok) {
    const code = 'error' in envelope ? envelope.error.code : 'not ok';
    return fail(`probe ${JSON.stringify(probe)} failed: ${code}`);
  }
  const absent = operation.fields.filter((field) => !(field in envelope.fields));
  if (absent.length > 0) return fail(`probe ${JSON.stringify(probe)} did not return ${absent.join(', ')}`);
  return pass(
    `probe ${JSON.stringify(probe)} parsed into ${operation.fields.join(', ')} (run ${envelope.run_id})`,
  );
}

/** The three tests of one door, in order; a failed test ends the door's evaluation. */
export async function testDoor(
  candidate: Candidate,
  operation: DeclaredOperation,
  context: DoorContext,
): Promise<CandidateResult> {
  const door =
    'operation_id' in candidate
      ? apiDoor(candidate, operation)
      : 'capability' in candidate
        ? await capabilityDoor(candidate, operation, context)
        : toolDoor(candidate as Candidate & { tool: string }, context);
  const tests: Partial<Record<TestName, TestResult>> = { present: door.present };
  const result = (passed: boolean): CandidateResult => ({
    rung: candidate.rung,
    label: candidateLabel(candidate),
    tool: door.tool,
    fingerprint: door.fingerprint,
    tests,
    passed,
  });
  if (!door.present.passed) return result(false);
  tests.unattended = unattended(candidate, door, context);
  if (!tests.unattended.passed) return result(false);
  tests.readable_back = await readableBack(candidate, door, operation, context);
  return result(tests.readable_back.passed);
}

/** The fingerprint of a door right now, without running its tests (for due walks). */
export async function currentFingerprint(
  candidate: Candidate,
  context: DoorContext,
): Promise<string | undefined> {
  if ('operation_id' in candidate) return fileHash(candidate.tool_file ?? candidate.spec);
  if ('capability' in candidate) {
    const stored = await context.capabilities.resolve(candidate.capability);
    return stored ? `rev:${stored.revision.slice(0, 16)}` : undefined;
  }
  const tool = context.runtime.registry.get(candidate.tool);
  return tool ? `tool:${tool.name}@${tool.rung}` : undefined;
}
