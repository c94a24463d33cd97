import { Alert, Badge, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type JsonAnswer } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, text } from '../../components/FormModal';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type CreatedKey = JsonAnswer<'createApiKey'>;

export function ApiKeysPage() {
  const { api, current } = useSession();
  const query = useQuery((api) => unwrap(api.GET('/api-keys')));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  return (
    <Stack>
      <PageHeader
        title="API keys"
        description={`Secret keys for the API in ${current?.mode ?? ''} mode. A key is shown once, when it is created.`}
        actions={<Button onClick={() => setCreating(true)}>New key</Button>}
      />
      {created && (
        <Alert
          color="blue"
          title="Copy your new key now"
          role="status"
          data-testid="new-key"
          withCloseButton
          closeButtonLabel="Hide the key"
          onClose={() => setCreated(null)}
        >
          <Stack gap="xs">
            <Text size="sm">This is the only time the key &ldquo;{created.name}&rdquo; is shown. Store it somewhere safe.</Text>
            <Group gap="xs">
              <Code data-testid="new-key-secret">{created.key}</Code>
              <CopyButton value={created.key}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <QueryView query={query}>
        {({ data }) => (
          <DataTable
            caption="API keys"
            rows={data}
            rowKey={(k) => k.id}
            columns={[
              { key: 'name', header: 'Name', render: (k) => k.name ?? '(unnamed)' },
              { key: 'prefix', header: 'Key', render: (k) => <Code>{k.prefix}…</Code> },
              { key: 'created', header: 'Created', render: (k) => formatDate(k.createdAt) },
              {
                key: 'status',
                header: 'Status',
                render: (k) =>
                  k.revokedAt ? (
                    <Badge color="gray" variant="dot">
                      revoked {formatDate(k.revokedAt)}
                    </Badge>
                  ) : (
                    <Badge color="green" variant="dot">
                      active
                    </Badge>
                  ),
              },
              {
                key: 'actions',
                header: 'Actions',
                render: (k) =>
                  !k.revokedAt && (
                    <ConfirmButton
                      title="Revoke key"
                      message={`Revoke "${k.name ?? k.prefix}"? Anything using it stops working at once.`}
                      confirmLabel="Revoke"
                      aria-label={`Revoke ${k.name ?? k.prefix}`}
                      onConfirm={() =>
                        attempt(async () => {
                          await unwrap(api.DELETE('/api-keys/{id}', { params: { path: { id: k.id } } }));
                          query.reload();
                        })
                      }
                    >
                      Revoke
                    </ConfirmButton>
                  ),
              },
            ]}
          />
        )}
      </QueryView>
      <FormModal
        title="New API key"
        opened={creating}
        onClose={() => setCreating(false)}
        fields={[{ name: 'name', label: 'Name', required: true, description: 'What uses this key, e.g. "Website backend".' }]}
        submitLabel="Create key"
        onSubmit={(v) =>
          attempt(async () => {
            setCreated(await unwrap(api.POST('/api-keys', { body: { name: text(v.name) ?? '' } })));
            query.reload();
          })
        }
      />
    </Stack>
  );
}

export const apiKeysPage: PageDefinition = { path: 'developers/api-keys', title: 'API keys', area: 'admin', group: 'Developers', element: <ApiKeysPage /> };
