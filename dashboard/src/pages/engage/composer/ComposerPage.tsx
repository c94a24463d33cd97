import { Alert, Anchor, Button, Grid, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { unwrap, type Api, type JsonAnswer } from '../../../api/client';
import { PageHeader } from '../../../components/Page';
import { FormError, QueryView } from '../../../components/states';
import { cleanHtml, hasWords, initialHtml, previewDocument } from '../../../lib/compose';
import { useMutation, useQuery } from '../../../lib/hooks';
import { useSession } from '../../../session';
import type { PageDefinition } from '../../types';
import { loadSegments } from '../NewsletterPostsPage';
import { audienceOfPost, recipientCount, type Audience } from './audience';
import { RichTextEditor } from './RichTextEditor';

type Post = JsonAnswer<'getNewsletterPost'>;

interface Draft {
  subject: string;
  preview: string;
  html: string;
  audience: Audience;
}

const draftOf = (post: Post | null): Draft => ({
  subject: post?.subject ?? '',
  preview: post?.preview ?? '',
  html: initialHtml(post?.html, post?.text),
  audience: post ? audienceOfPost(post) : { kind: 'all' },
});

/** "3 subscribers will get it" for the audience picked, read again when it changes. */
function RecipientCount({ audience }: { audience: Audience }) {
  const key = JSON.stringify(audience);
  const count = useQuery((api) => recipientCount(api, audience), [key]);
  return (
    <Text size="sm" data-testid="recipient-count" aria-live="polite">
      {count.loading
        ? 'Counting recipients…'
        : count.error
          ? `Could not count the recipients: ${count.error.message}`
          : count.data === null || count.data === undefined
            ? 'Pick who gets it.'
            : count.data === 1
              ? '1 subscriber will get it.'
              : `${count.data} subscribers will get it.`}
    </Text>
  );
}

function Composer({ post, segments }: { post: Post | null; segments: { value: string; label: string }[] }) {
  const { session } = useSession();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(() => draftOf(post));
  const [tested, setTested] = useState<string | null>(null);
  const body = () => {
    const html = cleanHtml(draft.html);
    const a = draft.audience;
    return {
      subject: draft.subject.trim(),
      preview: draft.preview.trim() || null,
      html: html || null,
      text: null,
      tag: a.kind === 'tag' ? a.tag.trim() || null : null,
      segmentId: a.kind === 'segment' ? a.segmentId || null : null,
    };
  };
  const save = useMutation(async (api: Api) =>
    post
      ? unwrap(api.PATCH('/newsletters/posts/{id}', { params: { path: { id: post._id } }, body: body() }))
      : unwrap(api.POST('/newsletters/posts', { body: body() })),
  );
  const test = useMutation(async (api: Api) =>
    unwrap(
      api.POST('/newsletters/send', {
        body: {
          to: session!.email,
          subject: `[Test] ${draft.subject.trim() || 'Untitled'}`,
          html: cleanHtml(draft.html) || '<p></p>',
          ...(draft.preview.trim() ? { preview: draft.preview.trim() } : {}),
        },
      }),
    ),
  );
  // A change after a test send makes the "test sent" note stale.
  const set = (patch: Partial<Draft>) => {
    setTested(null);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const a = draft.audience;
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const saved = await save.run();
        if (saved) navigate(`/email/posts/${saved._id}`);
      }}
    >
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <TextInput label="Subject" required value={draft.subject} onChange={(e) => set({ subject: e.currentTarget.value })} />
            <TextInput
              label="Preview text"
              description="Shown after the subject in most inboxes."
              value={draft.preview}
              onChange={(e) => set({ preview: e.currentTarget.value })}
            />
            <RichTextEditor label="Your message" html={draft.html} onChange={(html) => set({ html })} />
            <Stack gap={6}>
              <Text size="sm" fw={500} id="send-to-label">
                Send to
              </Text>
              <SegmentedControl
                aria-labelledby="send-to-label"
                value={a.kind}
                onChange={(kind) =>
                  set({ audience: kind === 'tag' ? { kind, tag: '' } : kind === 'segment' ? { kind, segmentId: segments[0]?.value ?? '' } : { kind: 'all' } })
                }
                data={[
                  { value: 'all', label: 'All subscribers' },
                  { value: 'tag', label: 'People with a tag' },
                  { value: 'segment', label: 'A saved segment', disabled: !segments.length },
                ]}
                w="fit-content"
              />
              {a.kind === 'tag' && (
                <TextInput label="Tag" value={a.tag} onChange={(e) => set({ audience: { kind: 'tag', tag: e.currentTarget.value } })} maw={320} />
              )}
              {a.kind === 'segment' && (
                <Select
                  label="Segment"
                  data={segments}
                  value={a.segmentId}
                  onChange={(v) => set({ audience: { kind: 'segment', segmentId: v ?? '' } })}
                  allowDeselect={false}
                  maw={320}
                />
              )}
              <RecipientCount audience={a} />
            </Stack>
            <FormError error={save.error ?? test.error} />
            {tested && (
              <Alert color="green" variant="light" role="status" data-testid="test-sent">
                A test was sent to {tested}. It is marked [Test] and goes to you alone.
              </Alert>
            )}
            <Group justify="space-between">
              <Button
                variant="default"
                loading={test.running}
                disabled={!hasWords(draft.html)}
                onClick={async () => {
                  const sent = await test.run();
                  if (sent) setTested(session!.email);
                }}
              >
                Send a test to me
              </Button>
              <Button type="submit" loading={save.running}>
                {post ? 'Save changes' : 'Save draft'}
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              You send it to everyone from the next page, after a last look and the number of recipients.
            </Text>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Title order={2} size="h5" mb={6}>
            Preview
          </Title>
          <Paper withBorder p={0} style={{ overflow: 'hidden' }}>
            <iframe
              title="Email preview"
              sandbox=""
              srcDoc={previewDocument(draft.subject, cleanHtml(draft.html))}
              style={{ width: '100%', minHeight: 420, border: 0, background: 'white' }}
            />
          </Paper>
          <Text size="xs" c="dimmed" mt={6}>
            Every mail also gets your footer, your postal address and an unsubscribe link.
          </Text>
        </Grid.Col>
      </Grid>
    </form>
  );
}

/** Writes a new post, or changes a draft: rich text, preview, a test to yourself, the audience and its size. */
export function ComposerPage() {
  const { id } = useParams();
  const query = useQuery(
    async (api) => ({ post: id ? await unwrap(api.GET('/newsletters/posts/{id}', { params: { path: { id } } })) : null, segments: await loadSegments(api) }),
    [id],
  );
  return (
    <Stack>
      <Anchor component={Link} to={id ? `/email/posts/${id}` : '/email/posts'} size="sm">
        ← {id ? 'Back to the post' : 'Newsletter posts'}
      </Anchor>
      <PageHeader title={id ? 'Edit post' : 'New post'} />
      <QueryView query={query}>{({ post, segments }) => <Composer post={post} segments={segments} />}</QueryView>
    </Stack>
  );
}

export const newPostPage: PageDefinition = {
  path: 'email/posts/new',
  title: 'New post',
  area: 'emails',
  group: 'Audience',
  nav: false,
  element: <ComposerPage />,
};
export const editPostPage: PageDefinition = {
  path: 'email/posts/:id/edit',
  title: 'Edit post',
  area: 'emails',
  group: 'Audience',
  nav: false,
  element: <ComposerPage />,
};
