import { defineCapability } from '../platform/capability';
import { eventOperations } from './operations';
import { eventsPrivacy } from './privacy';

/**
 * The account's events: the outbox (written with each change, dispatched to the bus from the
 * table stream by dispatcher.ts) read back through the API, 30 days, one page at a time.
 */
export const events = defineCapability({
  name: 'events',
  build: {
    manifest: { url: import.meta.url, export: 'events' },
    privacy: './privacy#eventsPrivacy',
    operations: './operations#eventOperations',
  },
  operations: eventOperations,
  privacy: eventsPrivacy,
  needs: ['table'],
});
