import type { ProductRecord } from '../catalog/records';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import type { Deps } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { objectId, prefixedId } from '../platform/ids';
import { consumeRequest } from '../platform/rate-limit';
import type { Scope } from '../store/keys';
import { isConditionFailed } from '../store/conditional';
import type { TransactOp } from '../store/store';
import { effectiveStatus, INSTANCE_PATTERN, keyHash, keyPrefix, newLicenseKey, normalizeKey, type LicenseStatus } from './keys';
import type { LicenseRecord } from './records';
import * as repo from './repository';

/**
 * Public routes, per minute: per caller address half the account request limit (300 at the
 * default 600; an office behind one address starts many apps), per key a tenth (60: an app checks
 * at start, not in a loop). Scaled with RATE_LIMIT_PER_MINUTE so a deployment that raises one
 * raises both.
 */
export const perIpPerMinute = (config: Deps['config']) => Math.max(1, Math.floor(config.RATE_LIMIT_PER_MINUTE / 2));
export const perKeyPerMinute = (config: Deps['config']) => Math.max(1, Math.floor(config.RATE_LIMIT_PER_MINUTE / 10));

const cipherContext = (scope: Scope, id: string) => ({ purpose: 'license-key', accountId: scope.accountId, mode: scope.mode, licenseId: id });

const eventBlock = (l: LicenseRecord, nowMs: number) => ({
  id: l._id,
  prefix: l.prefix,
  productId: l.productId,
  orderId: l.orderId,
  status: effectiveStatus(l, nowMs),
  activationLimit: l.activationLimit,
  activations: l.activations,
  expiresAt: l.endsAt,
});

/** What the seller sees of a licence (the key itself only on the order's read). */
export const presentLicense = (l: LicenseRecord, nowMs: number) => ({
  _id: l._id,
  prefix: l.prefix,
  productId: l.productId,
  productName: l.productName,
  orderId: l.orderId,
  customerEmail: l.customerEmail,
  status: effectiveStatus(l, nowMs),
  activationLimit: l.activationLimit,
  activations: l.activations,
  expiresAt: l.endsAt,
  testMode: l.scope.mode === 'test',
  createdAt: l.createdAt,
  updatedAt: l.updatedAt,
});

/** What a buyer's app sees. */
const publicLicense = (l: LicenseRecord, nowMs: number) => ({
  status: effectiveStatus(l, nowMs),
  activationLimit: l.activationLimit,
  activations: l.activations,
  expiresAt: l.endsAt,
  productName: l.productName,
});

// ---- issuing (checkout completion) ----

/**
 * A new key for one product of a paid order: the licence write and its `license.created` event,
 * for the completion's own transaction (the key exists if and only if the order does).
 */
export async function licenseForOrder(
  deps: Pick<Deps, 'clock' | 'ports'>,
  scope: Scope,
  input: { product: ProductRecord; orderId: string; email: string; now: string },
): Promise<{ ops: TransactOp[]; events: DomainEvent[] }> {
  const settings = input.product.licenseKeys;
  if (!settings?.enabled) return { ops: [], events: [] };
  const key = newLicenseKey();
  const id = objectId(deps.clock);
  const license: LicenseRecord = {
    _id: id,
    scope,
    keyHash: keyHash(key),
    prefix: keyPrefix(key),
    keyCiphertext: await deps.ports.encryption.encrypt(key, cipherContext(scope, id)),
    productId: input.product._id,
    productName: input.product.name,
    orderId: input.orderId,
    customerEmail: input.email,
    status: 'active',
    activationLimit: settings.activationLimit,
    activations: 0,
    endsAt: settings.expiresInDays ? new Date(Date.parse(input.now) + settings.expiresInDays * 86_400_000).toISOString() : null,
    createdAt: input.now,
    updatedAt: input.now,
  };
  const event = newEvent(scope, deps.clock, 'license.created', { license: eventBlock(license, Date.parse(input.now)), customer: { email: input.email } });
  return { ops: [repo.licensePut(license)], events: [event] };
}

/** The keys of an order in full, with their status (order read, thank-you page, receipt). */
export async function keysOfOrder(
  deps: Pick<Deps, 'store' | 'clock' | 'ports'>,
  scope: Scope,
  orderId: string,
): Promise<
  { key: string; status: LicenseStatus; licenseId: string; productId: string; activationLimit: number; activations: number; expiresAt: string | null }[]
