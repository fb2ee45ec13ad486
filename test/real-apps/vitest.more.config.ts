import { defineConfig } from 'vitest/config';
import bed, { MORE_APPS } from './vitest.config.js';

// The bed's second suite: the apps issue 41 added, with the first suite's bounds.
export default defineConfig({ ...bed, test: { ...bed.test, include: MORE_APPS, exclude: [] } });
