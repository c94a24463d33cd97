import { catalogOperations } from '../../shared/catalog/operations';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(catalogOperations, { deps: lambdaDeps });
