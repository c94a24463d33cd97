import { Badge, Button, Code, Group, Modal, Select, Stack, Text, TextInput, Alert } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { unwrap, type JsonAnswer } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CursorPager, DataTable } from '../../components/DataTable';
import { attempt } from '../../components/FormModal';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Delivery = JsonAnswer<'listDeliveredWebhooks'>['deliveries'][number];

export function DeliveriesPage() {
  const { api } = useSession();
  const [status, setStatus] = useState<'success' | 'failed' | null>(null);
  const [eventType, setEventType] = useState('');
  const [type] = useDebouncedValue(eventType.trim(), 300);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [shown, setShown] = useState<Delivery | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const after = cursors[cursors.length - 1];
  const webhooks = useQuery((api) => unwrap(api.GET('/webhooks')));
  const query = useQuery(
    (api) =>
      unwrap(
        api.GET('/delivered-webhooks', {
          params: { query: { limit: 20, ...(status ? { status } : {}), ...(type ? { eventType: type } : {}), ...(after ? { after } : {}) } },
        }),
      ),
    [status, type, after],
  );
  const urls = new Map((webhooks.data?.webhooks ?? []).map((w) => [w.id, w.url]));
  return (
    <Stack>
      <PageHeader title="Webhook deliveries" description="Every delivery attempt of the last 30 days, newest first." />
      {notice && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Group align="flex-end">
        <Select
          label="Result"
          placeholder="Any result"
          data={[
            { value: 'success', label: 'Succeeded' },
            { value: 'failed', label: 'Failed' },
          ]}
          value={status}
          onChange={(v) => {
            setStatus(v as typeof status);
            setCursors([undefined]);
          }}
          clearable
          w={180}
        />
        <TextInput
          label="Event type"
          value={eventType}
          onChange={(e) => {
            setEventType(e.currentTarget.value);
            setCursors([undefined]);
          }}
          w={260}
        />
      </Group>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Webhook deliveries"
              rows={answer.deliveries}
              rowKey={(d) => d.id}
              empty={{ title: 'No deliveries', text: 'Deliveries appear when an endpoint receives an event.' }}
              columns={[
                { key: 'date', header: 'Sent', render: (d) => formatDate(d.createdAt) },
                {
                  key: 'event',
                  header: 'Event',
                  render: (d) => (
                    <>
                      <Text size="sm">{d.eventType}</Text>
                      {(d.test || d.redelivery) && (
                        <Text size="xs" c="dimmed">
                          {d.test ? 'test' : 'redelivery'}
                        </Text>
                      )}
                    </>
                  ),
                },
                {
                  key: 'endpoint',
                  header: 'Endpoint',
                  render: (d) => (
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {urls.get(d.webhookId) ?? d.url}
                    </Text>
                  ),
                },
                {
                  key: 'result',
                  header: 'Result',
                  render: (d) => (
                    <Badge color={d.status === 'success' ? 'green' : 'red'} variant="dot">
                      {d.status === 'success' ? `${d.statusCode ?? ''} ok` : `failed${d.statusCode ? ` ${d.statusCode}` : ''}`}
                    </Badge>
                  ),
                },
                { key: 'attempt', header: 'Attempt', numeric: true, render: (d) => d.attempt },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (d) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setShown(d)} aria-label={`Details of delivery ${d.id}`}>
                        Details
                      </Button>
                      <ConfirmButton
                        color="indigo"
                        title="Redeliver"
                        message={`Send ${d.eventType} to its endpoint again (same event id)?`}
                        confirmLabel="Redeliver"
                        aria-label={`Redeliver ${d.id}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.POST('/delivered-webhooks/{id}/redeliver', { params: { path: { id: d.id } } }));
                            setNotice('Redelivery queued; it appears at the top of the log shortly.');
                            query.reload();
                          })
                        }
                      >
                        Redeliver
                      </ConfirmButton>
                    </Group>
                  ),
                },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.hasMore ? answer.next : null} onChange={setCursors} />
          </>
        )}
      </QueryView>
      <Modal opened={shown !== null} onClose={() => setShown(null)} title="Delivery" size="xl">
        {shown && (
          <Stack gap="xs">
            <Text size="sm">
              {shown.eventType} · event {shown.eventId} · {shown.durationMs} ms{shown.redirects ? ` · ${shown.redirects} redirects` : ''}
            </Text>
            {shown.error && (
              <Text c="red.8" size="sm">
                {shown.error}
              </Text>
            )}
            {shown.willRetry && <Text size="sm">Next attempt {formatDate(shown.nextAttemptAt)}</Text>}
            <Text fw={600} size="sm">
              Request headers
            </Text>
            <Code block>{JSON.stringify(shown.requestHeaders, null, 2)}</Code>
            <Text fw={600} size="sm">
              Request body
            </Text>
            <Code block>{shown.requestBody}</Code>
            <Text fw={600} size="sm">
              Response
            </Text>
            <Code block>{shown.responseBodyExcerpt ?? '(none)'}</Code>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

export const deliveriesPage: PageDefinition = {
  path: 'developers/deliveries',
  title: 'Webhook deliveries',
  area: 'developers',
  group: 'Developers',
  element: <DeliveriesPage />,
};
