import type { AnyTool } from '../contract/define-tool.js';

type Listener = () => void;

/**
 * Tools in name order, by code unit: the same on every machine, and no ICU collation to load
 * (the first localeCompare of a process costs 20 ms on a quiet machine, before serve can answer).
 */
export function byToolName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The tools a runtime offers. It changes at run time (capabilities come and go), so it notifies. */
export class Registry {
  readonly #tools = new Map<string, AnyTool>();
  readonly #listeners = new Set<Listener>();

  constructor(tools: Iterable<AnyTool> = []) {
    for (const tool of tools) this.#tools.set(tool.name, tool);
  }

  add(tool: AnyTool): void {
    this.#tools.set(tool.name, tool);
    this.#notify();
  }

  /** Many tools at once: listeners hear one change. */
  addAll(tools: Iterable<AnyTool>): void {
    for (const tool of tools) this.#tools.set(tool.name, tool);
    this.#notify();
  }

  remove(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#notify();
    return removed;
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  list(): AnyTool[] {
    return [...this.#tools.values()].sort(byToolName);
  }

  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}
