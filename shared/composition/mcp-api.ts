import type { Capability } from '../platform/capability';
import type { AnyOperation } from '../platform/operation';
import { toolCatalog } from '../mcp/catalog';
import { mcpOperations } from '../mcp/operations';
import type { ToolEntry } from '../mcp/tool-entry';
import { operationsOf } from './docs-api';

/** The MCP endpoint over every capability's tools, the catalog built from the manifests on first use. */
export const mcpGroup = (capabilities: Capability[]): AnyOperation[] => {
  let catalog: ToolEntry[] | undefined;
  return mcpOperations(() => (catalog ??= toolCatalog(operationsOf(capabilities))));
};
