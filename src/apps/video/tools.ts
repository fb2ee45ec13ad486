import type { AnyTool } from '../../contract/define-tool.js';
import { buildTimeline } from './build-timeline.js';
import { buildTitleAnimation } from './build-title-animation.js';

/**
 * Video edits written as the editors' own files and rendered by Debian's melt; title animations
 * written as Lottie JSON and an After Effects script and played by lottie-web in Chromium.
 */
export const tools: AnyTool[] = [buildTimeline, buildTitleAnimation];
