import { Badge, Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type JsonAnswer } from '../../api/client';
import { useQuery } from '../../lib/hooks';

type Account = JsonAnswer<'getCurrentUser'>;
type Provider = Account['processors']['live'];

const PROVIDER_WORDS: Record<Provider, { label: string; color: string; note: string }> = {
  stripe: { label: 'Stripe connected', color: 'green', note: 'Payments go to your Stripe account.' },
  sandbox: { label: 'Simulated payments', color: 'orange', note: 'No card is charged: the built-in test processor answers.' },
  none: { label: 'Not connected', color: 'red', note: 'Buyers cannot pay until Stripe is connected.' },
};

/**
 * The payment processor of each mode (GET /users/me tells which; secrets are never shown).
 * Connecting is done once by whoever runs the store's servers, with the admin command below:
 * the key never passes through a browser.
 */
export function PaymentsSection({ account }: { account: Account }) {
  const [checked, setChecked] = useState(0);
  const fresh = useQuery((api) => (checked ? unwrap(api.GET('/users/me')) : Promise.resolve(account)), [checked]);
  const processors = fresh.data?.processors ?? account.processors;
  const liveReady = processors.live === 'stripe';
  return (
    <Card withBorder id="payments">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Payments
        </Title>
        <Table aria-label="Payment processor per mode" withRowBorders={false} maw={560}>
          <Table.Tbody>
            {(['live', 'test'] as const).map((mode) => {
              const words = PROVIDER_WORDS[processors[mode]];
              return (
                <Table.Tr key={mode} data-testid={`processor-${mode}`}>
                  <Table.Th scope="row">{mode === 'live' ? 'Live mode' : 'Test mode'}</Table.Th>
                  <Table.Td>
                    <Badge color={words.color} variant="light">
                      {words.label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{words.note}</Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <Group gap="sm">
          <Button variant="default" size="xs" loading={fresh.loading && checked > 0} onClick={() => setChecked((n) => n + 1)}>
            Check the connection again
          </Button>
          <div role="status" aria-live="polite">
            {checked > 0 && !fresh.loading && (
              <Text size="sm" data-testid="connection-checked">
                {fresh.error
                  ? `Could not check: ${fresh.error.message}`
                  : liveReady
                    ? 'Stripe answers: live payments are ready.'
                    : 'Live payments are not connected to Stripe yet.'}
              </Text>
            )}
          </div>
        </Group>
        {!liveReady && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Connect Stripe
            </Text>
            <Text size="sm">
              In your Stripe dashboard, create a restricted key for this store, then ask whoever runs your servers to store it (it never passes through this
              page):
            </Text>
            <Code block>{`npm run admin -- set-processor --account ${account._id} --mode live --provider stripe --secret-key rk_live_…`}</Code>
            <Text size="sm" c="dimmed">
              It takes effect within a minute; press “Check the connection again” to see it here.
            </Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
