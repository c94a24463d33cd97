import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure } from '../api/client';
import { useApi } from '../session';
import type { Api } from '../api/client';

export interface Query<T> {
  data: T | undefined;
  error: ApiFailure | null;
  loading: boolean;
  reload(): void;
  /** Replaces the shown data (after a write whose answer is the new state). */
  set(data: T): void;
}

const asFailure = (error: unknown) =>
  error instanceof ApiFailure ? error : new ApiFailure(0, { message: error instanceof Error ? error.message : String(error) });

/** Runs `load(api)` when the page opens and whenever `deps` change; a stale answer is dropped. */
export function useQuery<T>(load: (api: Api) => Promise<T>, deps: unknown[] = []): Query<T> {
  const api = useApi();
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiFailure | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `deps` are the caller's inputs of `load`; a new `load` closure each render must not reload
  useEffect(() => {
    let live = true;
    setLoading(true);
    setError(null);
    load(api).then(
      (value) => {
        if (!live) return;
        setData(value);
        setLoading(false);
      },
      (failure) => {
        if (!live) return;
        setError(asFailure(failure));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [api, tick, ...deps]);
  return { data, error, loading, reload: useCallback(() => setTick((t) => t + 1), []), set: setData };
}

export interface Mutation<A extends unknown[], T> {
  run(...args: A): Promise<T | undefined>;
  running: boolean;
  error: ApiFailure | null;
  reset(): void;
}

/** A write: `running` while in flight, `error` carries the API's 4xx reason; nothing is assumed optimistically. */
export function useMutation<A extends unknown[], T>(write: (api: Api, ...args: A) => Promise<T>): Mutation<A, T> {
  const api = useApi();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<ApiFailure | null>(null);
  const writeRef = useRef(write);
  writeRef.current = write;
  const run = useCallback(
    async (...args: A) => {
      setRunning(true);
      setError(null);
      try {
        return await writeRef.current(api, ...args);
      } catch (failure) {
        setError(asFailure(failure));
        return undefined;
      } finally {
        setRunning(false);
      }
    },
    [api],
  );
  return { run, running, error, reset: useCallback(() => setError(null), []) };
}
