import { processorOperations } from '../../shared/processor/operations';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createApiHandler } from '../../shared/platform/http/api-handler';

export const handler = createApiHandler(processorOperations, { deps: lambdaDeps });
