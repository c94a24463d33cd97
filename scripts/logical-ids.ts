/**
 * Regenerates test/infra/fixtures/logical-ids.json (the CDK logical ids and types the architecture
 * test pins) and prints what changed. Additions are expected when a capability adds resources;
 * a removal or a changed type means a deployed resource would be replaced or deleted.
 *   npx tsx scripts/logical-ids.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { App as CdkApp } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacks } from '../lib/app';

const file = new URL('../test/infra/fixtures/logical-ids.json', import.meta.url);
let before: Record<string, Record<string, string>> = {};
try {
  before = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  // conflicted or missing: compare against nothing
}
const stacks = buildStacks(new CdkApp({ context: { 'aws:cdk:bundling-stacks': [] } }), {
  stage: 'prod',
  settings: { senderEmail: 'no-reply@example.com' },
  env: { account: '123456789012', region: 'eu-west-1' },
});
const after: Record<string, Record<string, string>> = {};
for (const [name, stack] of Object.entries(stacks)) {
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string }>;
  after[name] = Object.fromEntries(Object.entries(resources).map(([id, r]) => [id, r.Type]));
}
let removed = 0;
for (const [name, ids] of Object.entries(before)) {
  for (const [id, type] of Object.entries(ids)) {
    if (after[name]?.[id] !== type) {
      removed++;
      console.log(`REMOVED or CHANGED ${name} ${id} ${type} -> ${after[name]?.[id] ?? '(gone)'}`);
    }
  }
}
const added = Object.entries(after).reduce((n, [name, ids]) => n + Object.keys(ids).filter((id) => !before[name]?.[id]).length, 0);
writeFileSync(file, JSON.stringify(after, null, 2) + '\n');
console.log(`${added} added, ${removed} removed or changed`);
process.exitCode = removed ? 1 : 0;
