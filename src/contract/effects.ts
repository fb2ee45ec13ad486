/** The four side-effect classes of the wrapper contract and the gate each gets by default. */
export const EFFECT_CLASSES = ['read', 'reversible', 'visible', 'irreversible'] as const;
export type EffectClass = (typeof EFFECT_CLASSES)[number];

export const GATES = ['none', 'log', 'review', 'signature'] as const;
export type Gate = (typeof GATES)[number];

/** What happened to the system, as read back by the tool. Reads report `none`. */
export const EFFECTS = ['changed', 'existing', 'no_change', 'none'] as const;
export type Effect = (typeof EFFECTS)[number];

export const DEFAULT_GATE: Record<EffectClass, Gate> = {
  read: 'none',
  reversible: 'log',
  visible: 'review',
  irreversible: 'signature',
};

export function gateHoldsCall(gate: Gate): boolean {
  return gate === 'review' || gate === 'signature';
}

/** The six rungs of the ladder, best first. */
export const RUNGS = ['api', 'cli', 'file', 'script', 'ui', 'screen'] as const;
export type Rung = (typeof RUNGS)[number];

export function rungNumber(rung: Rung): number {
  return RUNGS.indexOf(rung) + 1;
}

export const RUNG_TITLES: Record<Rung, string> = {
  api: 'API',
  cli: 'command line',
  file: 'file',
  script: 'recorded script',
  ui: 'structured UI',
  screen: 'screen',
};
