import { Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type JsonAnswer } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CursorPager, DataTable } from '../../components/DataTable';
import { attempt } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Automation = JsonAnswer<'listAutomations'>['automations'][number];

const steps = (a: Automation) => a.steps.map((s) => ('hours' in s ? `wait ${s.hours} h` : 'segmentId' in s ? 'if in segment' : 'email')).join(' → ') || '—';

/** Email automations (funnels create theirs; the API lists and deletes them). */
export function AutomationsPage() {
  const { api } = useSession();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery((api) => unwrap(api.GET('/automations', { params: { query: { limit: 20, ...(cursor ? { cursor } : {}) } } })), [cursor]);
  return (
    <Stack>
      <PageHeader
        title="Automations"
        description="Email sequences started by a trigger. Funnels create and run theirs; pause a funnel before deleting its automation."
      />
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Automations"
              rows={answer.automations}
              rowKey={(a) => a._id}
              empty={{ title: 'No automations yet', text: 'Creating a funnel creates its automation.' }}
              columns={[
                { key: 'name', header: 'Name', render: (a) => a.name },
                { key: 'status', header: 'Status', render: (a) => <StatusBadge status={a.status} /> },
                { key: 'trigger', header: 'Trigger', render: (a) => `${a.trigger.type.replace(/_/g, ' ')}` },
                { key: 'steps', header: 'Steps', render: (a) => <Text size="sm">{steps(a)}</Text> },
                { key: 'owner', header: 'Owner', render: (a) => (a.owner ? `${a.owner.kind}` : '—') },
                { key: 'created', header: 'Created', render: (a) => formatDate(a.createdAt) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (a) => (
                    <Group gap={4}>
                      {a.status !== 'active' && (
                        <ConfirmButton
                          title="Delete automation"
                          message="A funnel using it can no longer be activated."
                          confirmLabel="Delete"
                          aria-label={`Delete ${a.name}`}
                          onConfirm={() =>
                            attempt(async () => {
                              await unwrap(api.DELETE('/automations/{id}', { params: { path: { id: a._id } } }));
                              query.reload();
                            })
                          }
                        >
                          Delete
                        </ConfirmButton>
                      )}
                    </Group>
                  ),
                },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.cursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const automationsPage: PageDefinition = {
  path: 'email/automations',
  title: 'Automations',
  area: 'emails',
  group: 'Audience',
  element: <AutomationsPage />,
};
