/**
 * Timing rules of the sheet batch (spec: batch every 2 minutes, sync-now once a minute, a refused
 * batch retried after 1, 2, 4 minutes and so on up to 6 hours apart, Failed after 8 attempts).
 */
export const BATCH_EVERY_MS = 2 * 60_000;
export const SYNC_NOW_EVERY_MS = 60_000;
export const MAX_ATTEMPTS = 8;
export const MAX_RETRY_DELAY_MS = 6 * 3600_000;

/** The next 2-minute boundary strictly after `now`, so every batch of every account lines up. */
export const nextBatchAt = (nowMs: number) => (Math.floor(nowMs / BATCH_EVERY_MS) + 1) * BATCH_EVERY_MS;

/** Delay before the next try after `attempts` refused attempts in a row (1 → 1 min, 2 → 2 min…). */
export const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);

/** True when the refused attempt number `attempts` was the last one: its rows become Failed. */
export const exhausted = (attempts: number) => attempts >= MAX_ATTEMPTS;

/** Seconds a sync-now must wait, or 0 when it may run. */
export const syncNowWaitSeconds = (lastMs: number | undefined, nowMs: number) =>
  lastMs === undefined || nowMs - lastMs >= SYNC_NOW_EVERY_MS ? 0 : Math.ceil((SYNC_NOW_EVERY_MS - (nowMs - lastMs)) / 1000);
