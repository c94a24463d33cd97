import { Link } from 'react-router-dom';
import { Button, Card, Group, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, num, text } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatCents } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

export function CreditsPage() {
  const { api } = useSession();
  const [email, setEmail] = useState('');
  const [search] = useDebouncedValue(email.trim(), 300);
  const [deducting, setDeducting] = useState<{ productId: string; buyerEmail: string } | null>(null);
  const products = useQuery((api) => unwrap(api.GET('/products')));
  const query = useQuery((api) => unwrap(api.GET('/credits/accounts', { params: { query: search ? { email: search } : {} } })), [search]);
  const names = new Map((products.data ?? []).map((p) => [p._id, p.name]));
  return (
    <Stack>
      <PageHeader title="Credits" description="Balances of buyers of credits products, in cents of the product's currency." />
      <Card withBorder>
        <Title order={2} size="h5" mb="xs">
          Find balances
        </Title>
        <Group>
          <TextInput label="Buyer email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} w={300} />
        </Group>
      </Card>
      <QueryView query={query}>
        {(accounts) => (
          <DataTable
            caption="Credit balances"
            rows={accounts}
            rowKey={(a) => a._id}
            empty={{
              title: 'No credit balances',
              text: 'Balances appear when a buyer purchases a credits product.',
              action: (
                <Button component={Link} to="/products">
                  Go to products
                </Button>
              ),
            }}
            columns={[
              { key: 'email', header: 'Buyer', render: (a) => a.buyerEmail },
              { key: 'product', header: 'Product', render: (a) => names.get(a.productId) ?? a.productId },
              { key: 'balance', header: 'Balance', numeric: true, render: (a) => formatCents(a.balanceCents) },
              { key: 'status', header: 'Status', render: (a) => <StatusBadge status={a.status} /> },
              {
                key: 'actions',
                header: 'Actions',
                render: (a) => (
                  <Button size="xs" variant="default" onClick={() => setDeducting(a)} aria-label={`Deduct credits of ${a.buyerEmail}`}>
                    Deduct
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <FormModal
        title={`Deduct credits${deducting ? ` of ${deducting.buyerEmail}` : ''}`}
        opened={deducting !== null}
        onClose={() => setDeducting(null)}
        fields={[
          { name: 'amountCents', label: 'Amount (cents)', kind: 'number', required: true, min: 1 },
          { name: 'reason', label: 'Reason' },
        ]}
        submitLabel="Deduct"
        onSubmit={(v) =>
          attempt(async () => {
            if (!deducting) return;
            await unwrap(
              api.POST('/credits/deduct', {
                body: {
                  productId: deducting.productId,
                  email: deducting.buyerEmail,
                  amountCents: num(v.amountCents) ?? NaN,
                  ...(text(v.reason) ? { reason: text(v.reason) } : {}),
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

export const creditsPage: PageDefinition = { path: 'credits', title: 'Credits', area: 'orders', group: 'Sales', element: <CreditsPage /> };
