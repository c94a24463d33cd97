/**
 * Group commit: many concurrent callers' writes go out as one batch request. A batch leaves at
 * once when fewer than `inFlight` are under way; otherwise the writes wait for one to come back
 * and leave together (at most `max` per request). A lone caller waits for nothing; under load the
 * batches grow by themselves, so a busy worker makes fewer, larger requests. Each caller's promise
 * settles with its own write's result, or rejects with the batch's error (nothing is dropped: a
 * caller that sees the error did not get its write).
 */
export function groupCommit<T, R>(send: (items: T[]) => Promise<R[]>, options: { max: number; inFlight: number }): (item: T) => Promise<R> {
  const waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  let running = 0;
  const pump = () => {
    while (running < options.inFlight && waiting.length) {
      const batch = waiting.splice(0, options.max);
      running++;
      send(batch.map((entry) => entry.item))
        .then(
          (results) => {
            for (const [i, entry] of batch.entries()) entry.resolve(results[i]!);
          },
          (error) => {
            for (const entry of batch) entry.reject(error);
          },
        )
        .finally(() => {
          running--;
          pump();
        });
    }
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      // Callers of the same turn (a batch of messages handled together) share the first request.
      if (waiting.length === 1) queueMicrotask(pump);
    });
}

/** One group commit per store (or other owner), made on first use. */
export function perOwner<O extends object, F>(make: (owner: O) => F): (owner: O) => F {
  const made = new WeakMap<O, F>();
  return (owner) => {
    let found = made.get(owner);
    if (!found) {
      found = make(owner);
      made.set(owner, found);
    }
    return found;
  };
}
