import type { AnyOperation } from '../platform/operation';
import { mcpRoutes } from './routes';
import { handleMcpRequest } from './server';

/** The MCP endpoint, offering `tools()` (the operations with a tool name) to agents. */
export const mcpOperations = (tools: () => AnyOperation[]): AnyOperation[] => mcpRoutes(tools, handleMcpRequest);
