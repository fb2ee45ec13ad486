import { describe, expect, it } from 'vitest';
import * as lift from '../src/index.js';

describe('the public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(lift).sort()).toEqual(
      [
        'DEFAULT_GATE',
        'EFFECTS',
        'EFFECT_CLASSES',
        'ERROR_CODES',
        'GATES',
        'LiftError',
        'RUNGS',
        'Runtime',
        'contractCard',
        'defineTool',
        'describeEnvelope',
        'gateOf',
        'inputSchemaOf',
        'isError',
        'isLiftError',
        'isPending',
        'isSuccess',
        'lintTools',
        'outputSchemaOf',
      ].sort(),
    );
  });
});
