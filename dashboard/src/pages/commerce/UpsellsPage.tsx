import { Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, list, num, text, type FormValues } from '../../components/FormModal';
import { Money, PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Upsell = JsonAnswer<'listUpsells'>[number];
type UpsellBody = JsonBody<'createUpsell'>;

const load = async (api: Api) => {
  const [upsells, products] = await Promise.all([unwrap(api.GET('/upsells')), unwrap(api.GET('/products'))]);
  return { upsells, products };
};

const body = (v: FormValues): UpsellBody =>
  ({
    name: text(v.name) ?? null,
    mainProductIds: list(v.mainProductIds),
    upsellProductId: text(v.upsellProductId) ?? '',
    upsellPrice: num(v.upsellPrice) ?? NaN,
  }) as UpsellBody;

export function UpsellsPage() {
  const { api } = useSession();
  const query = useQuery(load);
  const [editing, setEditing] = useState<Upsell | 'new' | null>(null);
  return (
    <Stack>
      <PageHeader
        title="Upsells"
        description="An extra product offered at checkout with the main one, at its own price."
        actions={<Button onClick={() => setEditing('new')}>New upsell</Button>}
      />
      <QueryView query={query}>
        {({ upsells, products }) => {
          const names = new Map(products.map((p) => [p._id, p.name]));
          const options = products.map((p) => ({ value: p._id, label: p.name }));
          return (
            <>
              <DataTable
                caption="Upsells"
                rows={upsells}
                rowKey={(u) => u._id}
                columns={[
                  { key: 'name', header: 'Name', render: (u) => u.name ?? '—' },
                  { key: 'main', header: 'With', render: (u) => u.mainProductIds.map((id) => names.get(id) ?? id).join(', ') },
                  { key: 'upsell', header: 'Offers', render: (u) => names.get(u.upsellProductId) ?? u.upsellProductId },
                  { key: 'price', header: 'Price', numeric: true, render: (u) => <Money amount={u.upsellPrice} currency="USD" /> },
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (u) => (
                      <Group gap={4} wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => setEditing(u)} aria-label={`Edit upsell ${u.name ?? u._id}`}>
                          Edit
                        </Button>
                        <ConfirmButton
                          title="Delete upsell"
                          message="Delete this upsell?"
                          confirmLabel="Delete"
                          aria-label={`Delete upsell ${u.name ?? u._id}`}
                          onConfirm={() =>
                            attempt(async () => {
                              await unwrap(api.DELETE('/upsells/{id}', { params: { path: { id: u._id } } }));
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
                title={editing === 'new' ? 'New upsell' : 'Edit upsell'}
                opened={editing !== null}
                onClose={() => setEditing(null)}
                fields={[
                  { name: 'name', label: 'Name' },
                  { name: 'mainProductIds', label: 'Shown with', kind: 'multiselect', required: true, options },
                  { name: 'upsellProductId', label: 'Product offered', kind: 'select', required: true, options },
                  { name: 'upsellPrice', label: 'Upsell price (USD)', kind: 'number', required: true, min: 0, decimals: 2 },
                ]}
                initial={
                  editing && editing !== 'new'
                    ? {
                        name: editing.name ?? '',
                        mainProductIds: editing.mainProductIds,
                        upsellProductId: editing.upsellProductId,
                        upsellPrice: editing.upsellPrice,
                      }
                    : {}
                }
                onSubmit={(v) =>
                  attempt(async () => {
                    if (editing === 'new') await unwrap(api.POST('/upsells', { body: body(v) }));
                    else if (editing) await unwrap(api.POST('/upsells/{id}', { params: { path: { id: editing._id } }, body: body(v) }));
                    query.reload();
                  })
                }
              />
            </>
          );
        }}
      </QueryView>
    </Stack>
  );
}

export const upsellsPage: PageDefinition = { path: 'upsells', title: 'Upsells', area: 'marketing', group: 'Growth', element: <UpsellsPage /> };
