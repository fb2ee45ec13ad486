import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type ListRootsResult, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { broadFolder } from '../runtime/default-roots.js';

/** How long a call waits for the client's roots before it goes on with the runtime's. */
export const LIST_ROOTS_MS = 10_000;

/**
 * The local folders of a roots list: `file://` URIs only (another scheme, or a host, names no
 * folder here), and none that is the whole disk, a system folder, a folder shared by everyone or
 * the user's whole home: a client (or anyone holding the HTTP token) naming `/` would otherwise
 * open every file again, past the operator's roots.
 */
export function foldersOf(result: ListRootsResult, userHome: string | undefined): string[] {
  const folders: string[] = [];
  for (const root of result.roots) {
    if (!root.uri.startsWith('file://')) continue;
    let folder: string;
    try {
      folder = fileURLToPath(root.uri);
    } catch {
      // file://otherhost/... is a folder on another machine.
      continue;
    }
    if (broadFolder(folder, userHome) === undefined) folders.push(folder);
  }
  return folders;
}

/**
 * The folders an MCP client opened to Lift (its roots: an editor's workspace folders), asked of
 * the client once, on its first tool call, and again after each `notifications/roots/list_changed`.
 * Asked within a call, so over Streamable HTTP the request travels on that call's own stream.
 * Undefined when the client has no roots, names no local folder that is a root (foldersOf), or
 * does not answer in time: the runtime's roots (lift.config `roots`, `--root`, a project's
 * working folder) apply instead.
 */
export class ClientRoots {
  readonly #server: Server;
  readonly #userHome: string | undefined;
  #known: Promise<string[] | undefined> | undefined;

  constructor(server: Server, userHome: string | undefined) {
    this.#server = server;
    this.#userHome = userHome;
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      this.#known = undefined;
    });
  }

  /** The client's roots for a call about to run; `list` asks the client (roots/list). */
  forCall(list: () => Promise<ListRootsResult>): Promise<string[] | undefined> {
    if (!this.#server.getClientCapabilities()?.roots) return Promise.resolve(undefined);
    if (this.#known) return this.#known;
    const asked = list().then(
      (result) => {
        const folders = foldersOf(result, this.#userHome);
        return folders.length > 0 ? folders : undefined;
      },
      () => {
        // Asked again on the next call; this one goes on with the runtime's roots.
        if (this.#known === asked) this.#known = undefined;
        return undefined;
      },
    );
    this.#known = asked;
    return asked;
  }
}
