import * as z from '../../platform/zod';
import { sellerBrand } from '../../account/branding';
import type { SellerBrand } from '../../account/branding';
import { negotiateLocale } from '../../platform/i18n/locales';
import { loadTranslator, type Translator } from '../../platform/i18n/translator';
import type { PageLanguage } from './hosted-checkout';
import type { Deps } from '../../platform/context';
import { ProcessorError } from '../../processor/port';
import { isConditionFailed } from '../../store/conditional';
import { checkCard } from './card-fields';
import type { HostedCheckoutOutcome } from './hosted-checkout';
import { cardUpdateDonePage, cardUpdatePage, type CheckoutPageState } from './page';
import type { SandboxCardUpdate } from './records';
import type { SandboxProcessor } from './sandbox';

type PageDeps = Pick<Deps, 'store' | 'clock' | 'config' | 'ports'>;

const cardForm = z.object({
  cardNumber: z.optional(z.coerce.string().check(z.maxLength(40))),
  expiry: z.optional(z.coerce.string().check(z.maxLength(10))),
  cvc: z.optional(z.coerce.string().check(z.maxLength(10))),
});

/** `?lang=`, Accept-Language, the seller's default, English. */
const pageTranslator = (lang: PageLanguage, brand?: SellerBrand): Promise<Translator> =>
  loadTranslator(negotiateLocale({ query: lang.query, acceptLanguage: lang.acceptLanguage, sellerDefault: brand?.locale }));

const expiredOrMissing = async (
  deps: PageDeps,
  session: SandboxCardUpdate | undefined,
  baseUrl: string,
  lang: PageLanguage,
): Promise<HostedCheckoutOutcome> => {
  const brand = session
    ? await sellerBrand(deps, session.scope, baseUrl)
    : { name: 'Subscription', logoUrl: null, accent: '#1d4ed8', accentText: '#1d4ed8', onAccent: '#ffffff', supportEmail: null };
  const t = await pageTranslator(lang, brand);
  return {
    kind: 'page',
    status: session ? 410 : 404,
    page: cardUpdateDonePage(
      brand,
      baseUrl,
      {
        heading: t.t('recovery.goneTitle'),
        message: t.t('cardUpdate.expired'),
        returnUrl: session?.returnUrl ?? null,
      },
      t,
    ),
  };
};

async function render(
  deps: PageDeps,
  sandbox: SandboxProcessor,
  session: SandboxCardUpdate,
  baseUrl: string,
  status: number,
  state: CheckoutPageState | undefined,
  lang: PageLanguage,
): Promise<HostedCheckoutOutcome> {
  const m = await sandbox.cardUpdateMembership(session);
  const brand = await sellerBrand(deps, session.scope, baseUrl);
  const page = cardUpdatePage(
    brand,
    baseUrl,
    {
      membership: {
        amountCents: m.amountCents,
        currency: m.currency,
        interval: m.interval,
        status: m.status,
        card: m.paymentMethod ? { brand: m.paymentMethod.brand, last4: m.paymentMethod.last4 } : null,
      },
      action: `/processor/sandbox/card-update/${session.id}`,
      returnUrl: session.returnUrl,
      testMode: session.scope.mode === 'test',
      state,
    },
    await pageTranslator(lang, brand),
  );
  return { kind: 'page', status, page };
}

const usable = (deps: PageDeps, session: SandboxCardUpdate | undefined): session is SandboxCardUpdate =>
  Boolean(session && session.status === 'open' && Date.parse(session.validUntil) > deps.clock.now().getTime());

/** GET the card-update page. */
export async function showCardUpdate(
  deps: PageDeps,
  sandbox: SandboxProcessor,
  sessionId: string,
  baseUrl: string,
  lang: PageLanguage = {},
): Promise<HostedCheckoutOutcome> {
  const session = await sandbox.getCardUpdate(sessionId);
  if (!usable(deps, session)) return expiredOrMissing(deps, session, baseUrl, lang);
  return render(deps, sandbox, session, baseUrl, 200, undefined, lang);
}

/** The card-update form post: checks the card fields, saves the card, shows the outcome. */
export async function submitCardUpdate(
  deps: PageDeps,
  sandbox: SandboxProcessor,
  sessionId: string,
  body: Record<string, unknown>,
  baseUrl: string,
  lang: PageLanguage = {},
): Promise<HostedCheckoutOutcome> {
  const session = await sandbox.getCardUpdate(sessionId);
  if (!usable(deps, session)) return expiredOrMissing(deps, session, baseUrl, lang);
  const brand = await sellerBrand(deps, session.scope, baseUrl);
  const t = await pageTranslator(lang, brand);
  const form = cardForm.safeParse(body);
  if (!form.success) return render(deps, sandbox, session, baseUrl, 400, { error: form.error.issues[0]!.message }, lang);
  const card = checkCard(form.data, deps.clock.now(), t);
  if (!card.number) return render(deps, sandbox, session, baseUrl, 400, { fieldErrors: card.errors }, lang);
  let result: { last4: string; retried: boolean };
  try {
    result = await sandbox.updateCard(session.id, card.number);
  } catch (error) {
    if (isConditionFailed(error)) return expiredOrMissing(deps, session, baseUrl, lang);
    if (error instanceof ProcessorError) {
      if (error.code === 'not_found') return expiredOrMissing(deps, session, baseUrl, lang);
      return render(
        deps,
        sandbox,
        session,
        baseUrl,
        error.code === 'declined' ? 402 : 400,
        error.code === 'invalid' ? { fieldErrors: { cardNumber: error.message } } : { error: error.message },
        lang,
      );
    }
    throw error;
  }
  const m = await sandbox.cardUpdateMembership(session);
  const charged = result.retried
    ? m.status === 'active'
      ? t.t('cardUpdate.recharged', { amount: t.money(m.amountCents, m.currency) })
      : t.t('cardUpdate.stillOverdue')
    : t.t('cardUpdate.nextCharge');
  return {
    kind: 'page',
    status: 200,
    page: cardUpdateDonePage(
      brand,
      baseUrl,
      { heading: t.t('cardUpdate.done'), message: `${t.t('cardUpdate.saved', { last4: result.last4 })} ${charged}`, returnUrl: session.returnUrl },
      t,
    ),
  };
}
