import { salesOperations } from '../../shared/sales/operations';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(salesOperations, { deps: lambdaDeps });
