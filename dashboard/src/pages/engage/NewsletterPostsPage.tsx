import { Anchor, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { attempt, FormModal, text, type Field, type FormValues } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';
import { usePolling } from './common';

export type NewsletterPost = JsonAnswer<'getNewsletterPost'>;
type PostBody = JsonBody<'createNewsletterPost'>;

/** The audience of a post: everyone subscribed, a tag, or a saved segment. */
export const audienceOf = (p: NewsletterPost, segments: { value: string; label: string }[]) => (p.segmentId ? `Segment: ${segments.find((s) => s.value === p.segmentId)?.label ?? p.segmentId}` : p.tag ? `Tag: ${p.tag}` : 'All subscribers');

export const loadSegments = async (api: Api) => (await unwrap(api.GET('/newsletters/segments', { params: { query: { pageSize: 100 } } }))).data.map((s) => ({ value: s._id, label: s.name }));

export const postFields = (segments: { value: string; label: string }[]): Field[] => [
  { name: 'subject', label: 'Subject', required: true },
  { name: 'preview', label: 'Preview text', description: 'Shown after the subject in most inboxes.' },
  { name: 'html', label: 'Body (HTML)', kind: 'textarea' },
  { name: 'text', label: 'Plain-text body', kind: 'textarea', description: 'Optional; derived from the HTML when left empty.' },
  { name: 'audience', label: 'Send to', kind: 'select', required: true, options: [{ value: 'all', label: 'All subscribers' }, { value: 'tag', label: 'Contacts with a tag' }, { value: 'segment', label: 'A saved segment' }] },
  { name: 'tag', label: 'Tag (when sending to a tag)' },
  { name: 'segmentId', label: 'Segment (when sending to a segment)', kind: 'select', options: segments },
];

export const postBody = (v: FormValues): PostBody => ({
  subject: text(v.subject) ?? '',
  preview: text(v.preview) ?? null,
  html: text(v.html) ?? null,
  text: text(v.text) ?? null,
  tag: v.audience === 'tag' ? (text(v.tag) ?? null) : null,
  segmentId: v.audience === 'segment' ? (text(v.segmentId) ?? null) : null,
});

export const postValues = (p: NewsletterPost): FormValues => ({ subject: p.subject, preview: p.preview ?? '', html: p.html ?? '', text: p.text ?? '', audience: p.segmentId ? 'segment' : p.tag ? 'tag' : 'all', tag: p.tag ?? '', segmentId: p.segmentId });

/** Newsletter posts: compose, then preview and send from the post's page. */
export function NewsletterPostsPage() {
  const { api } = useSession();
  const navigate = useNavigate();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors[cursors.length - 1];
  const query = useQuery(async (api) => ({ posts: await unwrap(api.GET('/newsletters/posts', { params: { query: { limit: 20, ...(after ? { after } : {}) } } })), segments: await loadSegments(api) }), [after]);
  usePolling((query.data?.posts.data ?? []).some((p) => p.status === 'sending'), query.reload, 2000);
  const [composing, setComposing] = useState(false);
  const create = (v: FormValues) =>
    attempt(async () => {
      const post = await unwrap(api.POST('/newsletters/posts', { body: postBody(v) }));
      navigate(`/email/posts/${post._id}`);
    });
  return (
    <Stack>
      <PageHeader title="Newsletter posts" description="Compose a post, preview it, then send it to every subscriber, a tag or a segment." actions={<Button onClick={() => setComposing(true)}>New post</Button>} />
      <QueryView query={query}>
        {({ posts, segments }) => (
          <>
            <DataTable
              caption="Newsletter posts"
              rows={posts.data}
              rowKey={(p) => p._id}
              empty={{ title: 'No posts yet', text: 'Write your first newsletter.', action: <Button onClick={() => setComposing(true)}>New post</Button> }}
              columns={[
                { key: 'subject', header: 'Subject', render: (p) => <Anchor component={Link} to={`/email/posts/${p._id}`}>{p.subject}</Anchor> },
                { key: 'status', header: 'Status', render: (p) => <StatusBadge status={p.status} /> },
                { key: 'audience', header: 'Audience', render: (p) => audienceOf(p, segments) },
                { key: 'sent', header: 'Sent', numeric: true, render: (p) => p.sent },
                { key: 'opened', header: 'Opened', numeric: true, render: (p) => p.opened },
                { key: 'clicked', header: 'Clicked', numeric: true, render: (p) => p.clicked },
                { key: 'when', header: 'When', render: (p) => formatDate(p.sentAt ?? p.sendAt ?? p.createdAt) },
              ]}
            />
            <CursorPager cursors={cursors} next={posts.nextCursor} onChange={setCursors} />
            <FormModal title="New post" opened={composing} onClose={() => setComposing(false)} initial={{ audience: 'all' }} fields={postFields(segments)} submitLabel="Save draft" onSubmit={create} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const newsletterPostsPage: PageDefinition = { path: 'email/posts', title: 'Newsletter posts', area: 'emails', group: 'Audience', element: <NewsletterPostsPage /> };
