import { AreaChart, BarChart } from '@mantine/charts';
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { unwrap, type Api } from '../../api/client';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatMoney } from '../../lib/money';
import { countsAsActive, dailySeries, mrrByCurrency, revenueByCurrency } from '../../lib/metrics';
import type { PageDefinition } from '../types';

async function loadOverview(api: Api) {
  const [sales, offers] = await Promise.all([unwrap(api.GET('/payments')), unwrap(api.GET('/subscriptions'))]);
  // Active and trialing subscribers, page by page (the list is paginated, 100 at most a page).
  const subscribers: { subscriptionId: string; status: string }[] = [];
  for (const status of ['active', 'trialing'] as const) {
    for (let page = 1; page <= 50; page++) {
      const answer = await unwrap(api.GET('/subscriptions/subscribers', { params: { query: { status, page, pageSize: 100 } } }));
      subscribers.push(...answer.data);
      if (page * answer.pageSize >= answer.total) break;
    }
  }
  return { sales, offers, subscribers };
}

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

const money = (totals: Record<string, number>) => Object.entries(totals).map(([code, amount]) => formatMoney(amount, code));

export function HomePage() {
  const query = useQuery(loadOverview);
  return (
    <Stack>
      <PageHeader title="Home" description="Revenue, sales and subscriptions of this store in the current mode." />
      <QueryView query={query}>
        {({ sales, offers, subscribers }) => {
          const { points, currencies } = dailySeries(sales, new Date());
          const active = subscribers.filter((s) => countsAsActive(s.status)).length;
          return (
            <Stack>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
                <Figure label="Revenue (net of refunds)" values={money(revenueByCurrency(sales))} testId="figure-revenue" />
                <Figure label="Sales" values={[String(sales.length)]} testId="figure-sales" />
                <Figure label="Active subscribers" values={[String(active)]} testId="figure-subscribers" />
                <Figure label="Monthly recurring revenue" values={money(mrrByCurrency(subscribers, offers))} testId="figure-mrr" />
              </SimpleGrid>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Revenue, last 30 days
                </Title>
                {currencies.length === 0 ? (
                  <Text c="dimmed">No sales yet.</Text>
                ) : (
                  <div role="img" aria-label={`Revenue per day over the last 30 days, in ${currencies.join(', ')}`}>
                    <AreaChart h={240} data={points} dataKey="date" series={currencies.map((code, i) => ({ name: code, color: ['indigo.6', 'teal.6', 'orange.6', 'grape.6'][i % 4]! }))} curveType="linear" />
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

export const homePage: PageDefinition = { path: '', title: 'Home', area: 'orders', group: 'Overview', element: <HomePage /> };
