import { Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';

type Reason = 'bounced' | 'complained' | 'unsubscribed';

/**
 * The suppression list: contacts no mail goes to. Bounces and complaints are suppressed for good
 * (the API refuses to resubscribe them); unsubscribes are listed beside them.
 */
export function SuppressionsPage() {
  const [reason, setReason] = useState<Reason>('bounced');
  const [q, setQ] = useState('');
  const [search] = useDebouncedValue(q.trim(), 300);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors[cursors.length - 1];
  const query = useQuery(
    (api) =>
      unwrap(
        api.GET('/newsletters/subscribers', {
          params: { query: { status: reason, limit: 25, ...(search ? { q: search } : {}), ...(after ? { after } : {}) } },
        }),
      ),
    [reason, search, after],
  );
  return (
    <Stack>
      <PageHeader title="Suppression list" description="Addresses that receive no mail: hard bounces and complaints (suppressed for good) and unsubscribes." />
      <Group align="flex-end">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="suppression-reason">
            Reason
          </Text>
          <SegmentedControl
            aria-labelledby="suppression-reason"
            value={reason}
            onChange={(v) => {
              setReason(v as Reason);
              setCursors([undefined]);
            }}
            data={[
              { value: 'bounced', label: 'Bounced' },
              { value: 'complained', label: 'Complained' },
              { value: 'unsubscribed', label: 'Unsubscribed' },
            ]}
          />
        </Stack>
        <TextInput
          label="Email starts with"
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setCursors([undefined]);
          }}
          w={260}
        />
      </Group>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Suppressed addresses"
              rows={answer.data}
              rowKey={(s) => s._id}
              empty={{ title: `No ${reason} addresses`, text: 'Good news: nobody is on this list.' }}
              columns={[
                { key: 'email', header: 'Email', render: (s) => s.email },
                { key: 'status', header: 'Reason', render: (s) => <StatusBadge status={s.status} /> },
                { key: 'source', header: 'Source', render: (s) => s.source ?? '—' },
                { key: 'since', header: 'Since', render: (s) => formatDate(s.unsubscribedAt ?? s.updatedAt) },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const suppressionsPage: PageDefinition = {
  path: 'email/suppressions',
  title: 'Suppression list',
  area: 'emails',
  group: 'Audience',
  element: <SuppressionsPage />,
};
