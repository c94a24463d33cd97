import type { Job, SchedulerPort } from '../../platform/ports';
import type { Clock } from '../../platform/clock';
import { keys } from '../../store/keys';
import { toItem } from '../../store/items';
import { KEY_EXISTS, onConditionFailed } from '../../store/conditional';
import type { Store } from '../../store/store';

interface TimerRecord {
  name: string;
  dueAtMs: number;
  job: Job;
}

/**
 * EventBridge Scheduler stand-in: timers are table items sorted by due time, fired by the local
 * clock (both as real time passes and when `POST /_local/clock/advance` jumps ahead).
 */
export class LocalScheduler implements SchedulerPort {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async schedule(name: string, at: Date, job: Job): Promise<void> {
    await this.cancel(name);
    const timer: TimerRecord = { name, dueAtMs: at.getTime(), job };
    await this.store.transact([
      { put: toItem(keys.timer(timer.dueAtMs, name), 'Timer', timer) },
      { put: toItem(keys.timerByName(name), 'TimerName', { name, dueAtMs: timer.dueAtMs }) },
    ]);
  }

  async cancel(name: string): Promise<void> {
    const pointer = await this.store.get<{ dueAtMs: number }>(keys.timerByName(name), { consistent: true });
    if (!pointer) return;
    await this.store.transact([{ delete: keys.timer(pointer.dueAtMs, name) }, { delete: keys.timerByName(name) }]);
  }

  async has(name: string): Promise<boolean> {
    return !!(await this.store.get(keys.timerByName(name), { consistent: true }));
  }

  /** The earliest timer due at or before `nowMs`, if any. */
  async nextDue(nowMs = this.clock.nowMs()): Promise<TimerRecord | undefined> {
    const page = await this.store.query<TimerRecord & Record<string, unknown>>({
      pk: keys.timersPartition(),
      before: keys.timerDueBefore(nowMs),
      ascending: true,
      limit: 1,
    });
    const item = page.items[0];
    return item ? { name: item.name, dueAtMs: item.dueAtMs, job: item.job } : undefined;
  }

  /** Removes the timer before its job runs, so it fires once even if two loops race for it. */
  async claim(timer: TimerRecord): Promise<boolean> {
    return onConditionFailed(
      this.store.transact([{ delete: keys.timer(timer.dueAtMs, timer.name), condition: KEY_EXISTS }, { delete: keys.timerByName(timer.name) }]).then(() => true),
      () => false,
    );
  }
}
