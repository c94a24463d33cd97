import { Anchor, Button, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { unwrap } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { PageHeader, StatusBadge } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatCents, formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';
import { Stat } from './common';
import type { UsagePricing } from './UsagePage';

/** GET /subscriptions/{id}/usage (the route's answer is not typed in the OpenAPI document). */
interface UsageReport {
  subscriptionCustomerId: string;
  subscriptionId: string;
  usagePricing: UsagePricing;
  currentPeriod: {
    periodStart: string | null;
    periodEnd: string | null;
    totals: Record<string, number>;
    meters: { key: string; name: string; quantity: number; includedUnits: number; overageUnits: number; unitPriceCents: number; amountCents: number }[];
    seats: { purchased: number; quantity: number; minimum?: number; maximum?: number; unitPriceCents?: number; amountCents: number } | null;
    upcomingOverageCents: number;
    currency: string | null;
  };
  days: { day: string; totals: Record<string, number> }[];
  reports: { _id?: string; id?: string; meter: string; quantity: number; createdAt?: string; reportedAt?: string }[];
  periods: { periodStart: string; periodEnd: string; amountCents?: number; charge?: { status?: string } }[];
}

function SeatsForm({ id, seats, onSaved }: { id: string; seats: NonNullable<UsageReport['currentPeriod']['seats']>; onSaved: () => void }) {
  const [quantity, setQuantity] = useState<number | string>(seats.quantity);
  const change = useMutation((api, q: number) => unwrap(api.POST('/subscriptions/{id}/seats', { params: { path: { id } }, body: { quantity: q } })));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await change.run(Number(quantity))) !== undefined) onSaved();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end">
        <NumberInput label="Seats" value={quantity} onChange={setQuantity} allowDecimal={false} min={seats.minimum} max={seats.maximum} w={140} />
        <Button type="submit" loading={change.running}>
          Change seats
        </Button>
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        Seats above the {seats.purchased} bought at checkout are billed at period end, prorated.
      </Text>
      <FormError error={change.error} />
    </form>
  );
}

/** One subscriber's usage: the running period per meter, seats, the days so far, reports and closed periods. */
export function UsageReportPage() {
  const { id = '' } = useParams();
  const query = useQuery(
    async (api) => (await unwrap(api.GET('/subscriptions/{id}/usage', { params: { path: { id }, query: { limit: 20 } } }))) as unknown as UsageReport,
    [id],
  );
  return (
    <Stack>
      <Anchor component={Link} to="/usage" size="sm">
        ← Usage billing
      </Anchor>
      <QueryView query={query}>
        {(r) => {
          const cur = r.currentPeriod.currency ?? 'USD';
          const meterKeys = r.usagePricing.meters.map((m) => m.key);
          return (
            <>
              <PageHeader
                title="Usage report"
                description={
                  <>
                    Subscriber {r.subscriptionCustomerId} · period {formatDate(r.currentPeriod.periodStart)} – {formatDate(r.currentPeriod.periodEnd)}
                  </>
                }
              />
              <SimpleGrid cols={{ base: 2, sm: 3 }}>
                <Stat label="Upcoming overage" value={formatCents(r.currentPeriod.upcomingOverageCents, cur)} />
                {r.currentPeriod.seats && <Stat label="Seats" value={`${r.currentPeriod.seats.quantity} (${r.currentPeriod.seats.purchased} bought)`} />}
                <Stat label="Meters" value={r.currentPeriod.meters.length} />
              </SimpleGrid>
              <DataTable
                caption="Meters this period"
                rows={r.currentPeriod.meters}
                rowKey={(m) => m.key}
                empty={{ title: 'No meters', text: 'This offer has no metered usage.' }}
                columns={[
                  { key: 'name', header: 'Meter', render: (m) => `${m.name} (${m.key})` },
                  { key: 'qty', header: 'Used', numeric: true, render: (m) => m.quantity },
                  { key: 'incl', header: 'Included', numeric: true, render: (m) => m.includedUnits },
                  { key: 'over', header: 'Over', numeric: true, render: (m) => m.overageUnits },
                  { key: 'amount', header: 'Charge', numeric: true, render: (m) => formatCents(m.amountCents, cur) },
                ]}
              />
              {r.currentPeriod.seats && <SeatsForm id={r.subscriptionCustomerId} seats={r.currentPeriod.seats} onSaved={query.reload} />}
              <Title order={2} size="h4">
                Per day
              </Title>
              <DataTable
                caption="Usage per day"
                rows={r.days}
                rowKey={(d) => d.day}
                empty={{ title: 'No usage this period' }}
                columns={[
                  { key: 'day', header: 'Day', render: (d) => d.day },
                  ...meterKeys.map((k) => ({ key: k, header: k, numeric: true, render: (d: UsageReport['days'][number]) => d.totals[k] ?? 0 })),
                ]}
              />
              <Title order={2} size="h4">
                Latest reports
              </Title>
              <DataTable
                caption="Usage reports"
                rows={r.reports}
                rowKey={(x) => String(x._id ?? x.id ?? `${x.meter}-${x.createdAt}`)}
                empty={{ title: 'No usage reported yet' }}
                columns={[
                  { key: 'when', header: 'When', render: (x) => formatDate(x.createdAt ?? x.reportedAt) },
                  { key: 'meter', header: 'Meter', render: (x) => x.meter },
                  { key: 'qty', header: 'Quantity', numeric: true, render: (x) => x.quantity },
                ]}
              />
              <Title order={2} size="h4">
                Closed periods
              </Title>
              <DataTable
                caption="Closed periods"
                rows={r.periods}
                rowKey={(p) => p.periodStart}
                empty={{ title: 'No closed period yet' }}
                columns={[
                  { key: 'period', header: 'Period', render: (p) => `${formatDate(p.periodStart)} – ${formatDate(p.periodEnd)}` },
                  { key: 'amount', header: 'Charged', numeric: true, render: (p) => formatCents(p.amountCents ?? 0, cur) },
                  { key: 'status', header: 'Charge', render: (p) => <StatusBadge status={String(p.charge?.status ?? 'pending')} /> },
                ]}
              />
            </>
          );
        }}
      </QueryView>
    </Stack>
  );
}

export const usageReportPage: PageDefinition = {
  path: 'usage/subscribers/:id',
  title: 'Usage report',
  area: 'orders',
  group: 'Sales',
  nav: false,
  element: <UsageReportPage />,
};
