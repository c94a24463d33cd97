import { badRequest } from '../platform/errors';
import type { Item } from './types';

/** Cursors and expressions the store builds for its calls. Plain functions. */

export const encodeCursor = (key: Item) => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor(cursor: string, pkAttribute: string, pk: string): Item {
  let key: Item;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('Invalid cursor', { field: 'cursor' });
  }
  // A cursor is only valid for the partition it came from: a forged one must never open another
  // tenant's partition.
  if (!key || typeof key !== 'object' || key[pkAttribute] !== pk) throw badRequest('Invalid cursor', { field: 'cursor' });
  return key;
}

export function buildUpdate(set: Record<string, unknown>, remove: string[] = [], add: Record<string, number | Set<string>> = {}) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  let i = 0;
  for (const [field, value] of Object.entries(set)) {
    if (value === undefined) continue;
    names[`#u${i}`] = field;
    values[`:u${i}`] = value;
    sets.push(`#u${i} = :u${i}`);
    i++;
  }
  const removes = remove.map((field) => {
    names[`#u${i}`] = field;
    return `#u${i++}`;
  });
  const adds = Object.entries(add).map(([field, value]) => {
    names[`#u${i}`] = field;
    values[`:u${i}`] = value;
    return `#u${i} :u${i++}`;
  });
  const parts = [];
  if (sets.length) parts.push(`SET ${sets.join(', ')}`);
  if (removes.length) parts.push(`REMOVE ${removes.join(', ')}`);
  if (adds.length) parts.push(`ADD ${adds.join(', ')}`);
  return { expression: parts.join(' '), names, values };
}

export const mergeValues = (a: Record<string, unknown>, b?: Record<string, unknown>) => {
  const merged = { ...a, ...(b ?? {}) };
  return Object.keys(merged).length ? merged : undefined;
};
