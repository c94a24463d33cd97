import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { createStreamHandler } from '../../shared/events/stream-handler';

export const handler = createStreamHandler(() => lambdaDeps().ports.bus);
