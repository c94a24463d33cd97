import type { Capability } from '../platform/capability';
import { ProcessorRouter } from './router';

/**
 * `ports.processor` is the router: each account+mode's provider comes from its processor settings.
 * A deployed stack refuses live mode until a real provider is configured, and never lets the
 * sandbox serve it; the local runtime falls back to the sandbox so the whole product runs on a
 * laptop. Apart from the manifest, so that a function
 * which only calls the processor bundles none of its operations.
 */
export const ports: NonNullable<Capability['ports']> = {
  processor: {
    aws: (deps) => new ProcessorRouter(deps, { unconfiguredLive: 'refuse', sandboxLive: false }),
    local: (deps) => new ProcessorRouter(deps, { unconfiguredLive: 'sandbox', sandboxLive: true }),
  },
};
