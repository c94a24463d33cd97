import type { PrivacyPart } from '../platform/privacy';
import { deleteContact, findContactByEmail } from './service';

/**
 * The buyer's newsletter contact (tags, consent, status, engagement and purchase facts): erased
 * inside the request with the customer, so the subscriber list stops showing it at once. The
 * suppression list (bounces, complaints) keeps its entry: it is what stops mail to the address.
 */
const contactPart: PrivacyPart = {
  name: 'contact',
  immediate: true,
  async *export(deps, scope, subject) {
    const contact = await findContactByEmail(deps, scope, subject.email);
    if (contact) yield [contact];
  },
  async erase(deps, scope, subject) {
    const contact = await findContactByEmail(deps, scope, subject.email);
    if (contact) await deleteContact(deps, scope, contact._id);
  },
};

export const audiencePrivacy: PrivacyPart[] = [contactPart];
