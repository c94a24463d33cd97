import { defineCapability } from '../platform/capability';
import { platformMailQueue } from './send';

/**
 * The platform's own mails (sign-in links, team invites, buyers' account notices), sent from the
 * platform sender (`-c senderEmail`): `sendPlatformMail` sends at once and hands a refused one to
 * its retry queue (dead-letter queue and alarm in AWS); every refusal is logged and counted.
 */
export const platformMail = defineCapability({
  name: 'platform-mail',
  build: {
    manifest: { url: import.meta.url, export: 'platformMail' },
    workers: { 'platform-mail': './send#platformMailQueue' },
  },
  queues: [platformMailQueue],
});
