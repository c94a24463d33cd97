/**
 * When a send's watchdog looks again. A minute after the send moved on (a worker died: its batch
 * goes back on the queue within a minute), then twice as long each time it finds no progress, up
 * to an hour: a send that cannot move (its batches keep failing, each time re-queued) costs a look
 * an hour rather than one a minute for as long as it is stuck, and a local clock advanced by a
 * month fires it about 750 times rather than 44,640.
 */
export const WATCHDOG_FIRST_SECONDS = 60;
export const WATCHDOG_MAX_SECONDS = 3600;

export interface WatchState {
  /** What the send had done at the last look (batch and count, as the caller spells it). */
  progress: string;
  seconds: number;
}

export function nextWatch(previous: Partial<WatchState> | undefined, progress: string): WatchState {
  if (!previous?.seconds || previous.progress !== progress) return { progress, seconds: WATCHDOG_FIRST_SECONDS };
  return { progress, seconds: Math.min(previous.seconds * 2, WATCHDOG_MAX_SECONDS) };
}

/** True the first time a send is found stuck for the longest wait: the moment to log it as an error. */
export const stalledNow = (previous: Partial<WatchState> | undefined, next: WatchState) =>
  next.seconds === WATCHDOG_MAX_SECONDS && previous?.seconds !== WATCHDOG_MAX_SECONDS;
