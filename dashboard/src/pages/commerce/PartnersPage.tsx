import { Button, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, num, text } from '../../components/FormModal';
import { Money, PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

const load = async (api: Api) => {
  const [partners, stats] = await Promise.all([unwrap(api.GET('/partners')), unwrap(api.GET('/partners/stats'))]);
  return { partners, stats };
};

export function PartnersPage() {
  const { api } = useSession();
  const query = useQuery(load);
  const [creating, setCreating] = useState(false);
  return (
    <Stack>
      <PageHeader
        title="Partners"
        description="Affiliates with a referral code and a commission on the sales they bring."
        actions={<Button onClick={() => setCreating(true)}>New partner</Button>}
      />
      <QueryView query={query}>
        {({ partners, stats }) => {
          const byPartner = new Map(stats.partners.map((s) => [s.partnerId, s]));
          return (
            <>
              <SimpleGrid cols={{ base: 2, md: 4 }}>
                {(
                  [
                    ['Referrals', String(stats.totals.referrals)],
                    ['Sales', String(stats.totals.sales)],
                    ['Revenue', <Money key="r" amount={stats.totals.revenue} currency={stats.currency} />],
                    ['Commission', <Money key="c" amount={stats.totals.commission} currency={stats.currency} />],
                  ] as const
                ).map(([label, value]) => (
                  <Card withBorder key={label}>
                    <Text size="sm" c="dimmed">
                      {label}
                    </Text>
                    <Text fw={700} size="lg">
                      {value}
                    </Text>
                  </Card>
                ))}
              </SimpleGrid>
              <DataTable
                caption="Partners"
                rows={partners}
                rowKey={(p) => p._id}
                columns={[
                  { key: 'name', header: 'Name', render: (p) => p.name },
                  { key: 'email', header: 'Email', render: (p) => p.email },
                  { key: 'code', header: 'Referral code', render: (p) => <Text ff="monospace">{p.referralCode}</Text> },
                  { key: 'commission', header: 'Commission', numeric: true, render: (p) => `${p.commissionPercent}%` },
                  { key: 'referrals', header: 'Referrals', numeric: true, render: (p) => byPartner.get(p._id)?.referrals ?? 0 },
                  { key: 'sales', header: 'Sales', numeric: true, render: (p) => byPartner.get(p._id)?.sales ?? 0 },
                  {
                    key: 'earned',
                    header: 'Commission earned',
                    numeric: true,
                    render: (p) => <Money amount={byPartner.get(p._id)?.commission ?? 0} currency={stats.currency} />,
                  },
                ]}
              />
            </>
          );
        }}
      </QueryView>
      <FormModal
        title="New partner"
        opened={creating}
        onClose={() => setCreating(false)}
        fields={[
          { name: 'name', label: 'Name', required: true },
          { name: 'email', label: 'Email', kind: 'email', required: true },
          { name: 'referralCode', label: 'Referral code', required: true },
          { name: 'commissionPercent', label: 'Commission (%)', kind: 'number', required: true, min: 0, max: 100 },
        ]}
        onSubmit={(v) =>
          attempt(async () => {
            await unwrap(
              api.POST('/partners', {
                body: {
                  name: text(v.name) ?? '',
                  email: text(v.email) ?? '',
                  referralCode: text(v.referralCode) ?? '',
                  commissionPercent: num(v.commissionPercent) ?? NaN,
                },
              }),
            );
            query.reload();
          })
        }
      />
    </Stack>
  );
}

export const partnersPage: PageDefinition = { path: 'partners', title: 'Partners', area: 'marketing', group: 'Growth', element: <PartnersPage /> };
