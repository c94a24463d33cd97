/** The local runtime's scheduler timers (EventBridge Scheduler stand-in); local runtime only. */
import type { Job } from '../../platform/ports';
import { defineEntity } from '../../store/entity';
import { keys } from '../../store/keys';

export interface TimerRecord {
  name: string;
  dueAtMs: number;
  job: Job;
}

export const timerEntity = defineEntity<TimerRecord>()({
  entity: 'Timer',
  version: 1,
  owner: 'adapters/local (scheduler)',
  key: keys.timer,
  keyArgs: ['dueAt', 'name'],
  patterns: {
    due: {
      kind: 'query',
      summary: 'Local scheduler: timers due before now',
      partition: () => keys.timersPartition(),
      args: [],
      order: 'oldest first',
      condition: 'SK<=<dueAt>',
      notes: 'local runtime only',
    },
  },
});

export const timerNameEntity = defineEntity<{ name: string; dueAtMs: number }>()({
  entity: 'TimerName',
  version: 1,
  owner: 'adapters/local (scheduler)',
  key: keys.timerByName,
  keyArgs: ['name'],
  patterns: {
    byName: {
      kind: 'get',
      summary: 'Local scheduler: timer by name (cancel, replace)',
      key: keys.timerByName,
      args: ['name'],
      consistent: true,
      notes: 'local runtime only',
    },
  },
});
