import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';
import { webhookOperations } from '../../shared/webhooks/operations';

export const handler = createApiHandler(webhookOperations, { deps: lambdaDeps });
