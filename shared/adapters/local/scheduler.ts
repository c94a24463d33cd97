import type { Job, SchedulerPort } from '../../platform/ports';
import type { Clock } from '../../platform/clock';
import { KEY_EXISTS, onConditionFailed } from '../../store/conditional';
import type { Store } from '../../store/store';
import { timerEntity, timerNameEntity, type TimerRecord } from './entities';

const timerKey = timerEntity.declaration.key;
const nameKey = timerNameEntity.declaration.key;
/** How long the earliest due time read from the table is trusted (see `earliest`). */
const EARLIEST_TRUSTED_MS = 500;

/**
 * EventBridge Scheduler stand-in: timers are table items sorted by due time, fired by the local
 * clock (both as real time passes and when `POST /_local/clock/advance` jumps ahead).
 */
export class LocalScheduler implements SchedulerPort {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * No timer is due before `dueAtMs` (the earliest one when last read; a timer scheduled since
   * lowers it), learned at `at` (real time). The runtime asks for the next due timer several times
   * per settle and per simulated day; while this holds, it answers without a query. It is trusted
   * for a moment only, since another process on the same table (a crash test's child runtime)
   * schedules without telling this one. Scheduling forgets it (`generation` keeps a read that was
   * under way from bringing it back).
   */
  private earliest?: { dueAtMs: number; at: number };
  private generation = 0;

  async schedule(name: string, at: Date, job: Job): Promise<void> {
    this.forgetEarliest();
    await this.cancel(name);
    const timer: TimerRecord = { name, dueAtMs: at.getTime(), job };
    try {
      await this.store.transact([
        { put: timerEntity.item(timerKey(timer.dueAtMs, name), timer) },
        { put: timerNameEntity.item(nameKey(name), { name, dueAtMs: timer.dueAtMs }) },
      ]);
    } finally {
      // Again once written: a read that began before the write landed may have missed the timer.
      this.forgetEarliest();
    }
  }

  private forgetEarliest() {
    this.earliest = undefined;
    this.generation++;
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
    if (this.earliest && nowMs < this.earliest.dueAtMs && Date.now() - this.earliest.at < EARLIEST_TRUSTED_MS) return undefined;
    const learnedAt = Date.now();
    const generation = this.generation;
    const page = await timerEntity.query(this.store, 'due', [], { limit: 1 });
    const item = page.items[0];
    if (generation === this.generation) this.earliest = { dueAtMs: item?.dueAtMs ?? Number.POSITIVE_INFINITY, at: learnedAt };
    return item && item.dueAtMs <= nowMs ? { name: item.name, dueAtMs: item.dueAtMs, job: item.job } : undefined;
  }

  /** Removes the timer before its job runs, so it fires once even if two loops race for it. */
  async claim(timer: TimerRecord): Promise<boolean> {
    return onConditionFailed(
      this.store.transact([{ delete: timerKey(timer.dueAtMs, timer.name), condition: KEY_EXISTS }, { delete: nameKey(timer.name) }]).then(() => true),
      () => false,
    );
  }
}
