import { describe, expect, it } from 'vitest';
import { nextWatch, stalledNow, WATCHDOG_FIRST_SECONDS, WATCHDOG_MAX_SECONDS } from '../../shared/platform/watchdog';

describe('a send watchdog', () => {
  it('looks a minute after progress, doubles while none to an hour, and flags the stall once', () => {
    let watch = nextWatch(undefined, '0:0');
    expect(watch).toEqual({ progress: '0:0', seconds: WATCHDOG_FIRST_SECONDS });
    const waits: number[] = [];
    let stalls = 0;
    for (let look = 0; look < 10; look++) {
      const next = nextWatch(watch, '0:0');
      if (stalledNow(watch, next)) stalls++;
      watch = next;
      waits.push(watch.seconds);
    }
    expect(waits).toEqual([120, 240, 480, 960, 1920, 3600, 3600, 3600, 3600, 3600]);
    expect(stalls).toBe(1);
    // Progress (a batch committed): back to a minute.
    expect(nextWatch(watch, '1:200')).toEqual({ progress: '1:200', seconds: WATCHDOG_FIRST_SECONDS });
    // A job armed by the release before (no state) starts at a minute.
    expect(nextWatch({}, '3:600').seconds).toBe(WATCHDOG_FIRST_SECONDS);
  });

  it('fires about 750 times over a simulated month with no progress, not 44,640', () => {
    let watch = nextWatch(undefined, 'x');
    let elapsed = 0;
    let looks = 0;
    while (elapsed < 31 * 86_400) {
      elapsed += watch.seconds;
      looks++;
      watch = nextWatch(watch, 'x');
    }
    expect(looks).toBeLessThan(760);
    expect(watch.seconds).toBe(WATCHDOG_MAX_SECONDS);
  });
});
