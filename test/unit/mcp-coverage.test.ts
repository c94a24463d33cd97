import { describe, expect, it } from 'vitest';
import { APP } from '../../shared/app';
import { toolCatalog } from '../../shared/mcp/catalog';

const operations = APP.allOperations.map(({ operation }) => operation);
const keyed = operations.filter((op) => op.auth === 'key');

describe('one operation list behind REST, OpenAPI and MCP', () => {
  it('offers every key-authenticated operation as an MCP tool, unless it says why an agent has no use for it', () => {
    const missing = keyed.filter((op) => !op.tool && !op.noTool).map((op) => `${op.operationId} (${op.method} ${op.path})`);
    expect(missing, 'key-authenticated operations without an MCP tool: add `tool`').toEqual([]);
    expect(keyed.filter((op) => op.tool && op.noTool).map((op) => op.operationId)).toEqual([]);
    // The exceptions stay few and named: the MCP endpoint itself and the dashboard's own sign-in.
    expect(
      keyed
        .filter((op) => op.noTool)
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(['getDashboardSession', 'mcpDelete', 'mcpGet', 'mcpPost', 'signOutDashboard']);
  });

  it('gives tools to key-authenticated operations only, each under a unique snake_case name', () => {
    const tools = operations.filter((op) => op.tool);
    expect(tools.filter((op) => op.auth !== 'key').map((op) => op.operationId)).toEqual([]);
    const names = tools.map((op) => op.tool!);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    expect(toolCatalog(operations).length).toBe(keyed.length - 5);
  });
});
