import { creditOperations } from '../../shared/credits/operations';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(creditOperations, { deps: lambdaDeps });
