import { Button, Card, Group, NumberInput, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer } from '../../api/client';
import { PageHeader } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';

type Recovery = JsonAnswer<'getCheckoutRecovery'>;
type Branding = JsonAnswer<'getBranding'>;
type Locale = NonNullable<Branding['locale']>;

/** Each language by its own name, as buyers see it in the checkout's language menu. */
const LANGUAGES: { value: Locale; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'Français' },
  { value: 'de', label: 'Deutsch' },
  { value: 'es', label: 'Español' },
  { value: 'pt-BR', label: 'Português (Brasil)' },
  { value: 'ja', label: '日本語' },
];

function RecoveryEditor({ saved, onSaved }: { saved: Recovery; onSaved: (s: Recovery) => void }) {
  const [enabled, setEnabled] = useState(saved.enabled);
  const [delay, setDelay] = useState<number | string>(saved.delayMinutes);
  const [code, setCode] = useState(saved.discountCode ?? '');
  const [done, setDone] = useState(false);
  const save = useMutation((api: Api) => unwrap(api.PUT('/checkout/recovery', { body: { enabled, delayMinutes: Number(delay), discountCode: code.trim() || null } })));
  return (
    <Card withBorder>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setDone(false);
          const answer = await save.run();
          if (answer) {
            onSaved(answer);
            setDone(true);
          }
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            Abandoned checkouts
          </Title>
          <Text size="sm">Buyers who gave their email and left without paying get one reminder, in their language, with a link back to their checkout.</Text>
          <Switch label="Send a reminder to buyers who left a checkout" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <NumberInput label="Minutes after the checkout opened" description="From 30 minutes to 2 days (2880 minutes)" min={30} max={2880} clampBehavior="none" step={15} allowDecimal={false} value={delay} onChange={setDelay} maw={260} />
          <TextInput label="Discount code in the reminder (optional)" description="An existing code, applied when the buyer comes back" value={code} onChange={(e) => setCode(e.currentTarget.value)} maw={360} />
          <FormError error={save.error} />
          <div role="status" aria-live="polite">
            {done && <Text size="sm">Saved {formatDate(saved.updatedAt)}.</Text>}
          </div>
          <Group justify="flex-end">
            <Button type="submit" loading={save.running}>
              Save reminders
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function LanguageEditor({ saved, onSaved }: { saved: Branding; onSaved: (s: Branding) => void }) {
  const [locale, setLocale] = useState<Locale | null>(saved.locale);
  const [done, setDone] = useState(false);
  const save = useMutation((api: Api) => unwrap(api.PATCH('/account/branding', { body: { locale } })));
  return (
    <Card withBorder>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setDone(false);
          const answer = await save.run();
          if (answer) {
            onSaved(answer);
            setDone(true);
          }
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            Buyer language
          </Title>
          <Text size="sm">Checkout, receipts and other buyer pages and mails use the buyer's own language when it is one of these; otherwise this one.</Text>
          <Select label="Default language for buyers" placeholder="English" data={LANGUAGES} value={locale} onChange={(v) => setLocale((v as Locale | null) ?? null)} clearable maw={260} />
          <FormError error={save.error} />
          <div role="status" aria-live="polite">
            {done && <Text size="sm">Saved.</Text>}
          </div>
          <Group justify="flex-end">
            <Button type="submit" loading={save.running}>
              Save language
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function CheckoutSettingsPage() {
  const recovery = useQuery((api: Api) => unwrap(api.GET('/checkout/recovery')));
  const branding = useQuery((api: Api) => unwrap(api.GET('/account/branding')));
  return (
    <Stack>
      <PageHeader title="Checkout settings" description="Reminders for abandoned checkouts, and the language buyers see by default." />
      <QueryView query={recovery}>{(saved) => <RecoveryEditor saved={saved} onSaved={recovery.set} />}</QueryView>
      <QueryView query={branding}>{(saved) => <LanguageEditor saved={saved} onSaved={branding.set} />}</QueryView>
    </Stack>
  );
}

export const checkoutSettingsPage: PageDefinition = { path: 'checkout-settings', title: 'Checkout settings', area: 'marketing', group: 'Settings', element: <CheckoutSettingsPage /> };
