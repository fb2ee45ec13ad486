import type { AnyTool } from '../contract/define-tool.js';
import { gitTools } from './git/tools.js';
import { inventoryTools } from './inventory/tools.js';
import { postgresTools } from './postgres/tools.js';
import { serviceTools } from './services/tools.js';

export { type GitSettings, gitTools } from './git/tools.js';
export { inventoryTools } from './inventory/tools.js';
export { type PostgresSettings, postgresTools } from './postgres/tools.js';
export { type ServiceSettings, serviceTools } from './services/tools.js';

/**
 * The command-line rung's worked tools with their default settings: the legacy inventory's
 * data file in Lift's home (`data/inventory/inventory.json`), Debian's supervisord
 * configuration with the fixture's demo-worker, a local PostgreSQL as user `lift` (password secret `postgres_password`), and
 * git with HTTP credentials from the secrets `git_user` and `git_password`. A deployment
 * with other settings builds its own from the factories in a lift.config tools module.
 * Nothing starts at import time.
 */
export const tools: AnyTool[] = [
  ...inventoryTools(),
  ...serviceTools({ supervisorConfig: '/etc/supervisor/supervisord.conf', services: ['demo-worker'] }),
  ...postgresTools({
    host: '127.0.0.1',
    port: 5432,
    user: 'lift',
    database: 'postgres',
    passwordSecret: 'postgres_password',
  }),
  ...gitTools({ credentials: { usernameSecret: 'git_user', passwordSecret: 'git_password' } }),
];
