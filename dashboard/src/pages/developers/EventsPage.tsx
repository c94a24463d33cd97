import { Button, Code, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';

function EventDetail({ id }: { id: string }) {
  const query = useQuery((api) => unwrap(api.GET('/events/{id}', { params: { path: { id } } })), [id]);
  return <QueryView query={query}>{(event) => <Code block>{JSON.stringify(event, null, 2)}</Code>}</QueryView>;
}

export function EventsPage() {
  const [typeInput, setTypeInput] = useState('');
  const [type] = useDebouncedValue(typeInput.trim(), 300);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [shown, setShown] = useState<string | null>(null);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery(
    (api) => unwrap(api.GET('/events', { params: { query: { limit: 25, ...(type ? { type } : {}), ...(cursor ? { cursor } : {}) } } })),
    [type, cursor],
  );
  return (
    <Stack>
      <PageHeader title="Events" description="Everything that happened in this mode, newest first: what webhooks deliver." />
      <TextInput
        label="Event type"
        placeholder="e.g. order.completed"
        value={typeInput}
        onChange={(e) => {
          setTypeInput(e.currentTarget.value);
          setCursors([undefined]);
        }}
        w={300}
      />
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Events"
              rows={answer.events}
              rowKey={(e) => e.id}
              empty={{ title: 'No events', text: type ? 'No event of this type.' : 'Events appear as soon as something changes in the store.' }}
              columns={[
                { key: 'date', header: 'When', render: (e) => formatDate(e.created) },
                {
                  key: 'type',
                  header: 'Type',
                  render: (e) => (
                    <Text ff="monospace" size="sm">
                      {e.type}
                    </Text>
                  ),
                },
                {
                  key: 'id',
                  header: 'Id',
                  render: (e) => (
                    <Text ff="monospace" size="xs">
                      {e.id}
                    </Text>
                  ),
                },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (e) => (
                    <Button size="xs" variant="default" onClick={() => setShown(e.id)} aria-label={`Show event ${e.id}`}>
                      Show
                    </Button>
                  ),
                },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.hasMore ? answer.next : null} onChange={setCursors} />
          </>
        )}
      </QueryView>
      <Modal opened={shown !== null} onClose={() => setShown(null)} title="Event" size="xl">
        {shown && <EventDetail id={shown} />}
      </Modal>
    </Stack>
  );
}

export const eventsPage: PageDefinition = { path: 'developers/events', title: 'Events', area: 'developers', group: 'Developers', element: <EventsPage /> };
