import { Badge, Button, Group, Stack, Text } from '@mantine/core';
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

type Offer = JsonAnswer<'listSubscriptionOffers'>[number];
type OfferBody = JsonBody<'createSubscriptionOffer'> & JsonBody<'updateSubscriptionOffer'>;

const load = async (api: Api) => {
  const [offers, images] = await Promise.all([unwrap(api.GET('/subscriptions')), unwrap(api.GET('/images'))]);
  return { offers, images };
};

const body = (v: FormValues): OfferBody =>
  ({
    name: text(v.name) ?? '',
    price: num(v.price) ?? NaN,
    frequency: (text(v.frequency) ?? 'monthly') as OfferBody['frequency'],
    ...(num(v.trialPeriod) !== undefined ? { trialPeriod: num(v.trialPeriod) } : {}),
    description: text(v.description) ?? null,
    imageIds: list(v.imageIds),
    published: Boolean(v.published),
  }) as OfferBody;

export function OffersPage() {
  const { api } = useSession();
  const query = useQuery(load);
  const [editing, setEditing] = useState<Offer | 'new' | null>(null);
  return (
    <Stack>
      <PageHeader
        title="Subscription offers"
        description="Recurring products: weekly, monthly or yearly, with an optional trial."
        actions={<Button onClick={() => setEditing('new')}>New offer</Button>}
      />
      <QueryView query={query}>
        {({ offers, images }) => (
          <>
            <DataTable
              caption="Subscription offers"
              rows={offers}
              rowKey={(o) => o._id}
              empty={{
                title: 'No subscription offers yet',
                text: 'Sell a membership or a plan that renews weekly, monthly or yearly.',
                action: <Button onClick={() => setEditing('new')}>Create an offer</Button>,
              }}
              columns={[
                { key: 'name', header: 'Name', render: (o) => <Text fw={500}>{o.name}</Text> },
                { key: 'price', header: 'Price', numeric: true, render: (o) => <Money amount={o.price} currency={o.currency} /> },
                { key: 'frequency', header: 'Every', render: (o) => o.frequency },
                { key: 'trial', header: 'Trial', render: (o) => (o.trialPeriod ? `${o.trialPeriod} days` : '—') },
                {
                  key: 'published',
                  header: 'Status',
                  render: (o) => (
                    <Badge variant="dot" color={o.published ? 'green' : 'gray'}>
                      {o.published ? 'published' : 'draft'}
                    </Badge>
                  ),
                },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (o) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setEditing(o)} aria-label={`Edit ${o.name}`}>
                        Edit
                      </Button>
                      <ConfirmButton
                        title="Delete offer"
                        message={`Delete "${o.name}"? Existing subscribers keep their subscription.`}
                        confirmLabel="Delete"
                        aria-label={`Delete ${o.name}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/subscriptions/{id}', { params: { path: { id: o._id } } }));
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
              title={editing === 'new' ? 'New subscription offer' : 'Edit subscription offer'}
              opened={editing !== null}
              onClose={() => setEditing(null)}
              fields={[
                { name: 'name', label: 'Name', required: true },
                { name: 'price', label: 'Price (USD)', kind: 'number', required: true, min: 0, decimals: 2 },
                {
                  name: 'frequency',
                  label: 'Billed',
                  kind: 'select',
                  required: true,
                  options: [
                    { value: 'weekly', label: 'Weekly' },
                    { value: 'monthly', label: 'Monthly' },
                    { value: 'yearly', label: 'Yearly' },
                  ],
                },
                { name: 'trialPeriod', label: 'Trial (days)', kind: 'number', min: 0 },
                { name: 'description', label: 'Description', kind: 'textarea' },
                { name: 'imageIds', label: 'Images', kind: 'multiselect', options: images.map((i) => ({ value: i._id, label: i.filename })) },
                { name: 'published', label: 'Published', kind: 'switch' },
              ]}
              initial={
                editing && editing !== 'new'
                  ? {
                      name: editing.name,
                      price: editing.price,
                      frequency: editing.frequency,
                      trialPeriod: editing.trialPeriod ?? '',
                      description: editing.description ?? '',
                      imageIds: editing.imageIds,
                      published: editing.published,
                    }
                  : { frequency: 'monthly', published: true }
              }
              onSubmit={(v) =>
                attempt(async () => {
                  if (editing === 'new') await unwrap(api.POST('/subscriptions', { body: body(v) }));
                  else if (editing) await unwrap(api.POST('/subscriptions/update/{id}', { params: { path: { id: editing._id } }, body: body(v) }));
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

export const offersPage: PageDefinition = { path: 'offers', title: 'Subscription offers', area: 'products', group: 'Products', element: <OffersPage /> };
