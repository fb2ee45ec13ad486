import { basename, resolve } from 'node:path';
import { parseYaml } from '../config/yaml.js';
import { asOpenApi, type OpenApiDocument, readSpec } from '../rungs/api/openapi.js';
import { UsageError } from './args.js';

/** An OpenAPI description as lift api import read it, and the base URL its calls go to. */
export interface LoadedDescription {
  document: OpenApiDocument;
  /** Where it came from, as the tool file records it: a URL, or the file's absolute path. */
  source: string;
  /** A name for the default tool file: `openapi` for .../openapi.json. */
  stem: string;
  baseUrl: string;
}

const IS_URL = /^https?:\/\//i;

async function fetchDescription(url: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(30_000),
      headers: { accept: 'application/json, application/yaml, */*' },
    });
  } catch (error) {
    throw new UsageError(
      `${url} did not answer (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const text = await response.text();
  if (!response.ok)
    throw new UsageError(`${url} answered HTTP ${response.status}; give the URL of an OpenAPI description.`);
  try {
    return text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text);
  } catch {
    throw new UsageError(`${url} is neither JSON nor YAML.`);
  }
}

/**
 * The base URL: --base-url, else the description's first server (a relative one resolved
 * against the URL it was loaded from), else the origin it was loaded from. A file without
 * servers has no address to guess: it asks for --base-url.
 */
function baseUrlOf(document: OpenApiDocument, source: string, given: string | undefined): string {
  if (given) return given;
  const server = document.servers?.[0]?.url;
  const loadedFrom = IS_URL.test(source) ? source : undefined;
  if (server && (IS_URL.test(server) || !loadedFrom)) return server;
  if (server && loadedFrom) return new URL(server, loadedFrom).href.replace(/\/$/, '');
  if (loadedFrom) return new URL(loadedFrom).origin;
  throw new UsageError(
    `${basename(source)} names no servers, so its address is unknown: give it with --base-url URL (e.g. --base-url http://127.0.0.1:8080).`,
  );
}

/** Reads a description from a file or an http(s) URL. */
export async function loadDescription(
  target: string,
  cwd: string,
  baseUrl?: string,
): Promise<LoadedDescription> {
  const isUrl = IS_URL.test(target);
  const source = isUrl ? target : resolve(cwd, target);
  const document = isUrl ? asOpenApi(await fetchDescription(target), target) : readSpec(source);
  const name = isUrl ? basename(new URL(target).pathname) || 'api' : basename(source);
  return {
    document,
    source,
    stem: name.replace(/\.(json|ya?ml)$/i, '') || 'api',
    baseUrl: baseUrlOf(document, source, baseUrl),
  };
}
