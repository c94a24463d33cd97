import { Anchor, Button, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { unwrap, type Api, type JsonAnswer } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, text } from '../../components/FormModal';
import { Money, PageHeader, StatusBadge } from '../../components/Page';
import { ErrorState, QueryView } from '../../components/states';
import { ApiFailure } from '../../api/client';
import { useQuery } from '../../lib/hooks';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';
import { funnelActions } from './FunnelsPage';
import { pct, Stat } from './common';

type Post = JsonAnswer<'getNewsletterPost'>;
type Step = JsonAnswer<'getAutomation'>['steps'][number];

const load = (id: string) => async (api: Api) => {
  const funnel = await unwrap(api.GET('/funnels/{id}', { params: { path: { id } } }));
  const [stats, automation, posts] = await Promise.all([
    unwrap(api.GET('/funnels/{id}/stats', { params: { path: { id } } })),
    unwrap(api.GET('/automations/{id}', { params: { path: { id: funnel.automationId } } })).catch((e: ApiFailure) => e),
    Promise.all(funnel.emailPostIds.map((postId) => unwrap(api.GET('/newsletters/posts/{id}', { params: { path: { id: postId } } })).catch(() => null))),
  ]);
  return { funnel, stats, automation, posts: new Map(posts.filter((p): p is Post => p !== null).map((p) => [p._id, p])) };
};

const describeStep = (step: Step, posts: Map<string, Post>) =>
  'postId' in step ? `Send “${posts.get(step.postId)?.subject ?? step.postId}”` : 'hours' in step ? `Wait ${step.hours} h` : 'Only contacts in a segment go on';

/** One funnel: its steps (the automation's waits and emails, each email editable) and stats per step. */
export function FunnelDetailPage() {
  const { id = '' } = useParams();
  const { api } = useSession();
  const query = useQuery(load(id), [id]);
  const [editing, setEditing] = useState<Post | null>(null);
  return (
    <Stack>
      <Anchor component={Link} to="/funnels" size="sm">
        ← Funnels
      </Anchor>
      <QueryView query={query}>
        {({ funnel, stats, automation, posts }) => {
          const { stages, totals } = stats;
          const stageRows = [
            { step: 'Leads', count: stages.leads },
            { step: 'Opened an email', count: stages.opened },
            { step: 'Clicked', count: stages.clicked },
            { step: 'Bought the offer', count: stages.bought },
          ];
          return (
            <>
              <PageHeader
                title={funnel.name}
                description={
                  <>
                    Tag <code>{funnel.tag}</code>
                    {funnel.discountCode ? (
                      <>
                        {' '}
                        · discount code <code>{funnel.discountCode}</code>
                      </>
                    ) : null}
                  </>
                }
                actions={
                  <>
                    <StatusBadge status={funnel.status} />
                    <ConfirmButton
                      color={funnel.status === 'active' ? 'yellow' : 'green'}
                      title={funnel.status === 'active' ? 'Pause funnel' : 'Activate funnel'}
                      message={funnel.status === 'active' ? 'New leads stop entering.' : 'Leads enter the sequence from now on.'}
                      confirmLabel={funnel.status === 'active' ? 'Pause' : 'Activate'}
                      onConfirm={funnelActions(api, funnel, query.reload).toggle}
                    >
                      {funnel.status === 'active' ? 'Pause' : 'Activate'}
                    </ConfirmButton>
                  </>
                }
              />
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Stat label="Leads" value={totals.leads} />
                <Stat label="Emails sent" value={totals.emailsSent} />
                <Stat label="Buyers" value={totals.buyers} />
                <Stat label="Revenue" value={<Money amount={totals.revenue} currency={totals.currency} />} />
              </SimpleGrid>
              <Title order={2} size="h4">
                Stats per step
              </Title>
              <Text size="sm" c="dimmed">
                Purchases within {stats.attributionWindowDays} days of entering, refunds excluded. Conversion {pct(totals.conversionRate)}.
              </Text>
              <DataTable
                caption="Funnel stages"
                rows={stageRows}
                rowKey={(r) => r.step}
                columns={[
                  { key: 'step', header: 'Stage', render: (r) => r.step },
                  { key: 'count', header: 'People', numeric: true, render: (r) => r.count },
                  {
                    key: 'bar',
                    header: 'Of leads',
                    render: (r) => (
                      <Progress
                        value={stages.leads ? (r.count / stages.leads) * 100 : 0}
                        aria-label={`${r.step}: ${stages.leads ? Math.round((r.count / stages.leads) * 100) : 0}% of leads`}
                        w={160}
                      />
                    ),
                  },
                ]}
              />
              <DataTable
                caption="Emails of the sequence"
                rows={stats.emails}
                rowKey={(e) => e.postId}
                empty={{ title: 'No emails in this funnel' }}
                columns={[
                  { key: 'subject', header: 'Email', render: (e) => e.subject ?? posts.get(e.postId)?.subject ?? e.postId },
                  { key: 'sent', header: 'Sent', numeric: true, render: (e) => e.sent },
                  { key: 'opened', header: 'Opened', numeric: true, render: (e) => e.opened },
                  { key: 'clicked', header: 'Clicked', numeric: true, render: (e) => e.clicked },
                  {
                    key: 'edit',
                    header: 'Edit',
                    render: (e) =>
                      posts.get(e.postId) ? (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setEditing(posts.get(e.postId)!)}
                          aria-label={`Edit email ${posts.get(e.postId)!.subject}`}
                        >
                          Edit email
                        </Button>
                      ) : (
                        '—'
                      ),
                  },
                ]}
              />
              <Title order={2} size="h4">
                Steps
              </Title>
              {automation instanceof ApiFailure ? (
                <ErrorState error={automation} onRetry={query.reload} />
              ) : (
                <DataTable
                  caption="Automation steps"
                  rows={automation.steps.map((s, i) => ({ s, i }))}
                  rowKey={(r) => String(r.i)}
                  empty={{ title: 'No steps' }}
                  columns={[
                    { key: 'n', header: '#', numeric: true, render: (r) => r.i + 1 },
                    { key: 'step', header: 'Step', render: (r) => describeStep(r.s, posts) },
                  ]}
                />
              )}
              <FormModal
                title="Edit email"
                opened={editing !== null}
                onClose={() => setEditing(null)}
                initial={editing ? { subject: editing.subject, preview: editing.preview ?? '', html: editing.html ?? '' } : {}}
                fields={[
                  { name: 'subject', label: 'Subject', required: true },
                  { name: 'preview', label: 'Preview text' },
                  { name: 'html', label: 'Body (HTML)', kind: 'textarea' },
                ]}
                onSubmit={(v) =>
                  attempt(async () => {
                    await unwrap(
                      api.PATCH('/newsletters/posts/{id}', {
                        params: { path: { id: editing!._id } },
                        body: { subject: text(v.subject) ?? '', preview: text(v.preview) ?? null, html: text(v.html) ?? null },
                      }),
                    );
                    query.reload();
                  })
                }
              />
            </>
          );
        }}
      </QueryView>
    </Stack>
  );
}

export const funnelDetailPage: PageDefinition = {
  path: 'funnels/:id',
  title: 'Funnel',
  area: 'marketing',
  group: 'Growth',
  nav: false,
  element: <FunnelDetailPage />,
};