> {
  // Found through the order's index (eventually consistent), read again by key: a revoke just made shows.
  const listed = await repo.licensesOfOrder(deps.store, scope, orderId);
  const licenses = (await Promise.all(listed.map((l) => repo.licenseByHash(deps.store, l.keyHash)))).filter((l): l is LicenseRecord => Boolean(l));
  const nowMs = deps.clock.nowMs();
  return Promise.all(
    licenses.map(async (l) => ({
      key: await deps.ports.encryption.decrypt(l.keyCiphertext, cipherContext(scope, l._id)),
      status: effectiveStatus(l, nowMs),
      licenseId: l._id,
      productId: l.productId,
      activationLimit: l.activationLimit,
      activations: l.activations,
      expiresAt: l.endsAt,
    })),
  );
}

// ---- public: the seller's app ----

type PublicDeps = Pick<Deps, 'store' | 'clock' | 'config' | 'ports'>;

/** Malformed keys are 400; the per-address and per-key limits apply before any lookup. */
async function admit(deps: PublicDeps, sourceIp: string, key: string): Promise<string> {
  const normalized = normalizeKey(key);
  if (!normalized)
    throw badRequest('key: not a licence key (six groups of five letters and digits, like ABCDE-FGHJK-...)', { field: 'key', code: 'MALFORMED_KEY' });
  const hash = keyHash(normalized);
  await consumeRequest(deps as Deps, `license-ip#${sourceIp}`, perIpPerMinute(deps.config));
  await consumeRequest(deps as Deps, `license-key#${hash}`, perKeyPerMinute(deps.config));
  return hash;
}

const checkInstanceId = (instanceId: string) => {
  if (!INSTANCE_PATTERN.test(instanceId))
    throw badRequest('instanceId: not an instance id (inst_ and 24 letters or digits, as activate answered)', {
      field: 'instanceId',
      code: 'MALFORMED_INSTANCE',
    });
};

