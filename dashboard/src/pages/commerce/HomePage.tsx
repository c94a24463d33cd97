import { AreaChart, BarChart } from '@mantine/charts';
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { unwrap, type Api } from '../../api/client';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatCents } from '../../lib/money';
import { chartPoints, lastDays } from '../../lib/metrics';
import type { PageDefinition } from '../types';

/** One request: the last 30 days' rollups and the recurring figures (its cost grows with days, not sales). */
const loadOverview = (api: Api) => unwrap(api.GET('/analytics/summary', { params: { query: lastDays(new Date()) } }));

function Figure({ label, values, testId }: { label: string; values: string[]; testId: string }) {
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {values.length === 0 ? (
        <Text fw={700} size="xl">
          —
        </Text>
      ) : (
        values.map((v) => (
          <Text key={v} fw={700} size="xl">
            {v}
          </Text>
        ))
      )}
    </Card>
  );
}

export function HomePage() {
  const query = useQuery(loadOverview);
  return (
    <Stack>
      <PageHeader title="Home" description="Revenue, sales and subscriptions of this store in the current mode." />
      <QueryView query={query}>
        {(summary) => {
          const points = chartPoints(summary.days);
          const quiet = summary.totals.sales === 0 && summary.totals.refundsCents === 0;
          return (
            <Stack>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
                <Figure label="Revenue, last 30 days (net of refunds)" values={[formatCents(summary.totals.netCents, summary.currency)]} testId="figure-revenue" />
                <Figure label="Sales, last 30 days" values={[String(summary.totals.sales)]} testId="figure-sales" />
                <Figure label="Active subscribers" values={[String(summary.activeSubscribers)]} testId="figure-subscribers" />
                <Figure label="Monthly recurring revenue" values={[formatCents(summary.mrrCents, summary.currency)]} testId="figure-mrr" />
              </SimpleGrid>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Revenue, last 30 days
                </Title>
                {quiet ? (
                  <Text c="dimmed">No sales in the last 30 days.</Text>
                ) : (
                  <div role="img" aria-label={`Revenue per day over the last 30 days, in ${summary.currency}`}>
                    <AreaChart h={240} data={points} dataKey="date" series={[{ name: 'revenue', label: summary.currency, color: 'indigo.6' }]} curveType="linear" />
                  </div>
                )}
              </Card>
              <Card withBorder>
                <Group justify="space-between">
                  <Title order={2} size="h4" mb="sm">
                    Sales per day
                  </Title>
                </Group>
                <div role="img" aria-label="Number of sales per day over the last 30 days">
                  <BarChart h={200} data={points} dataKey="date" series={[{ name: 'sales', color: 'indigo.6', label: 'Sales' }]} />
                </div>
              </Card>
            </Stack>
          );
        }}
      </QueryView>
    </Stack>
  );
}

export const homePage: PageDefinition = { path: '', title: 'Home', area: 'analytics', group: 'Home', element: <HomePage /> };
