import type { Capability } from '../../platform/capability';
import { SandboxProcessor } from './sandbox';

/**
 * The sandbox provider (`ports.processorSandbox`). The processor's router (`ports.processor`)
 * sends it every scope without other settings: test mode everywhere, and live mode in the local
 * runtime until Stripe is configured. Apart from the manifest, so that a function which only calls
 * the processor bundles neither the hosted checkout page nor the control routes.
 */
export const ports: NonNullable<Capability['ports']> = {
  processorSandbox: { aws: (deps) => new SandboxProcessor(deps), local: (deps) => new SandboxProcessor(deps) },
};
