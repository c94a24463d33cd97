#!/usr/bin/env node
// Refreshes test/support/file-durations.json (seconds per test file, from a run's
// .vitest-results.json) that the test sequencer uses to start the longest files first.
// `node scripts/test-durations.mjs [.vitest-results.json]` after a full `npm test`.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const results = JSON.parse(readFileSync(process.argv[2] ?? '.vitest-results.json', 'utf8'));
const durations = Object.fromEntries(
  results.testResults
    .map((file) => [relative(process.cwd(), file.name).replace(/^.*?(?=test\/)/, ''), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync('test/support/file-durations.json', `${JSON.stringify(durations, null, 1)}\n`);
console.log(`${Object.keys(durations).length} files`);
