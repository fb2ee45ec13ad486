import { SCREENCAST } from './screencast-script.js';
import { SCRIPT } from './script.js';
import { CSS } from './style.js';

/** Static files of the console, served from memory: no build step, nothing fetched elsewhere. */
export const ASSETS: Record<string, { type: string; body: string }> = {
  '/console/assets/console.css': { type: 'text/css', body: CSS },
  '/console/assets/console.js': { type: 'text/javascript', body: `${SCRIPT}\n${SCREENCAST}` },
};
