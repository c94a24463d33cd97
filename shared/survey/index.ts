import { defineCapability } from '../platform/capability';
import { surveyRefundsConsumer } from './consumers';
import { surveyOperations } from './operations';
import { surveyPrivacy } from './privacy';

/** The post-purchase attribution survey ("how did you hear about us?") and its report. */
export const survey = defineCapability({
  name: 'survey',
  build: {
    manifest: { url: import.meta.url, export: 'survey' },
    privacy: './privacy#surveyPrivacy',
    operations: './operations#surveyOperations',
  },
  operations: surveyOperations,
  privacy: surveyPrivacy,
  consumers: [surveyRefundsConsumer],
});
