import { Link } from 'react-router-dom';
import { Anchor, Group, Select, Stack, Text, TextInput, Button } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { unwrap, type Api } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CursorPager, DataTable } from '../../components/DataTable';
import { attempt } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

const STATUSES = ['active', 'trialing', 'past_due', 'paused', 'canceled'] as const;
type Status = (typeof STATUSES)[number];
const PAGE_SIZE = 20;

export function SubscribersPage() {
  const { api } = useSession();
  const [status, setStatus] = useState<Status | null>(null);
  const [email, setEmail] = useState('');
  const [search] = useDebouncedValue(email.trim(), 300);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const restart = () => setCursors([undefined]);
  const offers = useQuery((api) => unwrap(api.GET('/subscriptions')));
  const query = useQuery(
    (api: Api) =>
      unwrap(
        api.GET('/subscriptions/subscribers', {
          params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(status ? { status } : {}), ...(search ? { buyerEmail: search } : {}) } },
        }),
      ),
    [cursor, status, search],
  );
  const names = new Map((offers.data ?? []).map((o) => [o._id, o.name]));
  const act = (id: string, action: 'cancel' | 'pause' | 'resume') =>
    attempt(async () => {
      await unwrap(api.POST(`/subscriptions/{id}/${action}`, { params: { path: { id } }, body: {} }));
      query.reload();
    });
  return (
    <Stack>
      <PageHeader title="Subscribers" description="One row per buyer and subscription. Cancel keeps access until the paid period ends." />
      <Group align="flex-end">
        <Select
          label="Status"
          placeholder="Any status"
          data={[...STATUSES]}
          value={status}
          onChange={(v) => {
            setStatus(v as Status | null);
            restart();
          }}
          clearable
          w={200}
        />
        <TextInput
          label="Buyer email"
          value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value);
            restart();
          }}
          w={280}
        />
      </Group>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Subscribers"
              rows={answer.data}
              rowKey={(s) => s._id}
              empty={{
                title: 'No subscribers',
                text: status || search ? 'Nobody matches these filters.' : 'Subscribers appear when a buyer subscribes to an offer.',
                action:
                  status || search ? undefined : (
                    <Button component={Link} to="/offers">
                      See your offers
                    </Button>
                  ),
              }}
              columns={[
                { key: 'email', header: 'Buyer', render: (s) => String(s.buyerEmail ?? s.email ?? '—') },
                { key: 'offer', header: 'Offer', render: (s) => names.get(s.subscriptionId) ?? s.subscriptionId },
                {
                  key: 'status',
                  header: 'Status',
                  render: (s) => (
                    <Group gap={4}>
                      <StatusBadge status={s.status} />
                      {s.paused && <StatusBadge status="paused" />}
                      {s.cancelAtPeriodEnd && (
                        <Text size="xs" c="dimmed">
                          cancels at period end
                        </Text>
                      )}
                    </Group>
                  ),
                },
                {
                  key: 'portal',
                  header: 'Portal',
                  render: (s) => (
                    <Anchor href={s.portalUrl} target="_blank" rel="noreferrer" size="sm">
                      Buyer portal
                    </Anchor>
                  ),
                },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (s) => (
                    <Group gap={4} wrap="nowrap">
                      {s.active && !s.cancelAtPeriodEnd && (
                        <ConfirmButton
                          title="Cancel subscription"
                          message="The subscription ends when the paid period ends; the buyer keeps access until then."
                          confirmLabel="Cancel subscription"
                          aria-label={`Cancel subscription of ${String(s.buyerEmail ?? s._id)}`}
                          onConfirm={() => act(s._id, 'cancel')}
                        >
                          Cancel
                        </ConfirmButton>
                      )}
                      {s.active && !s.paused && (
                        <ConfirmButton
                          color="indigo"
                          title="Pause collection"
                          message="Payment collection stops; the buyer keeps access."
                          confirmLabel="Pause"
                          aria-label={`Pause ${String(s.buyerEmail ?? s._id)}`}
                          onConfirm={() => act(s._id, 'pause')}
                        >
                          Pause
                        </ConfirmButton>
                      )}
                      {(s.paused || s.cancelAtPeriodEnd) && (
                        <ConfirmButton
                          color="indigo"
                          title="Resume"
                          message="Collection resumes and any scheduled cancel is withdrawn."
                          confirmLabel="Resume"
                          aria-label={`Resume ${String(s.buyerEmail ?? s._id)}`}
                          onConfirm={() => act(s._id, 'resume')}
                        >
                          Resume
                        </ConfirmButton>
                      )}
                    </Group>
                  ),
                },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const subscribersPage: PageDefinition = { path: 'subscribers', title: 'Subscribers', area: 'orders', group: 'Sales', element: <SubscribersPage /> };
