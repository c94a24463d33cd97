import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer';

/**
 * Three files at a time on this 2-core machine: a file keeps about 0.7 of a core busy (its node
 * worker and its DynamoDB Local), the rest is real waiting (queue redeliveries seconds apart, killed
 * and restarted runtimes, browser paint), so two workers left a third of the CPU idle.
 * TEST_WORKERS overrides it.
 */
export const TEST_WORKERS = Math.max(1, Number(process.env.TEST_WORKERS ?? 3));

const env = { POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_DEV: 'true', AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

/**
 * One run, five suites. Suites that touch data use the DynamoDB Local of their worker, started by
 * the global setup; every test file creates its own tables (dropped when it ends), so files run in
 * parallel without meeting.
 *
 * Files of a suite share their worker's module graph (`isolate: false`) except the browser suite:
 * a fresh graph per file cost 2-4 s of module loading for every e2e and integration file (about
 * 200 s of a 2-worker run's ~1,900 worker-seconds), and no file relies on fresh module state
 * (every test makes its own tables, accounts and runtime, and restores what it sets in the
 * environment).
 */
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    env,
    maxWorkers: TEST_WORKERS,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      { extends: true, test: { name: 'unit', isolate: false, include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          isolate: false,
          include: ['test/integration/**/*.test.ts'],
          setupFiles: ['test/support/dynamo-file.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          isolate: false,
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/support/dynamo-file.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          setupFiles: ['test/support/dynamo-file.ts'],
          globalSetup: ['test/support/dashboard-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      { extends: true, test: { name: 'infra', isolate: false, include: ['test/infra/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000 } },
    ],
  },
});
