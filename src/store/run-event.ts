export interface RunEvent {
  /** ISO time the event happened. */
  t: string;
  type: string;
  duration_ms?: number;
  [key: string]: unknown;
}

/** A model or provider event: what replay must never emit. */
export function isModelEvent(event: { type: string }): boolean {
  return event.type.startsWith('model') || event.type.startsWith('provider');
}
