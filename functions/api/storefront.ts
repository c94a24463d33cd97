import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';
import { storefrontOperations } from '../../shared/storefront/operations';

export const handler = createApiHandler(storefrontOperations, { deps: lambdaDeps });
