import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { Envelope } from '../contract/envelope.js';
import { isTextType, mimeTypeOf } from './mime.js';
import { ProtocolError } from './protocol-error.js';
import { filesOf, fileUri } from './tool-result.js';

const MAX_RESOURCE_BYTES = 20 * 1024 * 1024;

/**
 * The files envelopes named during this server's life (overflow of capped results, exports
 * a tool wrote). Only these are readable: a client cannot ask for an arbitrary path.
 */
export class FileResources {
  readonly #files = new Map<string, Resource>();

  remember(envelope: Envelope): void {
    for (const { key, path } of filesOf(envelope)) {
      const uri = fileUri(path);
      this.#files.set(uri, {
        uri,
        name: `${envelope.tool} ${key}: ${basename(path)}`,
        mimeType: mimeTypeOf(path),
      });
    }
  }

  list(): Resource[] {
    return [...this.#files.values()];
  }

  async read(uri: string): Promise<ReadResourceResult> {
    const resource = this.#files.get(uri);
    if (!resource) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `No resource '${uri}'. Only files named by this server's results are readable; list them with resources/list.`,
      );
    }
    const path = fileURLToPath(uri);
    const size = (await stat(path)).size;
    if (size > MAX_RESOURCE_BYTES) {
      throw new ProtocolError(
        ErrorCode.InvalidRequest,
        `${path} has ${size} bytes, over the ${MAX_RESOURCE_BYTES}-byte limit; read it from disk.`,
      );
    }
    const data = await readFile(path);
    const mimeType = resource.mimeType ?? mimeTypeOf(path);
    return {
      contents: [
        isTextType(mimeType)
          ? { uri, mimeType, text: data.toString('utf8') }
          : { uri, mimeType, blob: data.toString('base64') },
      ],
    };
  }
}
