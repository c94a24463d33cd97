#!/usr/bin/env node
// `npm test`: lint and format check, typecheck, then every suite (unit, integration, e2e, browser, infra) in one vitest
// run, then one closing line `N passed, N failed` that any CI can read.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
const step = (command, args) => spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;

const started = Date.now();
// Lint and the two typechecks are independent: run them side by side (each prints when done), and
// stop before the tests if any failed.
const checked = (name, command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      console.log(`== ${name}`);
      if (output.trim()) console.log(output.trimEnd());
      resolve(code ?? 1);
    });
  });
const [lint, typecheckApp, typecheckDashboard] = await Promise.all([
  checked('lint and format (Biome)', 'npx', ['biome', 'check', '.']),
  checked('typecheck (app)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']),
  checked('typecheck (dashboard)', 'npx', ['tsc', '--noEmit', '-p', 'dashboard/tsconfig.json']),
]);
if (lint !== 0) {
  console.log('Lint: 0 passed, 1 failed (run `npm run format` to apply safe fixes and formatting)');
  process.exit(1);
}
if (typecheckApp !== 0 || typecheckDashboard !== 0) {
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
