import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import type { ProcessorSettingsRecord } from './records';

const SETTINGS = 'PROCESSOR_SETTINGS';
export const PROCESSOR_MARKERS = 'processor-ingress';
const settingsKey = (scope: Scope) => keys.entity(scope, SETTINGS, 'current');
const markerKey = (notificationId: string) => keys.processed(PROCESSOR_MARKERS, notificationId);

/** Which processor one account+mode uses, with its secrets encrypted (settings.ts). */
export const processorSettingsEntity = defineEntity<ProcessorSettingsRecord>()({
  entity: 'ProcessorSettings',
  version: 1,
  owner: 'processor',
  key: settingsKey,
  keyArgs: ['scope'],
  patterns: {
    ofTenant: {
      kind: 'get',
      summary: 'Processor settings of a tenant and mode (routing)',
      key: settingsKey,
      args: ['scope'],
      notes: 'secrets encrypted, bound to scope and name',
    },
  },
});

/** A notification's processed marker, written in the same transaction as the change it causes. */
export const processedNotificationEntity = defineEntity<{ notificationId: string; processedAt: number }>()({
  entity: 'ProcessedNotification',
  version: 1,
  owner: 'processor',
  key: markerKey,
  keyArgs: ['notificationId'],
  patterns: {
    byNotification: {
      kind: 'get',
      summary: 'Processor notification processed marker',
      key: markerKey,
      args: ['notificationId'],
      consistent: true,
      notes: 'in the same transaction as the change',
    },
  },
  notes: 'TTL 30 days',
});
