import { defineCapability, type PortFactory } from '../platform/capability';
import { processorOperations } from './operations';
import { ProcessorRouter } from './router';

/**
 * `ports.processor` is the router: each account+mode's provider comes from its processor settings.
 * A deployed stack refuses live mode until a provider is configured; the local runtime falls back
 * to the sandbox so the whole product runs on a laptop.
 */
export const processorRouterPort: PortFactory = {
  aws: (deps) => new ProcessorRouter(deps, { unconfiguredLive: 'refuse' }),
  local: (deps) => new ProcessorRouter(deps, { unconfiguredLive: 'sandbox' }),
};

/**
 * The payment processor: its port (port.ts, with the notification types), the router that picks a
 * provider per account and mode, and the signed notification ingress. Providers implement the port
 * as adapters with their own manifest (shared/adapters/processor-sandbox/, processor-stripe/).
 */
export const processor = defineCapability({
  name: 'processor',
  operations: processorOperations,
  needs: ['table', 'queue', 'scheduler'],
  ports: { processor: processorRouterPort },
});
