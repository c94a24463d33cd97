import { defineCapability } from '../platform/capability';
import { surveyRefundsConsumer } from './consumers';
import { surveyOperations } from './operations';

/** The post-purchase attribution survey ("how did you hear about us?") and its report. */
export const survey = defineCapability({
  name: 'survey',
  build: {
    manifest: { url: import.meta.url, export: 'survey' },
    operations: './operations#surveyOperations',
  },
  operations: surveyOperations,
  consumers: [surveyRefundsConsumer],
});
