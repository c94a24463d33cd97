import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, num, text } from '../../components/FormModal';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

export function RefundPoliciesPage() {
  const { api } = useSession();
  const query = useQuery((api) => unwrap(api.GET('/refunds')));
  const [creating, setCreating] = useState(false);
  return (
    <Stack>
      <PageHeader
        title="Refund policies"
        description="The terms shown to buyers. A policy does not refund a payment by itself."
        actions={<Button onClick={() => setCreating(true)}>New policy</Button>}
      />
      <QueryView query={query}>
        {(policies) => (
          <DataTable
            caption="Refund policies"
            rows={policies}
            rowKey={(p) => p._id}
            columns={[
              { key: 'name', header: 'Name', render: (p) => p.name },
              { key: 'days', header: 'Days', numeric: true, render: (p) => p.days },
              { key: 'description', header: 'Description', render: (p) => p.description },
              { key: 'applied', header: 'Products using it', numeric: true, render: (p) => p.appliedTo },
              { key: 'created', header: 'Created', render: (p) => formatDate(p.createdAt) },
            ]}
          />
        )}
      </QueryView>
      <FormModal
        title="New refund policy"
        opened={creating}
        onClose={() => setCreating(false)}
        fields={[
          { name: 'name', label: 'Name', required: true },
          { name: 'days', label: 'Refund window (days)', kind: 'number', required: true, min: 0 },
          { name: 'description', label: 'Short description', required: true },
          { name: 'text', label: 'Full text', kind: 'textarea', required: true },
        ]}
        onSubmit={(v) =>
          attempt(async () => {
            await unwrap(
              api.POST('/refunds', {
                body: { name: text(v.name) ?? '', days: num(v.days) ?? NaN, description: text(v.description) ?? '', text: text(v.text) ?? '' },
              }),
            );
            query.reload();
          })
        }
      />
    </Stack>
  );
}

export const refundPoliciesPage: PageDefinition = {
  path: 'refund-policies',
  title: 'Refund policies',
  area: 'products',
  group: 'Products',
  element: <RefundPoliciesPage />,
};
