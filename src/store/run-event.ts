import { currentEventType, MODEL_EVENT_TYPES, type RunEventType } from '../contract/events.js';

export interface RunEvent {
  /** ISO time the event happened. */
  t: string;
  type: RunEventType;
  duration_ms?: number;
  [key: string]: unknown;
}

/** A model or provider event: what replay must never emit. */
export function isModelEvent(event: { type: string }): boolean {
  return MODEL_EVENT_TYPES.has(event.type as RunEventType);
}

/**
 * An event as read back from a log, under today's name (logs written by Lift 0.1.0 used
 * other names). A name no Lift wrote, from a tool loaded at run time, is kept as written.
 */
export function readEvent(event: { type: string; [key: string]: unknown }): RunEvent {
  const type = currentEventType(event);
  return (type === event.type ? event : { ...event, type }) as RunEvent;
}
