import { AreaChart, BarChart } from '@mantine/charts';
import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api } from '../../api/client';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatCents, formatMoney } from '../../lib/money';
import { changeWords, formatDay, lastDays, previousPeriod } from '../../lib/metrics';
import type { PageDefinition } from '../types';
import { Checklist } from './Checklist';
import { RangePicker, type Range } from './RangePicker';
import { RecentActivity } from './RecentActivity';
import { TopProducts } from './TopProducts';

/** Two requests: the period's rollups and the previous period's (the cost grows with days, not sales). */
const loadOverview = async (api: Api, range: Range) => {
  const [summary, before] = await Promise.all([
    unwrap(api.GET('/analytics/summary', { params: { query: range } })),
    unwrap(api.GET('/analytics/summary', { params: { query: previousPeriod(range) } })),
  ]);
  return { summary, before };
};

function Figure({ label, value, change, testId }: { label: string; value: string; change?: string; testId: string }) {
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      {change && (
        <Text size="xs" c="dimmed" data-testid={`${testId}-change`}>
          {change}
        </Text>
      )}
    </Card>
  );
}

/** Axis ticks in the store's currency, short ("$1.2K"), so the axis says what it counts. */
const currencyTick = (currency: string) => (value: number) => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
};

export function HomePage() {
  const [preset, setPreset] = useState('30');
  const [range, setRange] = useState<Range>(() => lastDays(new Date(), 30));
  const query = useQuery((api) => loadOverview(api, range), [range.from, range.to]);
  return (
    <Stack>
      <PageHeader title="Home" description="How the store is doing in the period you pick, next to the period before." />
      <Checklist />
      <RangePicker
        preset={preset}
        range={range}
        onChange={(p, r) => {
          setPreset(p);
          setRange(r);
        }}
      />
      <QueryView query={query}>
        {({ summary, before }) => {
          const days = summary.days.length;
          const currency = summary.currency;
          const points = summary.days.map((d, i) => ({
            day: formatDay(d.date),
            revenue: d.netCents / 100,
            previous: (before.days[i]?.netCents ?? 0) / 100,
            sales: d.sales,
          }));
          const quiet = summary.totals.sales === 0 && summary.totals.refundsCents === 0 && before.totals.sales === 0;
          const period = `${formatDay(summary.days[0]!.date)} – ${formatDay(summary.days.at(-1)!.date)}`;
          return (
            <Stack>
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
                <Figure
                  label="Revenue after refunds"
                  value={formatCents(summary.totals.netCents, currency)}
                  change={changeWords(summary.totals.netCents, before.totals.netCents, days)}
                  testId="figure-revenue"
                />
                <Figure
                  label="Sales"
                  value={String(summary.totals.sales)}
                  change={changeWords(summary.totals.sales, before.totals.sales, days)}
                  testId="figure-sales"
                />
                <Figure
                  label="New subscriptions"
                  value={String(summary.newSubscribers)}
                  change={changeWords(summary.newSubscribers, before.newSubscribers, days)}
                  testId="figure-new-subscribers"
                />
                <Figure
                  label={`Monthly recurring revenue · ${summary.activeSubscribers} active`}
                  value={formatCents(summary.mrrCents, currency)}
                  testId="figure-mrr"
                />
              </SimpleGrid>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Revenue, {period}
                </Title>
                {quiet ? (
                  <Text c="dimmed">No sales in this period or the one before.</Text>
                ) : (
                  <div role="img" aria-label={`Revenue per day from ${period}, in ${currency}, with the previous period dashed`} data-testid="revenue-chart">
                    <AreaChart
                      h={240}
                      data={points}
                      dataKey="day"
                      series={[
                        { name: 'revenue', label: 'This period', color: 'indigo.6' },
                        { name: 'previous', label: 'Previous period', color: 'gray.5', strokeDasharray: '5 5' },
                      ]}
                      curveType="linear"
                      withLegend
                      valueFormatter={(value) => formatMoney(value, currency)}
                      yAxisProps={{ tickFormatter: currencyTick(currency), width: 70 }}
                    />
                  </div>
                )}
              </Card>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <TopProducts products={summary.topProducts} currency={currency} />
                <Card withBorder>
                  <Title order={2} size="h4" mb="sm">
                    Sales per day
                  </Title>
                  <div role="img" aria-label={`Number of sales per day from ${period}`} data-testid="sales-chart">
                    <BarChart
                      h={220}
                      data={points}
                      dataKey="day"
                      series={[{ name: 'sales', color: 'indigo.6', label: 'Sales' }]}
                      yAxisProps={{ allowDecimals: false, width: 40 }}
                    />
                  </div>
                </Card>
              </SimpleGrid>
              <RecentActivity />
            </Stack>
          );
        }}
      </QueryView>
    </Stack>
  );
}

export const homePage: PageDefinition = { path: '', title: 'Home', area: 'analytics', group: 'Home', element: <HomePage /> };
