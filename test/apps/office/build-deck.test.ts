import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { leftBehind, type OfficeRuntime, officeRuntime } from './office-runtime.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

const LONG_BULLETS = Array.from(
  { length: 14 },
  (_, index) => `Point ${index + 1}: a fairly long bullet that explains one finding in enough words to wrap`,
);

function outline(autoFit: 'none' | 'shrink' | 'split', bullets = LONG_BULLETS) {
  return {
    title: 'Quarterly review',
    auto_fit: autoFit,
    slides: [
      { title: 'Quarterly review', bullets: ['Sales up 12%', 'Two new stores'], notes: 'Welcome everyone.' },
      { title: 'Highlights', bullets: ['Margins held', 'Returns fell'] },
      { title: 'Everything we learned', bullets },
      { title: 'Next steps', bullets: ['Hire two engineers'] },
    ],
  };
}

describe('build_deck', () => {
  let office: OfficeRuntime;
  beforeAll(async () => {
    office = await officeRuntime();
  });
  afterAll(async () => {
    const profile = office.office.profileDir;
    await office.close();
    expect(leftBehind(profile)).toEqual([]);
  });

  it('names the slide whose text runs out of its box in a failed check', async () => {
    const envelope = success(await office.runtime.invoke('build_deck', { outline: outline('none') }));
    expect(envelope.ok).toBe(false);
    const present = envelope.checks.find((check) => check.name === 'slides_present');
    expect(present?.passed, present?.detail).toBe(true);
    const fits = envelope.checks.find((check) => check.name === 'text_fits');
    expect(fits?.passed).toBe(false);
    expect(fits?.detail).toMatch(/slide 3: Body text needs \d+ pt, the box has 281 pt/);
    expect(fits?.detail).not.toMatch(/slide [124]:/);
    expect(envelope.fields.pdf_pages).toBe(4);
    for (const file of Object.values(envelope.files)) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('shrinks the overflowing text until it fits, and checks again', async () => {
    const envelope = success(
      await office.runtime.invoke('build_deck', { outline: outline('shrink', LONG_BULLETS.slice(0, 8)) }),
    );
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    expect((envelope.fields.auto_fit as string[])[0]).toMatch(
      /^slide 3: body text shrunk from 20 pt to \d+ pt$/,
    );
    expect(envelope.fields.slides).toBe(4);
  });

  it('splits the overflowing slide, and checks again', async () => {
    const envelope = success(await office.runtime.invoke('build_deck', { outline: outline('split') }));
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    expect(envelope.fields.slides).toBeGreaterThan(4);
    expect(envelope.fields.pdf_pages).toBe(envelope.fields.slides);
  });
});
