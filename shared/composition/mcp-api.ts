import type { Capability } from '../platform/capability';
import type { AnyOperation } from '../platform/operation';
import { mcpOperations } from '../mcp/operations';
import { operationsOf } from './docs-api';

/** The MCP function: every capability's tools, through the official SDK (only this function carries it). */
export const mcpGroup = (capabilities: Capability[]): AnyOperation[] => {
  const api = operationsOf(capabilities);
  return mcpOperations(() => api);
};
