import { resolve } from 'node:path';
import { builtinTools } from '../builtin.js';
import { loadConfig, loadConfiguredTools } from '../config/load.js';
import { addCapabilityTools } from '../replay/load.js';
import { Runtime } from '../runtime/runtime.js';
import type { CliIo } from './io.js';

/** The runtime a command works with: built-in tools, configured tools, the store in LIFT_HOME or .lift. */
export async function openRuntime(io: CliIo): Promise<Runtime> {
  const config = await loadConfig(io.cwd, io.env);
  const tools = [...(await builtinTools()), ...(await loadConfiguredTools(config))];
  return addCapabilityTools(new Runtime({ home: resolve(io.cwd, config.home ?? '.lift'), env: io.env, tools }));
}
