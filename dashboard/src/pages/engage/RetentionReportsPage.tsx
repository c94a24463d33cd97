import { SimpleGrid, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';
import { DaysRange, pct, Stat } from './common';

/** The save-offers report (the route's answer is not typed in the OpenAPI document). */
interface SaveReport {
  days: number;
  flowsCount: number;
  savedCount: number;
  saved: { pause: number; discount: number };
  canceledCount: number;
  saveRate: number;
  reasons: { reason: string; count: number }[];
  recentFlows: {
    id: string;
    subscriptionCustomerId: string;
    subscriptionId: string;
    outcome: string;
    months?: number | null;
    percent?: number | null;
    reason?: string | null;
    createdAt: string;
  }[];
}
interface IntroReport {
  intro: { subscribersStarted: number; paymentsAtIntroPrice: number };
  yearlySwitch: { prompted: number; accepted: number; switched: number };
}

/** Save offers over a days range, and intro pricing and yearly switch counts. */
/** The cancel reasons a subscriber picks in the portal, in the seller's words. */
const REASON_WORDS: Record<string, string> = {
  too_expensive: 'Too expensive',
  not_using: 'Not using it enough',
  missing_features: 'Missing features',
  other: 'Something else',
};
const reasonWords = (reason: string | null | undefined) => (!reason ? 'Not given' : (REASON_WORDS[reason] ?? reason.replace(/_/g, ' ')));

export function RetentionReportsPage() {
  const [days, setDays] = useState(30);
  const save = useQuery(
    async (api) => (await unwrap(api.GET('/subscription-retention/save-offers/report', { params: { query: { days } } }))) as unknown as SaveReport,
    [days],
  );
  const intro = useQuery(async (api) => (await unwrap(api.GET('/subscription-retention/intro/report'))) as unknown as IntroReport);
  return (
    <Stack>
      <PageHeader title="Retention reports" description="How many cancels the save offers turned around, and how intro prices and the yearly switch perform." />
      <Title order={2} size="h4">
        Save offers
      </Title>
      <DaysRange value={days} onChange={setDays} />
      <QueryView query={save}>
        {(r) => (
          <>
            <SimpleGrid cols={{ base: 2, sm: 5 }}>
              <Stat label="Cancel flows" value={r.flowsCount} />
              <Stat label="Saved" value={r.savedCount} />
              <Stat label="By pause" value={r.saved.pause} />
              <Stat label="By discount" value={r.saved.discount} />
              <Stat label="Save rate" value={pct(r.saveRate)} />
            </SimpleGrid>
            <DataTable
              caption="Cancel reasons"
              rows={r.reasons}
              rowKey={(x) => x.reason}
              empty={{ title: `No cancel flows in the last ${r.days} days` }}
              columns={[
                { key: 'reason', header: 'Reason', render: (x) => reasonWords(x.reason) },
                { key: 'count', header: 'Flows', numeric: true, render: (x) => x.count },
              ]}
            />
            <DataTable
              caption="Recent cancel flows"
              rows={r.recentFlows}
              rowKey={(f) => f.id}
              empty={{ title: 'No recent flows' }}
              columns={[
                { key: 'when', header: 'When', render: (f) => formatDate(f.createdAt) },
                { key: 'outcome', header: 'Outcome', render: (f) => <StatusBadge status={f.outcome} /> },
                {
                  key: 'terms',
                  header: 'Terms',
                  render: (f) =>
                    f.outcome === 'pause' ? `${f.months ?? '?'} months` : f.outcome === 'discount' ? `${f.percent ?? '?'}% for ${f.months ?? '?'} months` : '—',
                },
                { key: 'reason', header: 'Reason', render: (f) => reasonWords(f.reason) },
                { key: 'subscriber', header: 'Subscriber', render: (f) => f.subscriptionCustomerId },
              ]}
            />
          </>
        )}
      </QueryView>
      <Title order={2} size="h4">
        Intro pricing and yearly switch
      </Title>
      <QueryView query={intro}>
        {(r) => (
          <SimpleGrid cols={{ base: 2, sm: 5 }}>
            <Stat label="Intro subscribers" value={r.intro.subscribersStarted} />
            <Stat label="Intro payments" value={r.intro.paymentsAtIntroPrice} />
            <Stat label="Yearly prompted" value={r.yearlySwitch.prompted} />
            <Stat label="Yearly accepted" value={r.yearlySwitch.accepted} />
            <Stat label="Switched" value={r.yearlySwitch.switched} />
          </SimpleGrid>
        )}
      </QueryView>
    </Stack>
  );
}

export const retentionReportsPage: PageDefinition = {
  path: 'retention/reports',
  title: 'Retention reports',
  area: 'orders',
  group: 'Growth',
  element: <RetentionReportsPage />,
};
