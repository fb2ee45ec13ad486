import { describe, expect, it } from 'vitest';
import { MARLA_PLOTS, parsePlot } from '../../../src/apps/plan/plot.js';

describe('parsePlot', () => {
  it.each([
    ['10 marla', 35, 65, 10.1],
    ['5 Marla', 25, 45, 5],
    ['1 kanal', 50, 90, 20],
    ['2 kanal', 75, 120, 40],
    ['35 x 65 ft', 35, 65, 10.1],
    ["30' x 60'", 30, 60, 8],
    ['40 by 80 feet', 40, 80, 14.2],
  ])('reads %s as %s x %s ft (%s marla)', (text, width, depth, marla) => {
    expect(parsePlot(text)).toMatchObject({ widthFt: width, depthFt: depth, marla });
  });

  it('converts metres to feet', () => {
    expect(parsePlot('10 x 20 m')).toMatchObject({ widthFt: 32.75, depthFt: 65.5 });
  });

  it('knows twelve marla sizes, each close to its marla count', () => {
    expect(MARLA_PLOTS.size).toBe(12);
    for (const [marla, [width, depth]] of MARLA_PLOTS)
      expect(Math.abs((width * depth) / 225 - marla)).toBeLessThan(0.6);
  });

  it.each([
    ['9 marla', 'not one of the usual plot sizes'],
    ['big plot', 'neither a marla or kanal size nor two sides'],
    ['10 x 12 ft', 'smaller than any house plot'],
  ])('refuses %s with the reason', (text, reason) => {
    expect(() => parsePlot(text)).toThrow(reason);
  });
});
