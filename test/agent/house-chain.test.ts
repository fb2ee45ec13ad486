import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tools as agentTools } from '../../src/agent/tools.js';
import { tools as planTools } from '../../src/apps/plan/tools.js';
import { tools as renderTools } from '../../src/apps/render3d/tools.js';
import { type Harness, offeredTools, startHarness } from './harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a house plan and its 3D view in one chain', () => {
  it('draws the plan and renders it in Blender from one planning call, the plan file passed by reference', async () => {
    harness = await startHarness({ tools: [...agentTools, ...planTools, ...renderTools] });
    const { server, runtime } = harness;
    server.enqueue(
      {
        kind: 'answer',
        toolCalls: [
          {
            name: 'run_chain',
            args: {
              steps: [
                { id: 'plan', tool: 'draw_house_plan', args: { plot: '10 marla', bedrooms: 3 } },
                { id: 'view', tool: 'render_plan_3d', args: { plan_file: '$plan.files.plan', width: 320 } },
              ],
            },
          },
        ],
      },
      { kind: 'answer', text: 'Drew the 10 marla house and rendered it in 3D.' },
    );
    const result = await harness.run('a 10 marla house with 3 bedrooms, then show it in 3D');

    expect(result.outcome).toBe('answered');
    const offered = offeredTools(server.requests[0]);
    expect(offered).toEqual(expect.arrayContaining(['run_chain', 'draw_house_plan', 'render_plan_3d']));
    expect(result.row).toMatchObject({ modelCalls: 2, toolCalls: 2 });
    expect(result.row.checksTotal).toBe(17 + 12);
    expect(result.row.checksPassed, harness.lines.join('\n')).toBe(result.row.checksTotal);
    const house = join(runtime.outputDir, 'render_plan_3d', '10-marla-3-bed');
    for (const file of ['v0_plan3d.png', 'v0_front.png', 'v0.blend'])
      expect(existsSync(join(house, file))).toBe(true);
    const fed = server.requests[1]!.rawBody;
    expect(fed).toContain('checked 17/17');
    expect(fed).toContain('Checked: 12 of 12 passed');
  }, 300_000);
});
