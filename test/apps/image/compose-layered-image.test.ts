import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { writePsdUint8Array } from 'ag-psd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeLayers, stack } from '../../../src/apps/image/layers.js';
import { psdChecks } from '../../../src/apps/image/psd-checks.js';
import { tools } from '../../../src/apps/image/tools.js';
import type { ToolContext } from '../../../src/contract/context.js';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

function picture(
  path: string,
  width: number,
  height: number,
  draw: (context: ReturnType<ReturnType<typeof createCanvas>['getContext']>) => void,
) {
  const canvas = createCanvas(width, height);
  draw(canvas.getContext('2d'));
  writeFileSync(path, canvas.toBuffer('image/png'));
}

describe('compose_layered_image', () => {
  // The pictures are in the working folder, Lift's home beside them (a tool may read no file of the home).
  const work = tempDir('lift-psd-');
  const shop = join(work.path, 'shop.png');
  const logo = join(work.path, 'logo.png');
  let runtime: Runtime;
  beforeAll(() => {
    picture(shop, 640, 400, (context) => {
      const gradient = context.createLinearGradient(0, 0, 0, 400);
      gradient.addColorStop(0, '#ff9800');
      gradient.addColorStop(1, '#6a1b9a');
      context.fillStyle = gradient;
      context.fillRect(0, 0, 640, 400);
    });
    picture(logo, 120, 120, (context) => {
      context.fillStyle = '#c62828';
      context.beginPath();
      context.arc(60, 60, 50, 0, Math.PI * 2);
      context.fill();
    });
    runtime = new Runtime({ home: join(work.path, '.lift'), workingDir: work.path, tools });
  });
  afterAll(async () => {
    await runtime.close();
    work.remove();
  });

  it('makes the Eid Sale poster: every layer named and in its box, the flattened picture the layers stacked', async () => {
    const envelope = success(
      await runtime.invoke('compose_layered_image', {
        size: [540, 540],
        name: 'Eid Sale',
        layers: [
          { name: 'Background', kind: 'image', file: shop, at: 'fill' },
          { name: 'Logo', kind: 'image', file: logo, at: 'top-left' },
          { name: 'Title', kind: 'text', text: 'Eid Sale', color: 'white' },
          { name: 'Subtitle', kind: 'text', text: '20% off', color: 'yellow' },
        ],
      }),
    );
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    expect(envelope.checks.map((check) => check.name)).toEqual([
      'psd_layers_named',
      'psd_layers_in_place',
      'psd_flattened_equals_layers',
      'preview_equals_flattened',
    ]);
    expect(envelope.checks[0]!.detail).toContain('Background, Logo, Title, Subtitle');
    expect(envelope.files.psd).toMatch(/Eid_Sale\.psd$/);
    expect(statSync(envelope.files.psd!).mode & 0o777).toBe(0o600);
    const boxes = (envelope.fields.layers as Array<{ name: string; box: string }>).map((layer) => layer.box);
    expect(boxes[0]).toBe('540x540+0+0');
    expect(boxes[1]).toBe('135x135+22+22');
  });

  it('refuses an unknown colour name and names the ones it knows', async () => {
    const refused = await runtime.invoke('compose_layered_image', {
      size: [100, 100],
      layers: [{ name: 'Back', kind: 'color', color: 'chartreuse' }],
    });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toContain('a colour name (white, black');
  });

  it('fails the stacking check when the flattened picture is not the layers stacked', async () => {
    const size: [number, number] = [64, 64];
    const layers = await placeLayers(
      [
        { name: 'Back', kind: 'color', color: 'navy' },
        { name: 'Word', kind: 'text', text: 'Hi', color: 'white' },
      ],
      size,
    );
    const wrong = stack(layers.slice(0, 1), size);
    const psd = join(work.path, 'wrong.psd');
    const preview = join(work.path, 'wrong.png');
    writeFileSync(
      psd,
      writePsdUint8Array({
        width: 64,
        height: 64,
        imageData: { width: 64, height: 64, data: wrong },
        children: layers.map((layer) => ({
          name: layer.name,
          left: layer.left,
          top: layer.top,
          imageData: { width: layer.width, height: layer.height, data: layer.data },
        })),
      }),
    );
    picture(preview, 64, 64, () => undefined);
    const ctx = {
      signal: new AbortController().signal,
      deadline: Date.now() + 60_000,
    } as unknown as ToolContext;
    const checks = await psdChecks(psd, preview, layers, size, ctx);
    expect(checks.find((check) => check.name === 'psd_flattened_equals_layers')).toMatchObject({
      passed: false,
    });
    expect(checks.find((check) => check.name === 'preview_equals_flattened')).toMatchObject({
      passed: false,
    });
    expect(checks.find((check) => check.name === 'psd_layers_named')).toMatchObject({ passed: true });
  });
});
