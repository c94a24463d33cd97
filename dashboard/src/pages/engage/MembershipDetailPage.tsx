import { Anchor, Badge, Button, Checkbox, Group, Paper, Select, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { unwrap, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CursorPager, DataTable } from '../../components/DataTable';
import { attempt, FormModal, text, type FormValues } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';
import { initialHtml } from '../../lib/compose';
import { usePolling, WorkProgress } from './common';

type Post = JsonAnswer<'listMemberPosts'>['data'][number];
type PostBody = JsonBody<'createMemberPost'>;
type Thread = JsonAnswer<'listCommunityThreads'>['data'][number];

const postBody = (v: FormValues, status: 'draft' | 'published'): PostBody => ({
  title: text(v.title) ?? '',
  html: initialHtml(text(v.html), null),
  status,
  notify: Boolean(v.notify),
  pinned: Boolean(v.pinned),
});

function PostsTab({ membershipId, memberCount }: { membershipId: string; memberCount: number }) {
  const { api } = useSession();
  const [status, setStatus] = useState<'draft' | 'published' | null>(null);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery(
    (api) =>
      unwrap(
        api.GET('/memberships/{id}/posts', {
          params: { path: { id: membershipId }, query: { limit: 20, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [membershipId, status, cursor],
  );
  const [editing, setEditing] = useState<Post | 'new' | null>(null);
  const [publish, setPublish] = useState(false);
  const notifying = (query.data?.data ?? []).filter((p) => p.notifyState === 'pending' || p.notifyState === 'sending');
  usePolling(notifying.length > 0, query.reload);
  const save = (v: FormValues) =>
    attempt(async () => {
      const target = publish ? 'published' : editing !== 'new' && editing ? editing.status : 'draft';
      if (editing === 'new') await unwrap(api.POST('/memberships/{id}/posts', { params: { path: { id: membershipId } }, body: postBody(v, target) }));
      else if (editing)
        await unwrap(api.PATCH('/memberships/{id}/posts/{postId}', { params: { path: { id: membershipId, postId: editing._id } }, body: postBody(v, target) }));
      query.reload();
    });
  const patch = (p: Post, body: Partial<PostBody>) =>
    attempt(async () => {
      await unwrap(api.PATCH('/memberships/{id}/posts/{postId}', { params: { path: { id: membershipId, postId: p._id } }, body }));
      query.reload();
    });
  const open = (p: Post | 'new', andPublish: boolean) => {
    setPublish(andPublish);
    setEditing(p);
  };
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          label="Status"
          placeholder="Any status"
          data={['draft', 'published']}
          value={status}
          onChange={(v) => {
            setStatus(v as typeof status);
            setCursors([undefined]);
          }}
          clearable
          w={200}
        />
        <Button onClick={() => open('new', false)}>New post</Button>
      </Group>
      {notifying.map((p) => (
        <WorkProgress key={p._id} label={`Emailing members: ${p.title}`} done={p.notifiedCount} total={memberCount} running />
      ))}
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Posts"
              rows={answer.data}
              rowKey={(p) => p._id}
              empty={{ title: 'No posts yet', text: 'Write the first members-only post.' }}
              columns={[
                {
                  key: 'title',
                  header: 'Title',
                  render: (p) => (
                    <Group gap={4}>
                      {p.pinned && (
                        <Badge size="xs" variant="outline">
                          pinned
                        </Badge>
                      )}
                      <Text size="sm">{p.title}</Text>
                    </Group>
                  ),
                },
                { key: 'status', header: 'Status', render: (p) => <StatusBadge status={p.status} /> },
                { key: 'notify', header: 'Emailed', render: (p) => (p.notifyState ? `${p.notifiedCount} (${p.notifyState})` : p.notify ? 'on publish' : '—') },
                { key: 'published', header: 'Published', render: (p) => formatDate(p.publishedAt) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (p) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => open(p, false)} aria-label={`Edit ${p.title}`}>
                        Edit
                      </Button>
                      {p.status === 'draft' ? (
                        <ConfirmButton
                          color="green"
                          title="Publish post"
                          message={p.notify ? 'Members see it now, and every active member is emailed once.' : 'Members see it now.'}
                          confirmLabel="Publish"
                          aria-label={`Publish ${p.title}`}
                          onConfirm={() => patch(p, { status: 'published' })}
                        >
                          Publish
                        </ConfirmButton>
                      ) : (
                        <ConfirmButton
                          color="gray"
                          title="Back to draft"
                          message="Members stop seeing it."
                          confirmLabel="Unpublish"
                          aria-label={`Unpublish ${p.title}`}
                          onConfirm={() => patch(p, { status: 'draft' })}
                        >
                          Unpublish
                        </ConfirmButton>
                      )}
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => patch(p, { pinned: !p.pinned })}
                        aria-label={`${p.pinned ? 'Unpin' : 'Pin'} ${p.title}`}
                      >
                        {p.pinned ? 'Unpin' : 'Pin'}
                      </Button>
                      <ConfirmButton
                        title="Delete post"
                        message={`Delete “${p.title}”?`}
                        confirmLabel="Delete"
                        aria-label={`Delete ${p.title}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/memberships/{id}/posts/{postId}', { params: { path: { id: membershipId, postId: p._id } } }));
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
        title={editing === 'new' ? 'New post' : 'Edit post'}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        initial={editing && editing !== 'new' ? { title: editing.title, html: editing.html, notify: editing.notify, pinned: editing.pinned } : { notify: true }}
        fields={[
          { name: 'title', label: 'Title', required: true },
          {
            name: 'html',
            label: 'Post',
            kind: 'textarea',
            required: true,
            description: 'Blank lines start new paragraphs. Formatting, links and images are kept; scripts are removed.',
          },
          { name: 'notify', label: 'Email active members when published', kind: 'switch' },
          { name: 'pinned', label: 'Pinned', kind: 'switch' },
        ]}
        submitLabel={publish ? 'Publish' : 'Save'}
        onSubmit={save}
      >
        {editing !== null && (editing === 'new' || editing.status === 'draft') && (
          <Checkbox label="Publish when saved" checked={publish} onChange={(e) => setPublish(e.currentTarget.checked)} />
        )}
      </FormModal>
    </Stack>
  );
}

function ThreadPanel({ membershipId, thread, onClose, onBan }: { membershipId: string; thread: Thread; onClose: () => void; onBan: (email: string) => void }) {
  const { api } = useSession();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery(
    (api) =>
      unwrap(
        api.GET('/memberships/{id}/threads/{threadId}', {
          params: { path: { id: membershipId, threadId: thread._id }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [thread._id, cursor],
  );
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Replies to “{thread.title}”
        </Title>
        <Button size="xs" variant="default" onClick={onClose}>
          Close replies
        </Button>
      </Group>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Replies"
              rows={answer.replies.data}
              rowKey={(r) => r._id}
              empty={{ title: 'No replies' }}
              columns={[
                { key: 'author', header: 'Author', render: (r) => r.author.email },
                {
                  key: 'body',
                  header: 'Reply',
                  render: (r) => (
                    <Text size="sm" lineClamp={3} td={r.hidden ? 'line-through' : undefined}>
                      {r.body}
                    </Text>
                  ),
                },
                {
                  key: 'state',
                  header: 'State',
                  render: (r) =>
                    r.hidden ? (
                      <Badge color="gray">hidden</Badge>
                    ) : (
                      <Badge color="green" variant="light">
                        visible
                      </Badge>
                    ),
                },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (r) => (
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`${r.hidden ? 'Show' : 'Hide'} reply by ${r.author.email}`}
                        onClick={async () => {
                          await attempt(() =>
                            unwrap(
                              api.PATCH('/memberships/{id}/threads/{threadId}/replies/{replyId}', {
                                params: { path: { id: membershipId, threadId: thread._id, replyId: r._id } },
                                body: { hidden: !r.hidden },
                              }),
                            ),
                          );
                          query.reload();
                        }}
                      >
                        {r.hidden ? 'Show' : 'Hide'}
                      </Button>
                      {r.author.role === 'member' && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => onBan(r.author.email)} aria-label={`Ban author ${r.author.email}`}>
                          Ban author
                        </Button>
                      )}
                      <ConfirmButton
                        title="Delete reply"
                        message="Delete this reply for good?"
                        confirmLabel="Delete"
                        aria-label={`Delete reply by ${r.author.email}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(
                              api.DELETE('/memberships/{id}/threads/{threadId}/replies/{replyId}', {
                                params: { path: { id: membershipId, threadId: thread._id, replyId: r._id } },
                              }),
                            );
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
            <CursorPager cursors={cursors} next={answer.replies.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Paper>
  );
}

function CommunityTab({ membershipId, enabled, onBan }: { membershipId: string; enabled: boolean; onBan: (email: string) => void }) {
  const { api } = useSession();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery(
    (api) => unwrap(api.GET('/memberships/{id}/threads', { params: { path: { id: membershipId }, query: { limit: 20, ...(cursor ? { cursor } : {}) } } })),
    [membershipId, cursor],
  );
  const [open, setOpen] = useState<Thread | null>(null);
  const [starting, setStarting] = useState(false);
  const moderate = (t: Thread, body: { hidden?: boolean; locked?: boolean; pinned?: boolean }) =>
    attempt(async () => {
      await unwrap(api.PATCH('/memberships/{id}/threads/{threadId}', { params: { path: { id: membershipId, threadId: t._id } }, body }));
      query.reload();
    });
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {enabled
            ? 'Moderation queue: every thread, hidden ones included, pinned first.'
            : 'The community is off for this membership; existing threads are listed for moderation.'}
        </Text>
        <Button variant="default" onClick={() => setStarting(true)}>
          Start a thread
        </Button>
      </Group>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Community threads"
              rows={answer.data}
              rowKey={(t) => t._id}
              empty={{ title: 'No threads yet', text: 'Threads that members start appear here for moderation.' }}
              columns={[
                {
                  key: 'title',
                  header: 'Thread',
                  render: (t) => (
                    <Text size="sm" td={t.hidden ? 'line-through' : undefined}>
                      {t.title}
                    </Text>
                  ),
                },
                { key: 'author', header: 'Author', render: (t) => `${t.author.email}${t.author.role === 'creator' ? ' (you)' : ''}` },
                { key: 'replies', header: 'Replies', numeric: true, render: (t) => t.replyCount },
                {
                  key: 'state',
                  header: 'State',
                  render: (t) => (
                    <Group gap={4}>
                      {t.hidden && <Badge color="gray">hidden</Badge>}
                      {t.locked && <Badge color="orange">locked</Badge>}
                      {t.pinned && <Badge variant="outline">pinned</Badge>}
                      {!t.hidden && !t.locked && !t.pinned && (
                        <Badge color="green" variant="light">
                          visible
                        </Badge>
                      )}
                    </Group>
                  ),
                },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (t) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setOpen(t)} aria-label={`Replies to ${t.title}`}>
                        Replies
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => moderate(t, { hidden: !t.hidden })}
                        aria-label={`${t.hidden ? 'Show' : 'Hide'} ${t.title}`}
                      >
                        {t.hidden ? 'Show' : 'Hide'}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => moderate(t, { locked: !t.locked })}
                        aria-label={`${t.locked ? 'Unlock' : 'Lock'} ${t.title}`}
                      >
                        {t.locked ? 'Unlock' : 'Lock'}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => moderate(t, { pinned: !t.pinned })}
                        aria-label={`${t.pinned ? 'Unpin' : 'Pin'} ${t.title}`}
                      >
                        {t.pinned ? 'Unpin' : 'Pin'}
                      </Button>
                      {t.author.role === 'member' && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => onBan(t.author.email)} aria-label={`Ban author ${t.author.email}`}>
                          Ban author
                        </Button>
                      )}
                      <ConfirmButton
                        title="Delete thread"
                        message="Delete the thread and its replies for good?"
                        confirmLabel="Delete"
                        aria-label={`Delete ${t.title}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/memberships/{id}/threads/{threadId}', { params: { path: { id: membershipId, threadId: t._id } } }));
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
      {open && <ThreadPanel membershipId={membershipId} thread={open} onClose={() => setOpen(null)} onBan={onBan} />}
      <FormModal
        title="Start a thread"
        opened={starting}
        onClose={() => setStarting(false)}
        fields={[
          { name: 'title', label: 'Title', required: true },
          { name: 'body', label: 'Message', kind: 'textarea', required: true },
        ]}
        onSubmit={(v) =>
          attempt(async () => {
            await unwrap(
              api.POST('/memberships/{id}/threads', { params: { path: { id: membershipId } }, body: { title: text(v.title) ?? '', body: text(v.body) ?? '' } }),
            );
            query.reload();
          })
        }
      />
    </Stack>
  );
}

function MembersTab({ membershipId }: { membershipId: string }) {
  const [status, setStatus] = useState<'active' | 'ended' | null>('active');
  const [q, setQ] = useState('');
  const [search] = useDebouncedValue(q.trim(), 300);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery(
    (api) =>
      unwrap(
        api.GET('/memberships/{id}/members', {
          params: {
            path: { id: membershipId },
            query: { limit: 25, ...(status ? { status } : {}), ...(search ? { q: search } : {}), ...(cursor ? { cursor } : {}) },
          },
        }),
      ),
    [membershipId, status, search, cursor],
  );
  return (
    <Stack>
      <Group align="flex-end">
        <Select
          label="Status"
          placeholder="Any status"
          data={['active', 'ended']}
          value={status}
          onChange={(v) => {
            setStatus(v as typeof status);
            setCursors([undefined]);
          }}
          clearable
          w={180}
        />
        <TextInput
          label="Email or name"
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setCursors([undefined]);
          }}
          w={280}
        />
      </Group>
      <QueryView query={query}>
        {(answer) => (
          <>
            <Text size="sm" c="dimmed">
              {answer.counts.active} active · {answer.counts.ended} ended · {answer.counts.all} in all
            </Text>
            <DataTable
              caption="Members"
              rows={answer.data}
              rowKey={(m) => m.email}
              empty={{ title: 'No members', text: search ? 'Nobody matches this search.' : 'Subscribers of the membership’s offers join automatically.' }}
              columns={[
                { key: 'email', header: 'Email', render: (m) => m.email },
                { key: 'name', header: 'Name', render: (m) => m.name ?? '—' },
                { key: 'status', header: 'Status', render: (m) => <StatusBadge status={m.status} /> },
                { key: 'joined', header: 'Joined', render: (m) => formatDate(m.joinedAt) },
                { key: 'left', header: 'Left', render: (m) => (m.leftAt ? `${formatDate(m.leftAt)} (${(m.leftReason ?? '').replace(/_/g, ' ')})` : '—') },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

function BansTab({ email, setEmail }: { email: string; setEmail: (email: string) => void }) {
  const [hideContent, setHideContent] = useState(true);
  const [done, setDone] = useState<string | null>(null);
  const ban = useMutation((api, body: { email: string; hideContent: boolean }) => unwrap(api.POST('/memberships/members/ban', { body })));
  const unban = useMutation((api, body: { email: string }) => unwrap(api.POST('/memberships/members/unban', { body })));
  const submit = async (event: FormEvent, action: 'ban' | 'unban') => {
    event.preventDefault();
    setDone(null);
    const answer = action === 'ban' ? await ban.run({ email: email.trim(), hideContent }) : await unban.run({ email: email.trim() });
    if (answer) setDone(action === 'ban' ? `${answer.email} is banned from every community of this store.` : `${answer.email} may write again.`);
  };
  return (
    <form onSubmit={(e) => submit(e, 'ban')} noValidate>
      <Stack maw={480}>
        <Text size="sm" c="dimmed">
          A ban applies to every membership of this store (this mode): the person is refused in the member area and cannot write.
        </Text>
        <TextInput label="Email of the person" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <Checkbox label="Also hide everything they wrote" checked={hideContent} onChange={(e) => setHideContent(e.currentTarget.checked)} />
        <FormError error={ban.error ?? unban.error} />
        {done && (
          <Text size="sm" role="status" c="green.8">
            {done}
          </Text>
        )}
        <Group>
          <Button type="submit" color="red" loading={ban.running}>
            Ban
          </Button>
          <Button variant="default" loading={unban.running} onClick={(e) => submit(e, 'unban')}>
            Lift ban
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One membership: posts (write, publish, notify progress), community moderation, members, bans. */
export function MembershipDetailPage() {
  const { id = '' } = useParams();
  const query = useQuery((api) => unwrap(api.GET('/memberships/{id}', { params: { path: { id } } })), [id]);
  const [tab, setTab] = useState<string | null>('posts');
  const [banEmail, setBanEmail] = useState('');
  const toBan = (email: string) => {
    setBanEmail(email);
    setTab('bans');
  };
  return (
    <Stack>
      <Anchor component={Link} to="/memberships" size="sm">
        ← Memberships
      </Anchor>
      <QueryView query={query}>
        {(m) => (
          <>
            <PageHeader
              title={m.name}
              description={
                <>
                  Status {m.status} · {m.memberCount ?? 0} active members · slug {m.slug}
                </>
              }
            />
            <Tabs value={tab} onChange={setTab} keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="posts">Posts</Tabs.Tab>
                <Tabs.Tab value="community">Moderation</Tabs.Tab>
                <Tabs.Tab value="members">Members</Tabs.Tab>
                <Tabs.Tab value="bans">Bans</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="posts" pt="md">
                <PostsTab membershipId={m._id} memberCount={m.memberCount ?? 0} />
              </Tabs.Panel>
              <Tabs.Panel value="community" pt="md">
                <CommunityTab membershipId={m._id} enabled={m.communityEnabled} onBan={toBan} />
              </Tabs.Panel>
              <Tabs.Panel value="members" pt="md">
                <MembersTab membershipId={m._id} />
              </Tabs.Panel>
              <Tabs.Panel value="bans" pt="md">
                <BansTab email={banEmail} setEmail={setBanEmail} />
              </Tabs.Panel>
            </Tabs>
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const membershipDetailPage: PageDefinition = {
  path: 'memberships/:id',
  title: 'Membership',
  area: 'products',
  group: 'Products',
  nav: false,
  element: <MembershipDetailPage />,
};
