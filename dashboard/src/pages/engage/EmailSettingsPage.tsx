import { Alert, Badge, Button, Group, Paper, Select, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { unwrap, type JsonAnswer } from '../../api/client';
import { PageHeader } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import type { PageDefinition } from '../types';

type Settings = JsonAnswer<'getNewsletterSettings'>;

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

function SettingsForm({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const [values, setValues] = useState({
    senderEmail: settings.senderEmail ?? '',
    fromName: settings.fromName ?? '',
    replyTo: settings.replyTo ?? '',
    physicalAddress: settings.physicalAddress ?? '',
    footerText: settings.footerText ?? '',
    checkoutOptInWording: settings.checkoutOptInWording,
  });
  const [optIn, setOptIn] = useState<Settings['checkoutOptIn']>(settings.checkoutOptIn);
  const [saleNotifications, setSaleNotifications] = useState(settings.saleNotifications);
  const [saved, setSaved] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: any edit clears the "saved" note
  useEffect(() => setSaved(false), [values, optIn, saleNotifications]);
  const save = useMutation((api, body: typeof values) =>
    unwrap(
      api.PUT('/newsletters/settings', {
        body: {
          ...(body.senderEmail.trim() ? { senderEmail: body.senderEmail.trim() } : {}),
          fromName: orNull(body.fromName),
          replyTo: orNull(body.replyTo),
          physicalAddress: orNull(body.physicalAddress),
          footerText: orNull(body.footerText),
          checkoutOptIn: optIn,
          checkoutOptInWording: orNull(body.checkoutOptInWording),
          saleNotifications,
        },
      }),
    ),
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await save.run(values);
    if (answer) {
      onSaved(answer);
      setSaved(true);
    }
  };
  const field = (name: keyof typeof values) => ({
    value: values[name],
    onChange: (e: { currentTarget: { value: string } }) => setValues((v) => ({ ...v, [name]: e.currentTarget.value })),
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={560}>
        <TextInput
          label="Sender email"
          type="email"
          description="The address newsletters come from; it must be verified with the mail provider."
          {...field('senderEmail')}
        />
        <TextInput label="From name" {...field('fromName')} />
        <TextInput label="Reply-to" type="email" {...field('replyTo')} />
        <Textarea
          label="Physical address"
          description="Required by anti-spam law before any send; printed in every footer."
          autosize
          minRows={2}
          {...field('physicalAddress')}
        />
        <Textarea label="Footer text" autosize minRows={2} {...field('footerText')} />
        <Select
          label="Newsletter opt-in at checkout"
          description="Buyers get your newsletter only if they opt in. A pre-ticked box is your responsibility where the law asks for an active choice."
          data={[
            { value: 'unchecked', label: 'Show the box, not ticked' },
            { value: 'checked', label: 'Show the box, ticked' },
            { value: 'off', label: 'Do not show the box' },
          ]}
          value={optIn}
          onChange={(v) => v && setOptIn(v as Settings['checkoutOptIn'])}
          allowDeselect={false}
        />
        <TextInput
          label="Opt-in wording"
          description="The words beside the box; kept with each buyer's consent."
          disabled={optIn === 'off'}
          {...field('checkoutOptInWording')}
        />
        <Switch label="Email me about every new sale" checked={saleNotifications} onChange={(e) => setSaleNotifications(e.currentTarget.checked)} />
        <FormError error={save.error} />
        {saved && (
          <Text size="sm" c="green.8" role="status">
            Settings saved.
          </Text>
        )}
        <Group>
          <Button type="submit" loading={save.running}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Sending settings and the sender's verification (domain) status, as the mail provider reports it. */
export function EmailSettingsPage() {
  const query = useQuery((api) => unwrap(api.GET('/newsletters/settings')));
  return (
    <Stack>
      <PageHeader title="Email sending" description="Who newsletters and member emails come from, and what every footer says." />
      <QueryView query={query}>
        {(s) => (
          <>
            <Paper withBorder p="md">
              <Group justify="space-between">
                <Stack gap={2}>
                  <Text fw={600}>Sender {s.senderEmail ?? 'not set'}</Text>
                  <Text size="sm" c="dimmed">
                    Verification status: {s.verificationStatus} · {s.totalEmailsSent} emails sent so far
                  </Text>
                </Stack>
                <Badge color={s.senderVerified ? 'green' : 'orange'} size="lg" variant="light">
                  {s.senderVerified ? 'Verified' : 'Not verified'}
                </Badge>
              </Group>
            </Paper>
            {!s.physicalAddress && (
              <Alert color="yellow" title="No physical address">
                Add a physical address before sending any newsletter.
              </Alert>
            )}
            <SettingsForm settings={s} onSaved={query.set} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const emailSettingsPage: PageDefinition = {
  path: 'email/settings',
  title: 'Email sending',
  area: 'emails',
  group: 'Settings',
  element: <EmailSettingsPage />,
};
