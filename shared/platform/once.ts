/**
 * A value built on its first use and kept for the container's life. For what costs at import and
 * is not needed by every cold start: an API function's operation schemas (zod builds each schema
 * object and its checks when it is declared; 40-120 of them took 4-5 ms of a cold import), which
 * only the requests that reach their operations parse with.
 */
export function once<T>(build: () => T): () => T {
  let value: { built: T } | undefined;
  return () => {
    value ??= { built: build() };
    return value.built;
  };
}
