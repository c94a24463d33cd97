import { translator, type Translator } from '../../platform/i18n/translator';

/**
 * The card fields of the sandbox's hosted page, checked as a card form would check them before
 * the sandbox decides what the number does: a number of 12 to 19 digits, an expiry month that has
 * not passed, and a 3 or 4 digit security code. Pure, so the rules are tested without a page.
 */
export interface CardInput {
  cardNumber?: string;
  expiry?: string;
  cvc?: string;
}

export type CardErrors = Partial<Record<keyof CardInput, string>>;

export function checkCard(input: CardInput, now: Date, t: Translator = translator('en')): { number?: string; errors: CardErrors } {
  const errors: CardErrors = {};
  const number = (input.cardNumber ?? '').replace(/[\s-]/g, '');
  if (!number) errors.cardNumber = t.t('card.enterNumber');
  else if (!/^\d{12,19}$/.test(number)) errors.cardNumber = t.t('card.numberDigits');
  const expiry = (input.expiry ?? '').replace(/\s/g, '');
  const match = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(expiry);
  if (!expiry) errors.expiry = t.t('card.enterExpiry');
  else if (!match || Number(match[1]) < 1 || Number(match[1]) > 12) errors.expiry = t.t('card.expiryFormat');
  else {
    const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
    const month = Number(match[1]);
    if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) errors.expiry = t.t('card.expired');
  }
  const cvc = (input.cvc ?? '').trim();
  if (!cvc) errors.cvc = t.t('card.enterCvc');
  else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = t.t('card.cvcDigits');
  return Object.keys(errors).length ? { errors } : { number, errors };
}
