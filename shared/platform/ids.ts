import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from './clock';

// A 24-hex id laid out like a MongoDB ObjectId: 4 bytes of seconds, 5 random bytes fixed per
// process, 3 bytes of counter. Ids therefore sort by creation time, which lets a DynamoDB sort
// key of ids list records newest first with no extra attribute.
const processBytes = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

export function objectId(clock: Clock): string {
  const seconds = Math.floor(clock.nowMs() / 1000);
  counter = (counter + 1) % 0xffffff;
  return seconds.toString(16).padStart(8, '0') + processBytes + counter.toString(16).padStart(6, '0');
}

export const OBJECT_ID = /^[0-9a-f]{24}$/;
export const isObjectId = (value: string) => OBJECT_ID.test(value);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Unbiased random base62 text, for keys and tokens that people copy around. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Processor-style ids keep a type prefix: sub_, plan_, pay_, mem_, payt_. */
export const prefixedId = (prefix: string) => `${prefix}_${randomBase62(24)}`;

export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * A request's id (24 hex). Drawn from randomUUID, which hands out a pre-filled entropy buffer:
 * `randomBytes` per request was a visible share of a local read's CPU (docs/performance.md).
 */
export const requestId = () => randomUUID().replaceAll('-', '').slice(0, 24);
