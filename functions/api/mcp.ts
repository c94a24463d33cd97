import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { mcpOperations } from '../../shared/mcp/operations';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(mcpOperations, { deps: lambdaDeps });
