import { docsOperations } from './docs/operations';
import { mcpOperations } from './mcp/operations';
import { API_GROUPS, type ApiGroup } from './registry';

/** Every group that gets a function and routes: the capability groups plus docs and MCP. */
export const ALL_GROUPS: ApiGroup[] = [...API_GROUPS, { name: 'docs', operations: docsOperations, needs: [] },
  // The MCP function runs every tool, so it may touch whatever any group may.
  { name: 'mcp', operations: mcpOperations, needs: ['table', 'queue', 'scheduler', 'blob', 'encryption', 'email'] },
];

export const allOperations = () => ALL_GROUPS.flatMap((group) => group.operations.map((operation) => ({ group: group.name, operation })));
