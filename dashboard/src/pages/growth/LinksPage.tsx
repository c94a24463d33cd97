import { Anchor, Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CursorPager, DataTable } from '../../components/DataTable';
import { attempt, FormModal, text } from '../../components/FormModal';
import { Money, PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Link = JsonAnswer<'listTrackedLinks'>['data'][number];
type Channel = JsonBody<'createTrackedLink'>['channel'];
const CHANNELS: Channel[] = ['instagram', 'tiktok', 'youtube', 'x', 'facebook', 'email', 'ads', 'other'];

const stat = (l: Link, key: 'clicks' | 'visitors' | 'sales') => (l.stats.locked ? '—' : l.stats[key]);

export function LinksPage() {
  const { api } = useSession();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors[cursors.length - 1];
  const query = useQuery((a: Api) => unwrap(a.GET('/links', { params: { query: { limit: 25, ...(after ? { after } : {}) } } })), [after]);
  const [creating, setCreating] = useState(false);
  return (
    <Stack>
      <PageHeader
        title="Tracked links"
        description="Short links per channel: clicks, visitors, and the sales they bring."
        actions={<Button onClick={() => setCreating(true)}>New link</Button>}
      />
      <QueryView query={query}>
        {(answer) => (
          <>
            {answer.data.some((l) => l.stats.locked) && <Text size="sm">Visitor, sale and revenue figures need the Pro plan; links work on every plan.</Text>}
            <DataTable
              caption="Tracked links"
              rows={answer.data}
              rowKey={(l) => l._id}
              empty={{
                title: 'No tracked links yet',
                text: 'Create one per channel where you share your work.',
                action: <Button onClick={() => setCreating(true)}>Create a link</Button>,
              }}
              columns={[
                { key: 'name', header: 'Name', render: (l) => l.name },
                { key: 'channel', header: 'Channel', render: (l) => l.channel },
                {
                  key: 'url',
                  header: 'Short link',
                  render: (l) => (
                    <Group gap={4} wrap="nowrap">
                      <Anchor href={l.url} target="_blank" rel="noopener" size="sm">
                        {l.url}
                      </Anchor>
                      <CopyButton value={l.url}>
                        {({ copied, copy }) => (
                          <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy the link ${l.name}`}>
                            {copied ? 'Copied' : 'Copy'}
                          </Button>
                        )}
                      </CopyButton>
                    </Group>
                  ),
                },
                { key: 'clicks', header: 'Clicks', numeric: true, render: (l) => stat(l, 'clicks') },
                { key: 'visitors', header: 'Visitors', numeric: true, render: (l) => stat(l, 'visitors') },
                { key: 'sales', header: 'Sales', numeric: true, render: (l) => stat(l, 'sales') },
                { key: 'revenue', header: 'Revenue', numeric: true, render: (l) => (l.stats.locked ? '—' : <Money amount={l.stats.revenue} />) },
                { key: 'created', header: 'Created', render: (l) => formatDate(l.createdAt) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (l) => (
                    <ConfirmButton
                      title="Delete link"
                      message={`Delete "${l.name}"? The short address stops redirecting.`}
                      confirmLabel="Delete"
                      aria-label={`Delete ${l.name}`}
                      onConfirm={() =>
                        attempt(async () => {
                          await unwrap(api.DELETE('/links/{id}', { params: { path: { id: l._id } } }));
                          query.reload();
                        })
                      }
                    >
                      Delete
                    </ConfirmButton>
                  ),
                },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
      <FormModal
        title="New tracked link"
        opened={creating}
        onClose={() => setCreating(false)}
        submitLabel="Create link"
        fields={[
          { name: 'name', label: 'Name', required: true },
          { name: 'channel', label: 'Channel', kind: 'select', required: true, options: CHANNELS.map((c) => ({ value: c, label: c })) },
          { name: 'targetUrl', label: 'Sends people to', kind: 'url', required: true, description: 'An http or https address' },
        ]}
        initial={{ channel: 'instagram' }}
        onSubmit={(v) =>
          attempt(async () => {
            await unwrap(
              api.POST('/links', { body: { name: text(v.name) ?? '', channel: (text(v.channel) ?? 'other') as Channel, targetUrl: text(v.targetUrl) ?? '' } }),
            );
            query.reload();
          })
        }
      />
    </Stack>
  );
}

export const linksPage: PageDefinition = { path: 'links', title: 'Tracked links', area: 'marketing', group: 'Growth', element: <LinksPage /> };
