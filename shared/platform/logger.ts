import { Logger } from '@aws-lambda-powertools/logger';

/** One logger per process; the level comes from POWERTOOLS_LOG_LEVEL (WARN in tests). */
export const logger = new Logger({ serviceName: 'creator-commerce' });
