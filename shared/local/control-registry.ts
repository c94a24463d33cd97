import type { Deps } from '../platform/context';
import type { LocalAdapters } from '../adapters/local/index';
import type { OffsetClock } from '../platform/clock';
import { PROCESSOR_CONTROL_ROUTES } from '../processor/control';

/** What a control route can reach inside the running local runtime. */
export interface LocalRuntimeHandle {
  deps: Deps;
  adapters: LocalAdapters;
  clock: OffsetClock;
  baseUrl: string;
  settle(): Promise<void>;
  /** Moves the clock forward, stopping at each timer on the way so it fires at its own time. */
  advance(seconds: number): Promise<Date>;
}

export interface ControlRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  handle(runtime: LocalRuntimeHandle, input: { params: Record<string, string>; query: Record<string, string>; body: Record<string, unknown> }): Promise<{ status: number; body?: unknown }>;
}

/**
 * Control routes that belong to a capability (paying a hosted checkout, renewing a subscriber)
 * register here from that capability's own module; the runtime serves them under /_local.
 */
export const CAPABILITY_CONTROL_ROUTES: ControlRoute[] = [...PROCESSOR_CONTROL_ROUTES];
