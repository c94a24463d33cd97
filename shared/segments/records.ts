import type { StoredCount } from './counts';
import type { Definition } from './rules';

/** A saved rule set of one account and mode. */
export interface SegmentRecord {
  _id: string;
  name: string;
  description: string | null;
  definition: Definition;
  /** Tag applied to every member by the nightly refresh; one segment per tag. */
  smartTag: string | null;
  /** When the nightly refresh last finished walking the contacts for the smart tag. */
  smartTagRefreshedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const SEGMENT = 'SEGMENT';
export const SEGMENT_SMART_TAG = 'SEGMENT_SMART_TAG';

/** A segment's count as of an instant (`at`), kept so a count reads one item (counts.ts). */
export interface SegmentCountRecord extends StoredCount {
  segmentId: string;
  /** The segment's `updatedAt` it was computed for: a changed definition makes it unusable. */
  version: string;
  at: string;
}

export const SEGMENT_COUNT = 'SEGMENT_COUNT';
