import type { PrivacyPart } from '../platform/privacy';
import { withoutEmail } from '../platform/privacy';
import { attemptBodiesRewrite, attemptsMentioningPage, deliveriesMentioningPage, deliveryBodyRewrite } from './repository';

/**
 * The webhook delivery log (30 days): every logged body and answer excerpt that names the buyer,
 * and every delivery that kept its body for a retry or a redelivery, loses the address and the
 * names beside it. A redelivery after that sends the erased body. Not exported: the bodies copy
 * the events, which copy what the other parts export.
 */
const webhookLogPart: PrivacyPart = {
  name: 'webhookLog',
  async erase(deps, scope, subject) {
    let cursor: string | undefined;
    do {
      const page = await attemptsMentioningPage(deps.store, scope, subject.email, cursor);
      for (const attempt of page.items) {
        const requestBody = withoutEmail(attempt.requestBody, subject.email);
        const responseBodyExcerpt = attempt.responseBodyExcerpt ? withoutEmail(attempt.responseBodyExcerpt, subject.email) : undefined;
        if (requestBody !== undefined || responseBodyExcerpt !== undefined) {
          await attemptBodiesRewrite(deps.store, scope, attempt.id, {
            ...(requestBody !== undefined ? { requestBody } : {}),
            ...(responseBodyExcerpt !== undefined ? { responseBodyExcerpt } : {}),
          });
        }
      }
      cursor = page.cursor;
    } while (cursor);
    do {
      const page = await deliveriesMentioningPage(deps.store, scope, subject.email, cursor);
      for (const delivery of page.items) {
        const body = delivery.body ? withoutEmail(delivery.body, subject.email) : undefined;
        if (body !== undefined) await deliveryBodyRewrite(deps.store, scope, delivery.id, body);
      }
      cursor = page.cursor;
    } while (cursor);
  },
};

export const webhooksPrivacy: PrivacyPart[] = [webhookLogPart];
