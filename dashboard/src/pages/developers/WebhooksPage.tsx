import { Alert, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type JsonAnswer } from '../../api/client';
import { DELIVERABLE_EVENT_TYPES } from '../../../../shared/events/catalog';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, list, text, type FormValues } from '../../components/FormModal';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Endpoint = JsonAnswer<'listWebhooks'>['webhooks'][number];

const EVENT_OPTIONS = DELIVERABLE_EVENT_TYPES.map((t) => ({ value: t, label: t }));
const body = (v: FormValues) => ({ url: text(v.url) ?? '', events: list(v.events), description: text(v.description) ?? '', active: Boolean(v.active) });

export function WebhooksPage() {
  const { api } = useSession();
  const query = useQuery((api) => unwrap(api.GET('/webhooks')));
  const [editing, setEditing] = useState<Endpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Stack>
      <PageHeader
        title="Webhook endpoints"
        description="HTTPS addresses that receive signed notifications of this mode's events."
        actions={<Button onClick={() => setEditing('new')}>New endpoint</Button>}
      />
      {secret && (
        <Alert color="blue" title="Signing secret" role="status" withCloseButton closeButtonLabel="Hide the secret" onClose={() => setSecret(null)}>
          <Text size="sm">The signing secret of {secret.url} is shown only now:</Text>
          <Code>{secret.secret}</Code>
        </Alert>
      )}
      {notice && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <QueryView query={query}>
        {({ webhooks }) => (
          <DataTable
            caption="Webhook endpoints"
            rows={webhooks}
            rowKey={(w) => w.id}
            columns={[
              {
                key: 'url',
                header: 'URL',
                render: (w) => (
                  <Text size="sm" style={{ wordBreak: 'break-all' }}>
                    {w.url}
                  </Text>
                ),
              },
              { key: 'events', header: 'Events', render: (w) => <Text size="sm">{w.events.join(', ')}</Text> },
              {
                key: 'active',
                header: 'Status',
                render: (w) => (
                  <Badge variant="dot" color={w.active ? 'green' : 'gray'}>
                    {w.active ? 'active' : 'disabled'}
                  </Badge>
                ),
              },
              {
                key: 'actions',
                header: 'Actions',
                render: (w) => (
                  <Group gap={4} wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setEditing(w)} aria-label={`Edit ${w.url}`}>
                      Edit
                    </Button>
                    <ConfirmButton
                      color="indigo"
                      title="Send a test event"
                      message={`Send a test event to ${w.url}?`}
                      confirmLabel="Send"
                      aria-label={`Test ${w.url}`}
                      onConfirm={() =>
                        attempt(async () => {
                          await unwrap(api.POST('/webhooks/{id}/test', { params: { path: { id: w.id } }, body: {} }));
                          setNotice(`A test event was sent to ${w.url}; see the delivery log.`);
                        })
                      }
                    >
                      Test
                    </ConfirmButton>
                    <ConfirmButton
                      color="indigo"
                      title="Rotate the signing secret"
                      message="The old secret stops signing at once. Update your receiver with the new one."
                      confirmLabel="Rotate"
                      aria-label={`Rotate secret of ${w.url}`}
                      onConfirm={() =>
                        attempt(async () => {
                          const answer = await unwrap(api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id: w.id } } }));
                          setSecret({ url: w.url, secret: (answer as { secret: string }).secret });
                        })
                      }
                    >
                      Rotate secret
                    </ConfirmButton>
                    <ConfirmButton
                      title="Delete endpoint"
                      message={`Stop sending events to ${w.url}?`}
                      confirmLabel="Delete"
                      aria-label={`Delete ${w.url}`}
                      onConfirm={() =>
                        attempt(async () => {
                          await unwrap(api.DELETE('/webhooks/{id}', { params: { path: { id: w.id } } }));
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
        )}
      </QueryView>
      <FormModal
        title={editing === 'new' ? 'New webhook endpoint' : 'Edit webhook endpoint'}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        fields={[
          { name: 'url', label: 'URL', kind: 'url', required: true, description: 'HTTPS, on a public address.' },
          { name: 'events', label: 'Events', kind: 'multiselect', required: true, options: EVENT_OPTIONS },
          { name: 'description', label: 'Description' },
          { name: 'active', label: 'Active', kind: 'switch' },
        ]}
        initial={
          editing && editing !== 'new'
            ? { url: editing.url, events: editing.events, description: editing.description ?? '', active: editing.active }
            : { active: true, events: [] }
        }
        onSubmit={(v) =>
          attempt(async () => {
            if (editing === 'new') {
              const created = await unwrap(api.POST('/webhooks', { body: body(v) }));
              setSecret({ url: created.url, secret: created.secret });
            } else if (editing) await unwrap(api.PATCH('/webhooks/{id}', { params: { path: { id: editing.id } }, body: body(v) }));
            query.reload();
          })
        }
      />
    </Stack>
  );
}

export const webhooksPage: PageDefinition = {
  path: 'developers/webhooks',
  title: 'Webhook endpoints',
  area: 'developers',
  group: 'Developers',
  element: <WebhooksPage />,
};
