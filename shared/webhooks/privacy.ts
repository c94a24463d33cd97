import type { Deps } from '../platform/context';
import type { PrivacyPart } from '../platform/privacy';
import type { Scope } from '../store/keys';
import { withoutEmail } from '../platform/privacy';
import {
  attemptBodiesRewrite,
  attemptPartitions,
  attemptsMentioningPage,
  deliveriesMentioningPage,
  deliveryBodyRewrite,
  deliveryPartitions,
} from './erasure-repository';

/**
 * The webhook delivery log (30 days): every logged body and answer excerpt that names the buyer,
 * and every delivery that kept its body for a retry or a redelivery, loses the address and the
 * names beside it. A redelivery after that sends the erased body. Not exported: the bodies copy
 * the events, which copy what the other parts export.
 */
const webhookLogPart: PrivacyPart = {
  name: 'webhookLog',
  async erase(deps, scope, subject) {
    // Every write shard, and the partition releases before sharding wrote.
    for (const partition of attemptPartitions(scope)) await eraseAttempts(deps, scope, partition, subject.email);
    for (const partition of deliveryPartitions(scope)) await eraseDeliveries(deps, scope, partition, subject.email);
  },
};

async function eraseAttempts(deps: Deps, scope: Scope, partition: string, email: string) {
  let cursor: string | undefined;
  do {
    const page = await attemptsMentioningPage(deps.store, partition, email, cursor);
    for (const attempt of page.items) {
      const requestBody = withoutEmail(attempt.requestBody, email);
      const responseBodyExcerpt = attempt.responseBodyExcerpt ? withoutEmail(attempt.responseBodyExcerpt, email) : undefined;
      if (requestBody !== undefined || responseBodyExcerpt !== undefined) {
        await attemptBodiesRewrite(deps.store, scope, attempt.id, {
          ...(requestBody !== undefined ? { requestBody } : {}),
          ...(responseBodyExcerpt !== undefined ? { responseBodyExcerpt } : {}),
        });
      }
    }
    cursor = page.cursor;
  } while (cursor);
}

async function eraseDeliveries(deps: Deps, scope: Scope, partition: string, email: string) {
  let cursor: string | undefined;
  do {
    const page = await deliveriesMentioningPage(deps.store, partition, email, cursor);
    for (const delivery of page.items) {
      const body = delivery.body ? withoutEmail(delivery.body, email) : undefined;
      if (body !== undefined) await deliveryBodyRewrite(deps.store, scope, delivery.id, body);
    }
    cursor = page.cursor;
  } while (cursor);
}

export const webhooksPrivacy: PrivacyPart[] = [webhookLogPart];
