import { subscriberOperations } from '../../shared/subscriptions/operations';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(subscriberOperations, { deps: lambdaDeps });
