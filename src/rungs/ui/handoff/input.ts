import { z } from 'zod';

/** Keys a person may press into the page besides text: editing and moving, nothing that reaches the browser's own UI. */
export const HANDOFF_KEYS = [
  'Enter',
  'Tab',
  'Shift+Tab',
  'Backspace',
  'Delete',
  'Escape',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'Space',
] as const;

export const MAX_HANDOFF_TEXT = 2_000;

/**
 * What a person sends to a handed-over page: a click at page coordinates (CSS pixels of its
 * viewport), text, or one of the keys. The process holding the page checks it; nothing of it
 * is logged or kept.
 */
export const HandoffInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('click'), x: z.number().min(0), y: z.number().min(0) }),
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1).max(MAX_HANDOFF_TEXT) }),
  z.strictObject({ kind: z.literal('key'), key: z.enum(HANDOFF_KEYS) }),
]);
export type HandoffInput = z.infer<typeof HandoffInputSchema>;
