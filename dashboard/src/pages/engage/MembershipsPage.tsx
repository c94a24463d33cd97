import { Anchor, Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, list, text, type FormValues } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';
import { OnOff } from './common';

type Membership = JsonAnswer<'listMemberships'>[number];
type MembershipBody = JsonBody<'createMembership'>;

const load = async (api: Api) => {
  const [memberships, offers, products] = await Promise.all([unwrap(api.GET('/memberships')), unwrap(api.GET('/subscriptions')), unwrap(api.GET('/products'))]);
  return { memberships, offers: offers.map((o) => ({ value: o._id, label: o.name })), products: products.map((p) => ({ value: p._id, label: p.name })) };
};

const body = (v: FormValues): MembershipBody => ({
  name: text(v.name) ?? '',
  offerIds: list(v.offerIds),
  productIds: list(v.productIds),
  communityEnabled: Boolean(v.communityEnabled),
  postEmailsEnabled: Boolean(v.postEmailsEnabled),
});

/** Membership tiers: which offers and products give access, community and post emails on or off. */
export function MembershipsPage() {
  const { api } = useSession();
  const query = useQuery(load);
  const [editing, setEditing] = useState<Membership | 'new' | null>(null);
  const save = (v: FormValues) =>
    attempt(async () => {
      if (editing === 'new') await unwrap(api.POST('/memberships', { body: body(v) }));
      else if (editing) await unwrap(api.PATCH('/memberships/{id}', { params: { path: { id: editing._id } }, body: body(v) }));
      query.reload();
    });
  const lifecycle = (m: Membership) =>
    attempt(async () => {
      if (m.status === 'active') await unwrap(api.POST('/memberships/{id}/archive', { params: { path: { id: m._id } } }));
      else await unwrap(api.POST('/memberships/{id}/reopen', { params: { path: { id: m._id } } }));
      query.reload();
    });
  return (
    <Stack>
      <PageHeader
        title="Memberships"
        description="Members-only areas for subscribers of offers and buyers of products: posts, community and moderation."
        actions={<Button onClick={() => setEditing('new')}>New membership</Button>}
      />
      <QueryView query={query}>
        {({ memberships, offers, products }) => (
          <>
            <DataTable
              caption="Memberships"
              rows={memberships}
              rowKey={(m) => m._id}
              empty={{
                title: 'No memberships yet',
                text: 'Create one to give subscribers of an offer a members-only area.',
                action: <Button onClick={() => setEditing('new')}>New membership</Button>,
              }}
              columns={[
                {
                  key: 'name',
                  header: 'Name',
                  render: (m) => (
                    <Anchor component={Link} to={`/memberships/${m._id}`}>
                      {m.name}
                    </Anchor>
                  ),
                },
                { key: 'status', header: 'Status', render: (m) => <StatusBadge status={m.status} /> },
                { key: 'members', header: 'Members', numeric: true, render: (m) => m.memberCount ?? '—' },
                {
                  key: 'access',
                  header: 'Access from',
                  render: (m) =>
                    [
                      ...m.offerIds.map((id) => offers.find((o) => o.value === id)?.label ?? id),
                      ...m.productIds.map((id) => products.find((p) => p.value === id)?.label ?? id),
                    ].join(', ') || '—',
                },
                {
                  key: 'features',
                  header: 'Features',
                  render: (m) => (
                    <Group gap={4}>
                      <OnOff on={m.communityEnabled} label="Community" />
                      <OnOff on={m.postEmailsEnabled} label="Post emails" />
                    </Group>
                  ),
                },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (m) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setEditing(m)} aria-label={`Edit ${m.name}`}>
                        Edit
                      </Button>
                      <ConfirmButton
                        color={m.status === 'active' ? 'red' : 'green'}
                        title={m.status === 'active' ? 'Archive membership' : 'Reopen membership'}
                        message={m.status === 'active' ? 'Every active member leaves; the posts stay.' : 'Live subscribers of its offers join again.'}
                        confirmLabel={m.status === 'active' ? 'Archive' : 'Reopen'}
                        aria-label={`${m.status === 'active' ? 'Archive' : 'Reopen'} ${m.name}`}
                        onConfirm={() => lifecycle(m)}
                      >
                        {m.status === 'active' ? 'Archive' : 'Reopen'}
                      </ConfirmButton>
                    </Group>
                  ),
                },
              ]}
            />
            <FormModal
              title={editing === 'new' ? 'New membership' : 'Edit membership'}
              opened={editing !== null}
              onClose={() => setEditing(null)}
              initial={
                editing && editing !== 'new'
                  ? {
                      name: editing.name,
                      offerIds: editing.offerIds,
                      productIds: editing.productIds,
                      communityEnabled: editing.communityEnabled,
                      postEmailsEnabled: editing.postEmailsEnabled,
                    }
                  : { offerIds: [], productIds: [] }
              }
              fields={[
                { name: 'name', label: 'Name', required: true },
                { name: 'offerIds', label: 'Subscription offers giving access', kind: 'multiselect', options: offers },
                { name: 'productIds', label: 'Products giving access (Pro)', kind: 'multiselect', options: products },
                { name: 'communityEnabled', label: 'Community (threads and replies)', kind: 'switch' },
                { name: 'postEmailsEnabled', label: 'Email members new posts', kind: 'switch' },
              ]}
              onSubmit={save}
            />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const membershipsPage: PageDefinition = { path: 'memberships', title: 'Memberships', area: 'products', group: 'Products', element: <MembershipsPage /> };
