#!/usr/bin/env node
// `npm test`: lint and format check, typecheck, then every suite (unit, integration, e2e, browser, infra) in one vitest
// run, then one closing line `N passed, N failed` that any CI can read.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
const step = (command, args) => spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;

const started = Date.now();
console.log('== lint and format (Biome)');
if (step('npx', ['biome', 'check', '.']) !== 0) {
  console.log('Lint: 0 passed, 1 failed (run `npm run format` to apply safe fixes and formatting)');
  process.exit(1);
}
console.log('== typecheck');
if (step('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']) !== 0 || step('npx', ['tsc', '--noEmit', '-p', 'dashboard/tsconfig.json']) !== 0) {
  console.log('Typecheck: 0 passed, 1 failed');
  process.exit(1);
}
console.log('== tests');
const results = '.vitest-results.json';
rmSync(results, { force: true });
const status = step('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...process.argv.slice(2)]);
let summary;
try {
  summary = JSON.parse(readFileSync(results, 'utf8'));
} catch {
  console.log('Tests: 0 passed, 1 failed (no results were written)');
  process.exit(status || 1);
}
const skipped = summary.numPendingTests + summary.numTodoTests;
console.log(`\nDone in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`Tests: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status !== 0 || summary.numFailedTests > 0 || summary.numPassedTests === 0 ? 1 : 0);
