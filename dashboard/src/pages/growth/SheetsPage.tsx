import { Alert, Anchor, Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { type ApiFailure, unwrap, type Api, type JsonAnswer } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { attempt } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Sync = JsonAnswer<'getSheetsSync'>;

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Card withBorder padding="sm">
      <Text size="sm">{label}</Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </Card>
  );
}

export function SheetsPage() {
  const { api } = useSession();
  const query = useQuery((a: Api) => unwrap(a.GET('/sheets-sync')));
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [spreadsheetId, setSpreadsheetId] = useState('');
  const [days, setDays] = useState<string | null>('30');
  const act = async (name: string, write: () => Promise<string | void>) => {
    setBusy(name);
    setError(null);
    setNotice(null);
    try {
      const said = await write();
      if (said) setNotice(said);
      query.reload();
    } catch (failure) {
      setError(failure as ApiFailure);
    } finally {
      setBusy(null);
    }
  };
  const connect = () =>
    act('connect', async () => {
      const { url } = await unwrap(api.POST('/sheets-sync/connect'));
      window.location.assign(url);
    });
  return (
    <Stack>
      <PageHeader title="Google Sheets" description="Every sale and customer written to a spreadsheet you own, kept in sync." />
      <QueryView query={query}>
        {(sync: Sync) => (
          <Stack>
            {!sync.entitlement.allowed && (
              <Alert color="yellow" title="Plan">
                Spreadsheet sync needs the {sync.entitlement.requiredPlan} plan.
              </Alert>
            )}
            <Group>
              <Text size="sm">Status</Text>
              <span data-testid="sheets-status">
                <StatusBadge status={sync.status} />
              </span>
              {sync.pausedReason && <Text size="sm">paused: {sync.pausedReason.replace(/_/g, ' ')}</Text>}
            </Group>
            <div role="status" aria-live="polite">
              {notice && <Alert color="green">{notice}</Alert>}
            </div>
            <FormError error={error} />
            {sync.lastError && (
              <Alert color="red" title="Last error">
                {sync.lastError}
              </Alert>
            )}
            {sync.connected ? (
              <>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <Figure label="Rows synced" value={sync.counts.synced} />
                  <Figure label="Waiting" value={sync.counts.pending} />
                  <Figure label="Failed" value={sync.counts.failed} />
                </SimpleGrid>
                <Text size="sm">
                  Spreadsheet:{' '}
                  {sync.spreadsheet ? (
                    <Anchor href={sync.spreadsheet.url} target="_blank" rel="noopener">
                      {sync.spreadsheet.title}
                    </Anchor>
                  ) : (
                    'not chosen yet'
                  )}{' '}
                  · last synced {formatDate(sync.lastSyncedAt)}
                  {sync.nextAttemptAt ? ` · next attempt ${formatDate(sync.nextAttemptAt)}` : ''}
                </Text>
                <Card withBorder>
                  <Stack gap="xs">
                    <Title order={2} size="h4">
                      Spreadsheet
                    </Title>
                    <Group align="flex-end">
                      <TextInput
                        label="Spreadsheet id"
                        description="Leave empty to create a new spreadsheet"
                        value={spreadsheetId}
                        onChange={(e) => setSpreadsheetId(e.currentTarget.value)}
                      />
                      <Button
                        variant="light"
                        loading={busy === 'sheet'}
                        onClick={() =>
                          act('sheet', async () => {
                            await unwrap(api.PUT('/sheets-sync/spreadsheet', { body: spreadsheetId.trim() ? { spreadsheetId: spreadsheetId.trim() } : {} }));
                            return 'Spreadsheet set.';
                          })
                        }
                      >
                        Use this spreadsheet
                      </Button>
                    </Group>
                  </Stack>
                </Card>
                <Card withBorder>
                  <Stack gap="xs">
                    <Title order={2} size="h4">
                      Sync
                    </Title>
                    <Group align="flex-end">
                      <Button
                        loading={busy === 'sync'}
                        onClick={() => act('sync', async () => `${(await unwrap(api.POST('/sheets-sync/sync'))).queued} rows queued.`)}
                      >
                        Sync now
                      </Button>
                      <Button
                        variant="light"
                        loading={busy === 'retry'}
                        onClick={() =>
                          act('retry', async () => {
                            await unwrap(api.POST('/sheets-sync/retry'));
                            return 'Retrying the failed rows.';
                          })
                        }
                      >
                        Retry failed rows
                      </Button>
                      <Select label="Backfill past days" data={['0', '7', '30', '90', '365']} value={days} onChange={setDays} allowDeselect={false} maw={160} />
                      <Button
                        variant="light"
                        loading={busy === 'backfill'}
                        onClick={() =>
                          act('backfill', async () => {
                            const answer = await unwrap(api.POST('/sheets-sync/backfill', { body: { days: Number(days) as 0 | 7 | 30 | 90 | 365 } }));
                            return `Backfilling ${answer.days} days of sales.`;
                          })
                        }
                      >
                        Backfill
                      </Button>
                    </Group>
                  </Stack>
                </Card>
                <Group>
                  <ConfirmButton
                    title="Disconnect Google Sheets"
                    message="Stop syncing? The spreadsheet stays in your Google account."
                    confirmLabel="Disconnect"
                    onConfirm={() =>
                      attempt(async () => {
                        await unwrap(api.DELETE('/sheets-sync'));
                        query.reload();
                      })
                    }
                  >
                    Disconnect
                  </ConfirmButton>
                </Group>
              </>
            ) : (
              <Card withBorder>
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">
                    Connect a Google account: you are sent to Google to allow access to the spreadsheets this app creates ({sync.permission}).
                  </Text>
                  <Button loading={busy === 'connect'} disabled={!sync.entitlement.allowed} onClick={connect}>
                    Connect Google Sheets
                  </Button>
                </Stack>
              </Card>
            )}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

export const sheetsPage: PageDefinition = { path: 'sheets', title: 'Google Sheets', area: 'developers', group: 'Developers', element: <SheetsPage /> };
