import type { Deps } from '../platform/context';
import type { WorkTracker } from './local/work-tracker';
import { processorExtension } from '../processor/adapter';

/** What the local runtime offers a port built for it. */
export interface LocalHost {
  /** Base address of the running local API. */
  baseUrl(): string;
  work: WorkTracker;
  /** Folder for persistent local files; undefined with --memory. */
  dataDir?: string;
}

/**
 * Ports that belong to one capability (the payment processor, the spreadsheet provider) register
 * their AWS and local factories here, and declare their field on `Ports` by declaration merging in
 * their own module. Core ports are built by aws/index.ts and local/index.ts directly.
 */
export interface PortExtension {
  aws(deps: Deps): unknown;
  local(deps: Deps, host: LocalHost): unknown;
}

export const PORT_EXTENSIONS: Record<string, PortExtension> = {
  processor: processorExtension,
};
