/**
 * The sliding-window counter every limit of the service uses (the per-account request rate, the
 * public signup limit per IP, the team's invite limit): one counter per fixed window, and at a
 * fraction f into window W the estimate allows `limit - count(W-1) * (1 - f)` in W so far. A plain
 * fixed window admits the whole limit at the end of one window and again at the start of the next
 * (2× in a moment); here a burst straddling a boundary by s either side is held to
 * `limit + limit * s / window`. Pure functions: the callers keep the counts in DynamoDB.
 */

export const windowStartOf = (nowMs: number, windowMs: number) => Math.floor(nowMs / windowMs) * windowMs;

/** How many of the current window's admissions the sliding estimate allows at `nowMs`. */
export function slidingAllowance(limit: number, previousCount: number, nowMs: number, windowMs: number): number {
  const left = windowMs - (nowMs - windowStartOf(nowMs, windowMs));
  // In whole milliseconds, so a third of a window weighs exactly a third (no float rounding down).
  return Math.floor((limit * windowMs - previousCount * left) / windowMs);
}

/**
 * Seconds until one more admission fits, for a refusal's Retry-After: the moment the previous
 * window's weight has faded enough, or the window's end (then the current count weighs in turn,
 * so the advice is a lower bound, never a promise).
 */
export function slidingRetryAfterSeconds(limit: number, previousCount: number, currentCount: number, nowMs: number, windowMs: number): number {
  const start = windowStartOf(nowMs, windowMs);
  const end = start + windowMs;
  let at = end;
  if (currentCount < limit && previousCount > 0) {
    // floor(limit - prev * (1 - f)) >= current + 1  ⇔  f >= 1 - (limit - current - 1) / prev
    const fraction = 1 - (limit - currentCount - 1) / previousCount;
    at = Math.min(end, start + Math.max(0, fraction) * windowMs);
  }
  return Math.max(1, Math.ceil((at - nowMs) / 1000));
}
