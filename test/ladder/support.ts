import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { type AnyTool, defineTool } from '../../src/contract/define-tool.js';
import type { Rung } from '../../src/contract/effects.js';

export const FIXTURE_SPEC = join(
  import.meta.dirname,
  '..',
  '..',
  'src',
  'fixtures',
  'backoffice',
  'openapi.json',
);

/** The fixture's description, optionally with the close call the vendor might one day ship. */
export function writeTicketSpec(path: string, options: { withClose: boolean }): void {
  const spec = JSON.parse(readFileSync(FIXTURE_SPEC, 'utf8'));
  if (options.withClose) {
    spec.paths['/api/tickets/{id}/close'] = {
      post: {
        operationId: 'closeTicket',
        summary: 'Close a ticket with a resolution note',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^T-\\d{6}$' } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['note'],
                properties: { note: { type: 'string', minLength: 1, maxLength: 2000 } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Closed',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Ticket' } } },
          },
        },
      },
    };
  }
  writeFileSync(path, JSON.stringify(spec, null, 2));
}

/**
 * A tool that sits on a lower rung so that the ladder has a door to find there. The ladder
 * only tests that it is present; these tests never call it.
 */
export function lowerDoor(
  name: string,
  rung: Rung,
  effect: 'read' | 'visible' | 'irreversible' = 'visible',
): AnyTool {
  return defineTool({
    name,
    description: `${name} through the ${rung} rung (registered for ladder tests; not called)`,
    rung,
    input: z.strictObject({ ticket_id: z.string().regex(/^T-\d{6}$/) }),
    output: z.strictObject({ id: z.string(), status: z.string() }),
    effect: { class: effect },
    timeout: { deadlineMs: 5_000 },
    run: async (_input, ctx) =>
      ctx.fail('SURFACE_CHANGED', `${name} is not meant to be called in ladder tests.`),
  });
}

export function writeOperations(path: string, content: unknown): string {
  writeFileSync(path, stringify(content));
  return path;
}
