import { isAbsolute, resolve } from 'node:path';
import { addBackofficeTools } from '../apps/backoffice/tools.js';
import { builtinTools } from '../builtin.js';
import { loadConfig, loadConfiguredTools } from '../config/load.js';
import { addDesktopSkillTools } from '../replay/desktop-skills.js';
import { addCapabilityTools } from '../replay/load.js';
import { loadApiTools } from '../rungs/api/loader.js';
import { rootsFromSettings } from '../runtime/roots.js';
import { Runtime } from '../runtime/runtime.js';
import { debugLog } from './debug-log.js';
import type { CliIo } from './io.js';

/**
 * The runtime a command works with: built-in tools, configured tool modules and API tool files,
 * registered capabilities, and the store in LIFT_HOME or .lift.
 */
export async function openRuntime(io: CliIo): Promise<Runtime> {
  const debug = debugLog(io);
  const config = await loadConfig(io.cwd, io.env);
  debug(`config ${config.file ?? '(none: defaults)'}; home ${resolve(io.cwd, config.home ?? '.lift')}`);
  const apiTools = config.apis.flatMap((file) =>
    loadApiTools(isAbsolute(file) ? file : resolve(config.root, file)),
  );
  const tools = [...(await builtinTools()), ...(await loadConfiguredTools(config)), ...apiTools];
  debug(
    `${tools.length} tools: built-in, ${config.tools.length} configured module(s), ${apiTools.length} from API files`,
  );
  const runtime = new Runtime({
    home: resolve(io.cwd, config.home ?? '.lift'),
    env: io.env,
    tools,
    workingDir: io.cwd,
    roots: rootsFromSettings(config.settings, config.root),
  });
  for (const [name, settings] of Object.entries(config.settings)) {
    void runtime.service(`settings:${name}`, () => settings);
  }
  await addBackofficeTools(runtime, config.settings.backoffice, (spec) => resolve(config.root, spec));
  addDesktopSkillTools(await addCapabilityTools(runtime));
  debug(`store open; ${runtime.registry.list().length} tools with capabilities and skills`);
  return runtime;
}
