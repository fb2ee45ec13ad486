import { basename } from 'node:path';
import { countOf, plural, textOf } from '../../contract/event-fields.js';
import { declareAppEvents, type EventsOf } from '../../contract/events.js';

/** The events the payroll tools write to the run log, with what a person watching reads. */
export const PAYROLL_EVENTS = declareAppEvents({
  'file-written': (event) => {
    const rows = countOf(event, 'rows');
    const path = textOf(event, 'path');
    return `Wrote ${rows !== undefined ? plural(rows, 'row') : 'a file'}${path ? ` to ${basename(path)}` : ''}`;
  },
  'file-already-sent': (event) =>
    `${textOf(event, 'file') ?? 'The file'} was sent before: not writing it again`,
  'temp-removed': (event) =>
    `Removed ${plural(Array.isArray(event.files) ? event.files.length : 0, 'leftover temporary file')}`,
  'export-read': (event) =>
    `Read the export ${textOf(event, 'file') ?? ''}: ${countOf(event, 'matched') ?? 0} of ${plural(countOf(event, 'scanned') ?? 0, 'row')} match`,
});

declare module '../../contract/events.js' {
  interface AppEvents extends EventsOf<typeof PAYROLL_EVENTS> {}
}
