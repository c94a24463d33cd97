import type { Job, SchedulerPort } from '../../platform/ports';
import type { Clock } from '../../platform/clock';
import { keys } from '../../store/keys';
import { KEY_EXISTS, onConditionFailed } from '../../store/conditional';
import type { Store } from '../../store/store';
import { timerEntity, timerNameEntity, type TimerRecord } from './entities';

const timerKey = timerEntity.declaration.key;
const nameKey = timerNameEntity.declaration.key;

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
      { put: timerEntity.item(timerKey(timer.dueAtMs, name), timer) },
      { put: timerNameEntity.item(nameKey(name), { name, dueAtMs: timer.dueAtMs }) },
    ]);
  }

  async cancel(name: string): Promise<void> {
    const pointer = await timerNameEntity.get(this.store, 'byName', name);
    if (!pointer) return;
    await this.store.transact([{ delete: timerKey(pointer.dueAtMs, name) }, { delete: nameKey(name) }]);
  }

  async has(name: string): Promise<boolean> {
    return !!(await timerNameEntity.get(this.store, 'byName', name));
  }

  /** The earliest timer due at or before `nowMs`, if any. */
  async nextDue(nowMs = this.clock.nowMs()): Promise<TimerRecord | undefined> {
    const page = await timerEntity.query(this.store, 'due', [], { before: keys.timerDueBefore(nowMs), limit: 1 });
    const item = page.items[0];
    return item ? { name: item.name, dueAtMs: item.dueAtMs, job: item.job } : undefined;
  }

  /** Removes the timer before its job runs, so it fires once even if two loops race for it. */
  async claim(timer: TimerRecord): Promise<boolean> {
    return onConditionFailed(
      this.store.transact([{ delete: timerKey(timer.dueAtMs, timer.name), condition: KEY_EXISTS }, { delete: nameKey(timer.name) }]).then(() => true),
      () => false,
    );
  }
}
