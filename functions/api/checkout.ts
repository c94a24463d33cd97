import { checkoutOperations } from '../../shared/checkout/operations';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(checkoutOperations, { deps: lambdaDeps });
