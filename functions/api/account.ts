import { accountOperations } from '../../shared/account/operations';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(accountOperations, { deps: lambdaDeps });
