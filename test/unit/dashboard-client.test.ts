import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateDashboardSchema, SCHEMA_FILE } from '../../scripts/dashboard-client';

describe('dashboard typed client', () => {
  it('dashboard/src/api/schema.d.ts matches the API contract (run `npm run dashboard:client` when this fails)', { timeout: 60_000 }, async () => {
    const fresh = await generateDashboardSchema();
    expect(fresh).toContain('"/products"');
    expect(readFileSync(SCHEMA_FILE, 'utf8') === fresh, 'dashboard/src/api/schema.d.ts is stale: run `npm run dashboard:client`').toBe(true);
  });
});
