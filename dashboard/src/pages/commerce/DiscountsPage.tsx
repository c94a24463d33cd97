import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, list, num, text, type FormValues } from '../../components/FormModal';
import { Money, PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Discount = JsonAnswer<'listDiscounts'>[number];
type DiscountBody = JsonBody<'createDiscount'>;

const load = async (api: Api) => {
  const [discounts, products, offers] = await Promise.all([unwrap(api.GET('/discounts')), unwrap(api.GET('/products')), unwrap(api.GET('/subscriptions'))]);
  return { discounts, items: [...products, ...offers].map((p) => ({ value: p._id, label: p.name })) };
};

const toLocalInput = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 16) : '');
const body = (v: FormValues): DiscountBody =>
  ({
    name: text(v.name) ?? '',
    code: text(v.code) ?? '',
    valueType: (text(v.valueType) ?? 'percentage') as DiscountBody['valueType'],
    value: num(v.value) ?? NaN,
    mainProductIds: list(v.mainProductIds),
    expiresAt: text(v.expiresAt) ? new Date(text(v.expiresAt)!).toISOString() : null,
    maxUses: num(v.maxUses) ?? null,
  }) as DiscountBody;

export function DiscountsPage() {
  const { api } = useSession();
  const query = useQuery(load);
  const [editing, setEditing] = useState<Discount | 'new' | null>(null);
  return (
    <Stack>
      <PageHeader title="Discounts" description="Codes buyers enter at checkout." actions={<Button onClick={() => setEditing('new')}>New discount</Button>} />
      <QueryView query={query}>
        {({ discounts, items }) => (
          <>
            <DataTable
              caption="Discounts"
              rows={discounts}
              rowKey={(d) => d._id}
              columns={[
                { key: 'name', header: 'Name', render: (d) => d.name },
                { key: 'code', header: 'Code', render: (d) => <Text ff="monospace">{d.code}</Text> },
                {
                  key: 'value',
                  header: 'Value',
                  numeric: true,
                  render: (d) => (d.valueType === 'percentage' ? `${d.value}%` : <Money amount={d.value} currency="USD" />),
                },
                { key: 'uses', header: 'Uses', numeric: true, render: (d) => (d.maxUses ? `${d.uses} / ${d.maxUses}` : d.uses) },
                { key: 'expires', header: 'Expires', render: (d) => formatDate(d.expiresAt) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (d) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setEditing(d)} aria-label={`Edit ${d.name}`}>
                        Edit
                      </Button>
                      <ConfirmButton
                        title="Delete discount"
                        message={`Delete the code ${d.code}?`}
                        confirmLabel="Delete"
                        aria-label={`Delete ${d.name}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/discounts/{id}', { params: { path: { id: d._id } } }));
                            query.reload();
                          })
                        }
                      >
                        Delete
                      </ConfirmButton>
                    </Group>
                  ),
                },
              ]}
            />
            <FormModal
              title={editing === 'new' ? 'New discount' : 'Edit discount'}
              opened={editing !== null}
              onClose={() => setEditing(null)}
              fields={[
                { name: 'name', label: 'Name', required: true },
                { name: 'code', label: 'Code', required: true },
                {
                  name: 'valueType',
                  label: 'Kind',
                  kind: 'select',
                  required: true,
                  options: [
                    { value: 'percentage', label: 'Percentage' },
                    { value: 'fixed', label: 'Fixed amount (USD)' },
                  ],
                },
                { name: 'value', label: 'Value', kind: 'number', required: true, min: 0, decimals: 2 },
                { name: 'mainProductIds', label: 'Applies to', kind: 'multiselect', required: true, options: items },
                { name: 'expiresAt', label: 'Expires', kind: 'datetime' },
                { name: 'maxUses', label: 'Maximum uses', kind: 'number', min: 1 },
              ]}
              initial={
                editing && editing !== 'new'
                  ? {
                      name: editing.name,
                      code: editing.code,
                      valueType: editing.valueType,
                      value: editing.value,
                      mainProductIds: editing.mainProductIds,
                      expiresAt: toLocalInput(editing.expiresAt),
                      maxUses: editing.maxUses ?? '',
                    }
                  : { valueType: 'percentage' }
              }
              onSubmit={(v) =>
                attempt(async () => {
                  if (editing === 'new') await unwrap(api.POST('/discounts', { body: body(v) }));
                  else if (editing) await unwrap(api.POST('/discounts/{id}', { params: { path: { id: editing._id } }, body: body(v) }));
                  query.reload();
                })
              }
            />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const discountsPage: PageDefinition = { path: 'discounts', title: 'Discounts', area: 'marketing', group: 'Sales', element: <DiscountsPage /> };
