import type { Section } from './layout.js';

/** Where a not-found page points the person back to. */
export interface WayBack {
  href: string;
  label: string;
}

/**
 * A console page asked for something that is not there (a run, a capability revision, a tool,
 * a handoff). Thrown by the page; the server answers 404 with a page that says what is
 * missing and links back, never a 500 or a blank page.
 */
export class Missing extends Error {
  readonly section: Section | undefined;
  readonly back: WayBack;

  constructor(what: string, section: Section | undefined, back: WayBack) {
    super(what);
    this.name = 'Missing';
    this.section = section;
    this.back = back;
  }
}
