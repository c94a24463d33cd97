/** The clock port. Domain code reads time only through this, never from Date.now(). */
export interface Clock {
  now(): Date;
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  nowMs: () => Date.now(),
};

/**
 * A clock that runs with real time plus an offset the local runtime can move forward, so a
 * developer can jump days ahead and watch timers fire (`POST /_local/clock/advance`).
 */
export class OffsetClock implements Clock {
  /** `offsetMs`: where a previous run of the same data left the clock (time never runs back). */
  constructor(private offsetMs = 0) {}

  get offset(): number {
    return this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  advance(seconds: number): Date {
    this.offsetMs += Math.round(seconds * 1000);
    return this.now();
  }

  /** Moves forward to `ms` (never back: time only runs one way). */
  moveTo(ms: number): Date {
    const delta = ms - this.nowMs();
    if (delta > 0) this.offsetMs += delta;
    return this.now();
  }
}

export const unixSeconds = (clock: Clock) => Math.floor(clock.nowMs() / 1000);
export const isoNow = (clock: Clock) => clock.now().toISOString();
