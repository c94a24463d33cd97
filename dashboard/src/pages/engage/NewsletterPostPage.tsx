import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { unwrap } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { attempt } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { previewDocument } from '../../lib/compose';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';
import { Stat, usePolling, WorkProgress } from './common';
import { audienceOf, loadSegments } from './NewsletterPostsPage';
import { audienceOfPost, recipientCount } from './composer/audience';

/** One newsletter post: preview, edit (draft or failed), send now or schedule, and the send's progress. */
export function NewsletterPostPage() {
  const { id = '' } = useParams();
  const { api } = useSession();
  const navigate = useNavigate();
  const query = useQuery(
    async (api) => {
      const [post, segments] = await Promise.all([unwrap(api.GET('/newsletters/posts/{id}', { params: { path: { id } } })), loadSegments(api)]);
      // How many the send aims at (the audience's subscribed contacts now), for "Send now" and the bar.
      const target = await recipientCount(api, audienceOfPost(post)).catch(() => null);
      return { post, segments, target };
    },
    [id],
  );
  usePolling(query.data?.post.status === 'sending', query.reload, 1500);
  const [sendAt, setSendAt] = useState('');
  const schedule = useMutation((api, at: string) =>
    unwrap(api.POST('/newsletters/posts/{id}/schedule', { params: { path: { id } }, body: { sendAt: new Date(at).toISOString() } })),
  );
  return (
    <Stack>
      <Anchor component={Link} to="/email/posts" size="sm">
        ← Newsletter posts
      </Anchor>
      <QueryView query={query}>
        {({ post, segments, target }) => {
          const editable = post.status === 'draft' || post.status === 'failed';
          return (
            <>
              <PageHeader
                title={post.subject}
                description={
                  <>
                    {audienceOf(post, segments)} · created {formatDate(post.createdAt)}
                  </>
                }
                actions={
                  <>
                    <StatusBadge status={post.status} />
                    {editable && (
                      <Button variant="default" component={Link} to={`/email/posts/${id}/edit`}>
                        Edit
                      </Button>
                    )}
                    {(editable || post.status === 'scheduled') && (
                      <ConfirmButton
                        color="blue"
                        variant="filled"
                        size="sm"
                        title="Send now"
                        message={`Send “${post.subject}” to ${target === null ? audienceOf(post, segments).toLowerCase() : target === 1 ? '1 subscriber' : `${target} subscribers`} now? Each gets it once; it cannot be taken back.`}
                        confirmLabel="Send now"
                        onConfirm={() =>
                          attempt(async () => {
                            query.set({ ...query.data!, post: await unwrap(api.POST('/newsletters/posts/{id}/send', { params: { path: { id } } })) });
                          })
                        }
                      >
                        Send now
                      </ConfirmButton>
                    )}
                    {post.status !== 'sending' && (
                      <ConfirmButton
                        title="Delete post"
                        message="Delete this post?"
                        confirmLabel="Delete"
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/newsletters/posts/{id}', { params: { path: { id } } }));
                            navigate('/email/posts');
                          })
                        }
                      >
                        Delete
                      </ConfirmButton>
                    )}
                  </>
                }
              />
              {post.failureReason && (
                <Alert color="red" title="The send failed">
                  {post.failureReason}
                </Alert>
              )}
              {(post.status === 'sending' || post.status === 'sent') && (
                <WorkProgress
                  label={post.status === 'sending' ? 'Sending' : 'Sent'}
                  done={post.sent}
                  total={post.status === 'sent' ? Math.max(post.sent, 1) : target}
                  running={post.status === 'sending'}
                />
              )}
              <SimpleGrid cols={{ base: 3 }}>
                <Stat label="Sent" value={post.sent} />
                <Stat label="Opened" value={post.opened} />
                <Stat label="Clicked" value={post.clicked} />
              </SimpleGrid>
              {post.status === 'scheduled' && (
                <Group>
                  <Text size="sm">Scheduled for {formatDate(post.sendAt)}.</Text>
                  <ConfirmButton
                    color="gray"
                    title="Cancel the schedule"
                    message="The post becomes a draft again."
                    confirmLabel="Cancel schedule"
                    onConfirm={() =>
                      attempt(async () => {
                        query.set({ ...query.data!, post: await unwrap(api.DELETE('/newsletters/posts/{id}/schedule', { params: { path: { id } } })) });
                      })
                    }
                  >
                    Cancel schedule
                  </ConfirmButton>
                </Group>
              )}
              {editable && (
                <form
                  onSubmit={async (e) => {
                    e.preventDefault();
                    const answer = await schedule.run(sendAt);
                    if (answer) query.set({ ...query.data!, post: answer });
                  }}
                  noValidate
                >
                  <Group align="flex-end">
                    <TextInput label="Schedule for" type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.currentTarget.value)} required />
                    <Button type="submit" variant="default" loading={schedule.running} disabled={!sendAt}>
                      Schedule
                    </Button>
                  </Group>
                  <FormError error={schedule.error} />
                </form>
              )}
              <Title order={2} size="h4">
                Preview
              </Title>
              <Paper withBorder p={0} style={{ overflow: 'hidden' }}>
                {post.html ? (
                  <iframe
                    title="Email preview"
                    sandbox=""
                    srcDoc={previewDocument(post.subject, post.html)}
                    style={{ width: '100%', minHeight: 360, border: 0, background: 'white' }}
                  />
                ) : (
                  <Text p="md" style={{ whiteSpace: 'pre-wrap' }}>
                    {post.text ?? 'No body yet.'}
                  </Text>
                )}
              </Paper>
              <Text size="xs" c="dimmed">
                Every mail also gets the footer, the physical address and a per-recipient unsubscribe link.
              </Text>
            </>
          );
        }}
      </QueryView>
    </Stack>
  );
}

export const newsletterPostPage: PageDefinition = {
  path: 'email/posts/:id',
  title: 'Newsletter post',
  area: 'emails',
  group: 'Audience',
  nav: false,
  element: <NewsletterPostPage />,
};
