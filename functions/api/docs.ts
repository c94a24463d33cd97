import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { docsOperations } from '../../shared/docs/operations';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(docsOperations, { deps: lambdaDeps });
