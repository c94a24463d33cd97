import type { AnyOperation } from '../platform/operation';
import { mcpRoutes } from './routes';
import { handleMcpRequest } from './server';
import type { ToolEntry } from './tool-entry';

/** The MCP endpoint, offering the tools of `catalog()` to agents. */
export const mcpOperations = (catalog: () => ToolEntry[]): AnyOperation[] => mcpRoutes(catalog, handleMcpRequest);
