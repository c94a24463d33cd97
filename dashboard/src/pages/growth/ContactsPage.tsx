import { Badge, Button, CloseButton, Group, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CursorPager, DataTable } from '../../components/DataTable';
import { attempt, FormModal, list, text } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Contact = JsonAnswer<'listNewsletterSubscribers'>['data'][number];
type Status = NonNullable<NonNullable<JsonBody<'createNewsletterSubscriber'>['status']>>;
const STATUSES = ['subscribed', 'unsubscribed', 'bounced', 'complained'] as const;

export function ContactsPage() {
  const { api } = useSession();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [tag, setTag] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors[cursors.length - 1];
  const query = useQuery(
    (a: Api) =>
      unwrap(
        a.GET('/newsletters/subscribers', {
          params: {
            query: {
              limit: 50,
              ...(after ? { after } : {}),
              ...(q ? { q } : {}),
              ...(status ? { status: status as (typeof STATUSES)[number] } : {}),
              ...(tag.trim() ? { tag: tag.trim() } : {}),
            },
          },
        }),
      ),
    [after, q, status, tag],
  );
  const [adding, setAdding] = useState(false);
  const [tagging, setTagging] = useState<Contact | null>(null);
  const restart = () => setCursors([undefined]);
  const removeTag = (c: Contact, t: string) =>
    attempt(async () => {
      await unwrap(api.POST('/newsletters/subscribers/{id}/tags/remove', { params: { path: { id: c._id } }, body: { tags: [t] } }));
      query.reload();
    });
  return (
    <Stack>
      <PageHeader
        title="Contacts"
        description="Your audience: newsletter contacts, with their tags and how they joined."
        actions={<Button onClick={() => setAdding(true)}>Add contact</Button>}
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setQ(search.trim());
          restart();
        }}
      >
        <Group align="flex-end">
          <TextInput label="Email starts with" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          <Button type="submit" variant="default">
            Search
          </Button>
          <Select
            label="Status"
            data={[...STATUSES]}
            value={status}
            onChange={(v) => {
              setStatus(v);
              restart();
            }}
            clearable
            placeholder="Any"
            maw={180}
          />
          <TextInput
            label="Tag"
            value={tag}
            onChange={(e) => {
              setTag(e.currentTarget.value);
              restart();
            }}
            maw={180}
          />
        </Group>
      </form>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Contacts"
              rows={answer.data}
              rowKey={(c) => c._id}
              empty={{
                title: q || status || tag ? 'Nobody matches' : 'No contacts yet',
                text: q || status || tag ? 'Try other filters.' : 'Contacts arrive from signup forms, checkouts, imports and the API.',
              }}
              columns={[
                { key: 'email', header: 'Email', render: (c) => c.email },
                { key: 'name', header: 'Name', render: (c) => c.name ?? '—' },
                { key: 'status', header: 'Status', render: (c) => <StatusBadge status={c.status} /> },
                { key: 'source', header: 'Joined through', render: (c) => c.source ?? '—' },
                {
                  key: 'tags',
                  header: 'Tags',
                  render: (c) => (
                    <Group gap={4}>
                      {c.tags.map((t) => (
                        <Badge
                          key={t}
                          variant="outline"
                          rightSection={<CloseButton size="xs" aria-label={`Remove tag ${t} from ${c.email}`} onClick={() => void removeTag(c, t)} />}
                        >
                          {t}
                        </Badge>
                      ))}
                      {c.smartTags.map((t) => (
                        <Badge key={`smart-${t}`} variant="light" title="Smart tag from a segment">
                          {t}
                        </Badge>
                      ))}
                    </Group>
                  ),
                },
                { key: 'created', header: 'Added', render: (c) => formatDate(c.createdAt) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (c) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setTagging(c)} aria-label={`Add tags to ${c.email}`}>
                        Add tags
                      </Button>
                      <ConfirmButton
                        title="Delete contact"
                        message={`Delete ${c.email} and their history?`}
                        confirmLabel="Delete"
                        aria-label={`Delete ${c.email}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/newsletters/subscribers/{id}', { params: { path: { id: c._id } } }));
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
            <CursorPager cursors={cursors} next={answer.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
      <FormModal
        title="Add contact"
        opened={adding}
        onClose={() => setAdding(false)}
        submitLabel="Add contact"
        fields={[
          { name: 'email', label: 'Email', kind: 'email', required: true },
          { name: 'name', label: 'Name' },
          { name: 'tags', label: 'Tags', kind: 'tags' },
          {
            name: 'status',
            label: 'Status',
            kind: 'select',
            required: true,
            options: [
              { value: 'subscribed', label: 'Subscribed' },
              { value: 'unsubscribed', label: 'Unsubscribed' },
            ],
          },
        ]}
        initial={{ status: 'subscribed', tags: [] }}
        onSubmit={(v) =>
          attempt(async () => {
            await unwrap(
              api.POST('/newsletters/subscribers', {
                body: {
                  email: text(v.email) ?? '',
                  name: text(v.name) ?? null,
                  tags: list(v.tags),
                  status: (text(v.status) ?? 'subscribed') as Status,
                  source: 'dashboard',
                },
              }),
            );
            query.reload();
          })
        }
      />
      <FormModal
        title={`Add tags to ${tagging?.email ?? ''}`}
        opened={tagging !== null}
        onClose={() => setTagging(null)}
        submitLabel="Add tags"
        fields={[{ name: 'tags', label: 'Tags', kind: 'tags', required: true }]}
        initial={{ tags: [] }}
        onSubmit={(v) =>
          attempt(async () => {
            await unwrap(api.POST('/newsletters/subscribers/{id}/tags', { params: { path: { id: tagging!._id } }, body: { tags: list(v.tags) } }));
            query.reload();
          })
        }
      />
    </Stack>
  );
}

export const contactsPage: PageDefinition = { path: 'contacts', title: 'Contacts', area: 'emails', group: 'Audience', element: <ContactsPage /> };
