import type { PortFactory } from '../platform/capability';
import { SandboxProcessor } from './sandbox';

/**
 * The processor port's factories. The sandbox serves test mode in every deployment and everything
 * in the local runtime; no live adapter ships yet, so AWS uses the sandbox for both modes.
 */
export const processorPortFactory: PortFactory = {
  aws: (deps) => new SandboxProcessor(deps),
  local: (deps) => new SandboxProcessor(deps),
};
