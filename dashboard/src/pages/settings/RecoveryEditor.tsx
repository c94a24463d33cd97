import { Button, Card, Group, NumberInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer } from '../../api/client';
import { FormError } from '../../components/states';
import { useMutation } from '../../lib/hooks';
import { formatDate } from '../../lib/money';

type Recovery = JsonAnswer<'getCheckoutRecovery'>;

/** Abandoned-checkout reminders (GET/PUT /checkout/recovery): on or off, after how long, with which code. */
export function RecoveryEditor({ saved, onSaved }: { saved: Recovery; onSaved: (s: Recovery) => void }) {
  const [enabled, setEnabled] = useState(saved.enabled);
  const [delay, setDelay] = useState<number | string>(saved.delayMinutes);
  const [code, setCode] = useState(saved.discountCode ?? '');
  const [done, setDone] = useState(false);
  const save = useMutation((api: Api) =>
    unwrap(api.PUT('/checkout/recovery', { body: { enabled, delayMinutes: Number(delay), discountCode: code.trim() || null } })),
  );
  return (
    <Card withBorder id="recovery">
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
          <NumberInput
            label="Minutes after the checkout opened"
            description="From 30 minutes to 2 days (2880 minutes)"
            min={30}
            max={2880}
            clampBehavior="none"
            step={15}
            allowDecimal={false}
            value={delay}
            onChange={setDelay}
            maw={260}
          />
          <TextInput
            label="Discount code in the reminder (optional)"
            description="An existing code, applied when the buyer comes back"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            maw={360}
          />
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
