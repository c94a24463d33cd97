import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, num, text, type FormValues } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Funnel = JsonAnswer<'listFunnels'>[number];
type FunnelBody = JsonBody<'createFunnel'>;

const load = async (api: Api) => {
  const [funnels, templates, products, offers] = await Promise.all([
    unwrap(api.GET('/funnels')),
    unwrap(api.GET('/funnels/templates')),
    unwrap(api.GET('/products')),
    unwrap(api.GET('/subscriptions')),
  ]);
  // The API takes only a free product as the lead magnet and only a paid one as the offer: the
  // pickers list just those, so nothing offered is refused afterwards.
  const option = (p: { _id: string; name: string }) => ({ value: p._id, label: p.name });
  return {
    funnels,
    templates,
    magnets: products.filter(isFreeProduct).map(option),
    products: [...products.filter((p) => p.price > 0), ...offers.filter((o) => o.price > 0)].map(option),
  };
};

/** The API's lead-magnet rule (shared/funnels/rules.ts): price 0, or pay what you want from 0. */
const isFreeProduct = (p: { price: number; payWhatYouWant: { enabled: boolean; minimumPrice: number } }) =>
  p.price === 0 || (p.payWhatYouWant.enabled && p.payWhatYouWant.minimumPrice === 0);

const createBody = (v: FormValues): FunnelBody => {
  const code = text(v.discountCode);
  return {
    templateId: (text(v.templateId) ?? 'welcome') as FunnelBody['templateId'],
    leadMagnetProductId: text(v.leadMagnetProductId) ?? '',
    offerProductId: text(v.offerProductId) ?? '',
    offerUrl: text(v.offerUrl) ?? '',
    ...(text(v.name) ? { name: text(v.name) } : {}),
    ...(code ? { discount: { code, valueType: (text(v.discountType) ?? 'percentage') as 'percentage' | 'fixed', value: num(v.discountValue) ?? NaN } } : {}),
  };
};

export const funnelActions = (api: Api, f: Funnel, reload: () => void) => ({
  toggle: () =>
    attempt(async () => {
      if (f.status === 'active') await unwrap(api.POST('/funnels/{id}/pause', { params: { path: { id: f._id } } }));
      else await unwrap(api.POST('/funnels/{id}/activate', { params: { path: { id: f._id } } }));
      reload();
    }),
});

/** Lead-magnet funnels: a template's email sequence, the offer and its discount, and their stats. */
export function FunnelsPage() {
  const { api } = useSession();
  const query = useQuery(load);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Funnel | null>(null);
  return (
    <Stack>
      <PageHeader
        title="Funnels"
        description="A free lead magnet, an email sequence from a template, and an offer at the end."
        actions={<Button onClick={() => setCreating(true)}>New funnel</Button>}
      />
      <QueryView query={query}>
        {({ funnels, templates, magnets, products }) => (
          <>
            <DataTable
              caption="Funnels"
              rows={funnels}
              rowKey={(f) => f._id}
              empty={{
                title: 'No funnels yet',
                text: 'Start from the welcome, mini-course or launch template.',
                action: <Button onClick={() => setCreating(true)}>New funnel</Button>,
              }}
              columns={[
                {
                  key: 'name',
                  header: 'Name',
                  render: (f) => (
                    <Anchor component={Link} to={`/funnels/${f._id}`}>
                      {f.name}
                    </Anchor>
                  ),
                },
                { key: 'status', header: 'Status', render: (f) => <StatusBadge status={f.status} /> },
                { key: 'template', header: 'Template', render: (f) => templates.find((t) => t.id === f.templateId)?.name ?? f.templateId },
                { key: 'emails', header: 'Emails', numeric: true, render: (f) => f.emailPostIds.length },
                { key: 'created', header: 'Created', render: (f) => formatDate(f.createdAt) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (f) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setRenaming(f)} aria-label={`Rename ${f.name}`}>
                        Rename
                      </Button>
                      <ConfirmButton
                        color={f.status === 'active' ? 'yellow' : 'green'}
                        title={f.status === 'active' ? 'Pause funnel' : 'Activate funnel'}
                        message={
                          f.status === 'active' ? 'New leads stop entering and pending sends stop.' : 'Leads who get the lead magnet enter the sequence.'
                        }
                        confirmLabel={f.status === 'active' ? 'Pause' : 'Activate'}
                        aria-label={`${f.status === 'active' ? 'Pause' : 'Activate'} ${f.name}`}
                        onConfirm={funnelActions(api, f, query.reload).toggle}
                      >
                        {f.status === 'active' ? 'Pause' : 'Activate'}
                      </ConfirmButton>
                      <ConfirmButton
                        title="Delete funnel"
                        message="Deletes the funnel and its automation."
                        confirmLabel="Delete"
                        aria-label={`Delete ${f.name}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/funnels/{id}', { params: { path: { id: f._id } } }));
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
              title="New funnel"
              opened={creating}
              onClose={() => setCreating(false)}
              initial={{ templateId: 'welcome', discountType: 'percentage' }}
              fields={[
                { name: 'name', label: 'Name' },
                {
                  name: 'templateId',
                  label: 'Template',
                  kind: 'select',
                  required: true,
                  options: templates.map((t) => ({ value: t.id, label: `${t.name} — ${t.emails.length} emails` })),
                },
                {
                  name: 'leadMagnetProductId',
                  label: 'Lead magnet (free product)',
                  description: magnets.length ? undefined : 'No free product yet: create one priced 0 first.',
                  kind: 'select',
                  required: true,
                  options: magnets,
                },
                { name: 'offerProductId', label: 'Offer at the end (paid product or subscription)', kind: 'select', required: true, options: products },
                { name: 'offerUrl', label: 'Offer URL', kind: 'url', required: true },
                { name: 'discountCode', label: 'Discount code for the offer', description: 'Optional; created with the funnel.' },
                {
                  name: 'discountType',
                  label: 'Discount kind',
                  kind: 'select',
                  options: [
                    { value: 'percentage', label: 'Percentage' },
                    { value: 'fixed', label: 'Fixed amount' },
                  ],
                },
                { name: 'discountValue', label: 'Discount value', kind: 'number', min: 0, decimals: 2 },
              ]}
              submitLabel="Create funnel"
              onSubmit={(v) =>
                attempt(async () => {
                  await unwrap(api.POST('/funnels', { body: createBody(v) }));
                  query.reload();
                })
              }
            >
              <Text size="xs" c="dimmed">
                The funnel starts as a draft: edit its emails on the funnel’s page, then activate it.
              </Text>
            </FormModal>
            <FormModal
              title="Rename funnel"
              opened={renaming !== null}
              onClose={() => setRenaming(null)}
              initial={{ name: renaming?.name }}
              fields={[{ name: 'name', label: 'Name', required: true }]}
              onSubmit={(v) =>
                attempt(async () => {
                  await unwrap(api.PUT('/funnels/{id}', { params: { path: { id: renaming!._id } }, body: { name: text(v.name) ?? '' } }));
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

export const funnelsPage: PageDefinition = { path: 'funnels', title: 'Funnels', area: 'marketing', group: 'Growth', element: <FunnelsPage /> };
