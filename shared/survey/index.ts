import { defineCapability } from '../platform/capability';
import { surveyRefundsConsumer } from './consumers';
import { surveyOperations } from './operations';

/** The post-purchase attribution survey ("how did you hear about us?") and its report. */
export const survey = defineCapability({
  name: 'survey',
  operations: surveyOperations,
  consumers: [surveyRefundsConsumer],
});
