import { Anchor, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { unwrap, type Api, type JsonAnswer } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';
import { usePolling } from './common';

export type NewsletterPost = JsonAnswer<'getNewsletterPost'>;

/** The audience of a post: everyone subscribed, a tag, or a saved segment. */
export const audienceOf = (p: NewsletterPost, segments: { value: string; label: string }[]) =>
  p.segmentId ? `Segment: ${segments.find((s) => s.value === p.segmentId)?.label ?? p.segmentId}` : p.tag ? `Tag: ${p.tag}` : 'All subscribers';

export const loadSegments = async (api: Api) =>
  (await unwrap(api.GET('/newsletters/segments', { params: { query: { pageSize: 100 } } }))).data.map((s) => ({ value: s._id, label: s.name }));

/** Newsletter posts: compose, then preview and send from the post's page. */
export function NewsletterPostsPage() {
  const navigate = useNavigate();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors[cursors.length - 1];
  const query = useQuery(
    async (api) => ({
      posts: await unwrap(api.GET('/newsletters/posts', { params: { query: { limit: 20, ...(after ? { after } : {}) } } })),
      segments: await loadSegments(api),
    }),
    [after],
  );
  usePolling(
    (query.data?.posts.data ?? []).some((p) => p.status === 'sending'),
    query.reload,
    2000,
  );
  return (
    <Stack>
      <PageHeader
        title="Newsletter posts"
        description="Compose a post, preview it, then send it to every subscriber, a tag or a segment."
        actions={<Button onClick={() => navigate('/email/posts/new')}>New post</Button>}
      />
      <QueryView query={query}>
        {({ posts, segments }) => (
          <>
            <DataTable
              caption="Newsletter posts"
              rows={posts.data}
              rowKey={(p) => p._id}
              empty={{
                title: 'No posts yet',
                text: 'Write your first newsletter.',
                action: <Button onClick={() => navigate('/email/posts/new')}>Write your first post</Button>,
              }}
              columns={[
                {
                  key: 'subject',
                  header: 'Subject',
                  render: (p) => (
                    <Anchor component={Link} to={`/email/posts/${p._id}`}>
                      {p.subject}
                    </Anchor>
                  ),
                },
                { key: 'status', header: 'Status', phone: true, render: (p) => <StatusBadge status={p.status} /> },
                { key: 'audience', header: 'Audience', render: (p) => audienceOf(p, segments) },
                { key: 'sent', header: 'Sent', numeric: true, render: (p) => p.sent },
                { key: 'opened', header: 'Opened', numeric: true, render: (p) => p.opened },
                { key: 'clicked', header: 'Clicked', numeric: true, render: (p) => p.clicked },
                { key: 'when', header: 'When', render: (p) => formatDate(p.sentAt ?? p.sendAt ?? p.createdAt) },
              ]}
            />
            <CursorPager cursors={cursors} next={posts.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const newsletterPostsPage: PageDefinition = {
  path: 'email/posts',
  title: 'Newsletter posts',
  area: 'emails',
  group: 'Audience',
  element: <NewsletterPostsPage />,
};
