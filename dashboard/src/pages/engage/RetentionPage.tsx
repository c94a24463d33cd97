import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { unwrap, type JsonAnswer, type JsonBody } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { Money, PageHeader, StatusBadge } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';
import { DaysRange, pct, Stat } from './common';

type Settings = JsonAnswer<'getRecoverySettings'>;
type SettingsBody = JsonBody<'updateRecoverySettings'>;

/** The at-risk list's rows (the route's answer is not typed in the OpenAPI document). */
interface AtRiskCase {
  id: string;
  subscriptionCustomerId: string;
  subscriptionId: string;
  subscriptionName: string | null;
  buyerEmail: string | null;
  amount: number;
  currency: string;
  status: string;
  attempts: number;
  startedAt: string;
}

function SettingsForm({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const [values, setValues] = useState<SettingsBody>({ enabled: settings.enabled, finalAction: settings.finalAction, emailBuyer: settings.emailBuyer });
  const [saved, setSaved] = useState(false);
  const save = useMutation((api, body: SettingsBody) => unwrap(api.PUT('/subscription-retention/recovery/settings', { body })));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const answer = await save.run(values);
    if (answer) {
      onSaved(answer);
      setSaved(true);
    }
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack maw={520}>
          <Title order={2} size="h4">
            Failed-renewal recovery
          </Title>
          <Switch
            label="Recover failed renewals (retries and buyer emails)"
            checked={values.enabled ?? false}
            onChange={(e) => setValues((v) => ({ ...v, enabled: e.currentTarget.checked }))}
          />
          <Select
            label="When every retry has failed"
            data={[
              { value: 'cancel', label: 'Cancel the subscription' },
              { value: 'pause', label: 'Pause the subscription' },
              { value: 'keep', label: 'Keep it past due' },
            ]}
            value={values.finalAction ?? null}
            onChange={(v) => setValues((all) => ({ ...all, finalAction: (v ?? 'cancel') as SettingsBody['finalAction'] }))}
            allowDeselect={false}
          />
          <Switch
            label="Email the buyer a card-update link"
            checked={values.emailBuyer ?? false}
            onChange={(e) => setValues((v) => ({ ...v, emailBuyer: e.currentTarget.checked }))}
          />
          <Text size="xs" c="dimmed">
            Retries on days {settings.retryDays.join(', ')} after the failure. Last changed {formatDate(settings.updatedAt)}.
          </Text>
          <FormError error={save.error} />
          {saved && (
            <Text size="sm" c="green.8" role="status">
              Recovery settings saved.
            </Text>
          )}
          <Group>
            <Button type="submit" loading={save.running}>
              Save recovery settings
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function AtRiskList() {
  const [status, setStatus] = useState<'open' | 'recovered' | 'closed'>('open');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors[cursors.length - 1];
  const query = useQuery(
    async (api) =>
      (await unwrap(
        api.GET('/subscription-retention/recovery/at-risk', { params: { query: { status, limit: 20, ...(after ? { after } : {}) } } }),
      )) as unknown as { data: AtRiskCase[]; nextCursor: string | null },
    [status, after],
  );
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4">
          Renewals under recovery
        </Title>
        <Select
          label="Status"
          data={['open', 'recovered', 'closed']}
          value={status}
          onChange={(v) => {
            setStatus((v ?? 'open') as typeof status);
            setCursors([undefined]);
          }}
          allowDeselect={false}
          w={180}
        />
      </Group>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="At-risk subscriptions"
              rows={answer.data}
              rowKey={(c) => c.id}
              empty={{ title: `No ${status} recoveries`, text: status === 'open' ? 'No renewal is failing right now.' : undefined }}
              columns={[
                { key: 'buyer', header: 'Buyer', render: (c) => c.buyerEmail ?? c.subscriptionCustomerId },
                { key: 'offer', header: 'Offer', render: (c) => c.subscriptionName ?? c.subscriptionId },
                { key: 'amount', header: 'Amount', numeric: true, render: (c) => <Money amount={c.amount} currency={c.currency} /> },
                { key: 'status', header: 'Status', render: (c) => <StatusBadge status={c.status} /> },
                { key: 'attempts', header: 'Attempts', numeric: true, render: (c) => c.attempts },
                { key: 'started', header: 'Failing since', render: (c) => formatDate(c.startedAt) },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

/** Retention: recovery settings, the recovery summary over a days range, and the at-risk list. */
export function RetentionPage() {
  const [days, setDays] = useState(30);
  const settings = useQuery((api) => unwrap(api.GET('/subscription-retention/recovery/settings')));
  const summary = useQuery((api) => unwrap(api.GET('/subscription-retention/recovery/summary', { params: { query: { days } } })), [days]);
  return (
    <Stack>
      <PageHeader title="Retention" description="Win back failed renewals. Save offers, intro prices and the yearly switch are set per offer." />
      <DaysRange value={days} onChange={setDays} />
      <QueryView query={summary}>
        {(s) => (
          <>
            {!s.entitlement.allowed && (
              <Alert color="yellow" title="Recovery needs a higher plan">
                Turning recovery on needs the {s.entitlement.requiredPlan} plan.
              </Alert>
            )}
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Stat label="Recovered" value={s.recoveredCount} />
              <Stat label="At risk" value={s.atRiskCount} />
              <Stat label="Lost" value={s.lostCount} />
              <Stat label="Recovery rate" value={pct(s.recoveryRate)} />
            </SimpleGrid>
            <DataTable
              caption="Recovery by currency"
              rows={[...new Set([...s.recovered, ...s.atRisk].map((m) => m.currency))].map((currency) => ({
                currency,
                recovered: s.recovered.find((m) => m.currency === currency),
                atRisk: s.atRisk.find((m) => m.currency === currency),
              }))}
              rowKey={(r) => r.currency}
              empty={{ title: `Nothing to recover in the last ${s.days} days` }}
              columns={[
                { key: 'currency', header: 'Currency', render: (r) => r.currency.toUpperCase() },
                { key: 'recovered', header: 'Recovered', numeric: true, render: (r) => <Money amount={r.recovered?.amount ?? 0} currency={r.currency} /> },
                { key: 'atRisk', header: 'At risk', numeric: true, render: (r) => <Money amount={r.atRisk?.amount ?? 0} currency={r.currency} /> },
              ]}
            />
          </>
        )}
      </QueryView>
      <QueryView query={settings}>{(s) => <SettingsForm settings={s} onSaved={settings.set} />}</QueryView>
      <AtRiskList />
    </Stack>
  );
}

export const retentionPage: PageDefinition = { path: 'retention', title: 'Retention', area: 'orders', group: 'Growth', element: <RetentionPage /> };