export async function activateLicense(deps: PublicDeps, sourceIp: string, input: { key: string; instanceName: string }) {
  const hash = await admit(deps, sourceIp, input.key);
  const license = await repo.licenseByHash(deps.store, hash);
  if (!license) throw notFound('License key');
  const nowMs = deps.clock.nowMs();
  const status = effectiveStatus(license, nowMs);
  if (status !== 'active') throw conflict(`This licence key is ${status} and cannot be activated`, 'LICENSE_NOT_ACTIVE', { status });
  const now = deps.clock.now().toISOString();
  const instance = { id: prefixedId('inst'), licenseId: license._id, name: input.instanceName, createdAt: now };
  const after = { ...license, activations: license.activations + 1 };
  try {
    await deps.store.transact([
      repo.activationTaken(license, now),
      repo.instancePut(license.scope, instance),
      outboxPut(
        newEvent(license.scope, deps.clock, 'license.activated', { license: eventBlock(after, nowMs), instance: { id: instance.id, name: instance.name } }),
      ),
    ]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    throw conflict(
      `This licence key is already activated on ${license.activationLimit} of ${license.activationLimit} allowed instances; deactivate one first`,
      'ACTIVATION_LIMIT_REACHED',
      { activationLimit: license.activationLimit },
    );
  }
  return { activated: true as const, instance: { id: instance.id, name: instance.name }, license: publicLicense(after, nowMs) };
}

/** valid: the key is active (not revoked, refunded or expired) and, when named, the instance is one of its activations. */
export async function validateLicense(deps: PublicDeps, sourceIp: string, input: { key: string; instanceId?: string }) {
  if (input.instanceId !== undefined) checkInstanceId(input.instanceId);
  const hash = await admit(deps, sourceIp, input.key);
  const license = await repo.licenseByHash(deps.store, hash);
  if (!license) return undefined;
  const instance = input.instanceId ? await repo.instanceOf(deps.store, license.scope, license._id, input.instanceId) : undefined;
  const nowMs = deps.clock.nowMs();
  const valid = effectiveStatus(license, nowMs) === 'active' && (!input.instanceId || Boolean(instance));
  return {
    valid,
    license: publicLicense(license, nowMs),
    ...(input.instanceId ? { instance: instance ? { id: instance.id, name: instance.name } : null } : {}),
  };
}

export async function deactivateLicense(deps: PublicDeps, sourceIp: string, input: { key: string; instanceId: string }) {
  checkInstanceId(input.instanceId);
  const hash = await admit(deps, sourceIp, input.key);
  const license = await repo.licenseByHash(deps.store, hash);
  if (!license) throw notFound('License key');
  const now = deps.clock.now().toISOString();
  try {
    await deps.store.transact([repo.instanceDelete(license.scope, license._id, input.instanceId), repo.activationReleased(license, now)]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    throw notFound('Instance');
  }
  return { deactivated: true as const, license: publicLicense({ ...license, activations: license.activations - 1 }, deps.clock.nowMs()) };
}

// ---- seller ----

type SellerDeps = Deps & { scope: Scope };

export async function listLicenses(ctx: SellerDeps, filter: { productId?: string; orderId?: string; limit: number; cursor?: string }) {
  const page = await repo.licensePage(ctx.store, ctx.scope, filter, filter.limit, filter.cursor);
  const nowMs = ctx.clock.nowMs();
  return { data: page.items.map((l) => presentLicense(l, nowMs)), nextCursor: page.cursor ?? null };
}

async function requireLicense(ctx: SellerDeps, id: string) {
  const license = /^[0-9a-f]{24}$/.test(id) ? await repo.licenseById(ctx.store, ctx.scope, id) : undefined;
  if (!license) throw notFound('License');
  return license;
}

/** The seller revokes a key (validate answers valid: false); emits license.revoked. */
export async function revokeLicense(ctx: SellerDeps, id: string) {
  const license = await requireLicense(ctx, id);
  if (license.status === 'revoked') return presentLicense(license, ctx.clock.nowMs());
  if (license.status === 'refunded') throw conflict('This key was revoked by the refund of its order', 'LICENSE_REFUNDED');
  return changeStatus(ctx, license, 'revoked', 'seller');
}

export async function reactivateLicense(ctx: SellerDeps, id: string) {
  const license = await requireLicense(ctx, id);
  if (license.status === 'active') return presentLicense(license, ctx.clock.nowMs());
  if (license.status === 'refunded') throw conflict('The order of this key was refunded; it cannot be reactivated', 'LICENSE_REFUNDED');
  return changeStatus(ctx, license, 'active');
}

async function changeStatus(deps: Deps, license: LicenseRecord, status: LicenseRecord['status'], reason?: 'seller') {
  const now = deps.clock.now().toISOString();
  const after = { ...license, status, updatedAt: now };
  const ops: TransactOp[] = [repo.statusChange(license, status, now)];
  if (status !== 'active')
    ops.push(outboxPut(newEvent(license.scope, deps.clock, 'license.revoked', { license: eventBlock(after, deps.clock.nowMs()), reason })));
  try {
    await deps.store.transact(ops);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    throw conflict('The licence changed while this request ran; try again', 'CONCURRENT_UPDATE');
  }
  return presentLicense(after, deps.clock.nowMs());
}

/**
 * A full refund or a dispute revokes the order's keys: the writes and their `license.revoked`
 * events, for the refund's own transaction (each guarded by the status read, so a seller's change
 * meanwhile fails it and the processor's notification is retried). Keys already refunded are left.
 */
export async function revokeOrderLicensesOps(
  deps: Pick<Deps, 'store' | 'clock'>,
  scope: Scope,
  orderId: string,
  reason: 'refund' | 'dispute',
): Promise<TransactOp[]> {
  const now = deps.clock.now().toISOString();
  const ops: TransactOp[] = [];
  for (const listed of await repo.licensesOfOrder(deps.store, scope, orderId)) {
    const license = await repo.licenseByHash(deps.store, listed.keyHash);
    if (!license || license.status === 'refunded') continue;
    const after = { ...license, status: 'refunded' as const, updatedAt: now };
    ops.push(
      repo.statusChange(license, 'refunded', now),
      outboxPut(newEvent(scope, deps.clock, 'license.revoked', { license: eventBlock(after, deps.clock.nowMs()), reason })),
    );
  }
  return ops;
}
