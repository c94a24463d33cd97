/**
 * Access-pattern table rows that no entity declaration renders yet. Hand-kept; everything else in
 * access-patterns.ts is rendered from the `entities.ts` declarations (scripts/access-patterns.ts).
 *
 * - KEY_SHAPES: the shapes of keys.ts, for reading the table.
 * - NOT_YET_DECLARED: rows whose keys are not declared next to their code yet; each moves into an
 *   `entities.ts` next to its repository.
 */
import type { AccessPatternRow } from './entity';

export const KEY_SHAPES: AccessPatternRow[] = [
  { name: 'Get a record of a kind', key: 'PK=<scope>#<TYPE>, SK=<id>', index: 'table' },
  { name: 'List records of a kind, newest first', key: 'PK=<scope>#<TYPE>, ScanIndexForward=false', index: 'table' },
  { name: 'Children of a record', key: 'PK=<scope>#<PARENT>#<parentId>#<TYPE>', index: 'table' },
  { name: 'Exact-match lookup / uniqueness guard', key: 'PK=<scope>#U#<name>, SK=<value>', index: 'table' },
  { name: 'Capability token lookup (portal, hosted checkout)', key: 'PK=CAP#<kind>#<token>, SK=CAP', index: 'table' },
  {
    name: 'Processed marker of an earlier release (read for events older than the layout switch)',
    key: 'PK=DONE#<consumer>, SK=<id>',
    index: 'table',
    notes: 'no longer written; TTL up to 30 days (platform/markers.ts)',
  },
  { name: 'When the table took a key layout', key: 'PK=LAYOUT, SK=<layout>', index: 'table', notes: 'written once; read once per container' },
];

export const NOT_YET_DECLARED: AccessPatternRow[] = [];
