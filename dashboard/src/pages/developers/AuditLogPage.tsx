import { Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';

const WHO: Record<string, string> = { api_key: 'API key', owner: 'Owner', member: 'Team member', staff: 'Support staff', system: 'Automatic' };

/** Who changed what, newest first: every write by an API key, a team member or staff. */
/** An operation or record name in words: createProduct → "Create product", api_key → "Api key". */
const inWords = (name: string) => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function AuditLogPage() {
  const [actorInput, setActorInput] = useState('');
  const [actionInput, setActionInput] = useState('');
  const [targetInput, setTargetInput] = useState('');
  const [filters] = useDebouncedValue({ actor: actorInput.trim(), action: actionInput.trim(), target: targetInput.trim() }, 300);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery(
    (api) =>
      unwrap(
        api.GET('/audit-log', {
          params: {
            query: {
              limit: 25,
              ...(filters.actor ? { actor: filters.actor } : {}),
              ...(filters.action ? { action: filters.action } : {}),
              ...(filters.target ? { target: filters.target } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [filters.actor, filters.action, filters.target, cursor],
  );
  const reset = () => setCursors([undefined]);
  return (
    <Stack>
      <PageHeader
        title="Audit log"
        description="Every change to your store, from this dashboard or from an app you connected: who made it, when and from where, newest first. Kept 400 days."
      />
      <Group>
        <TextInput
          label="Who"
          placeholder="member email, key id or staff"
          value={actorInput}
          onChange={(e) => {
            setActorInput(e.currentTarget.value);
            reset();
          }}
          w={260}
        />
        <TextInput
          label="What"
          placeholder="e.g. createProduct"
          value={actionInput}
          onChange={(e) => {
            setActionInput(e.currentTarget.value);
            reset();
          }}
          w={220}
        />
        <TextInput
          label="Record id"
          value={targetInput}
          onChange={(e) => {
            setTargetInput(e.currentTarget.value);
            reset();
          }}
          w={260}
        />
      </Group>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Audit log"
              rows={answer.entries}
              rowKey={(e) => e.id}
              empty={{ title: 'Nothing here', text: 'Changes appear here as soon as they are made.' }}
              columns={[
                { key: 'at', header: 'When', phone: true, render: (e) => formatDate(e.at), text: (e) => e.at },
                { key: 'who', header: 'Who', render: (e) => `${WHO[e.actor.type] ?? e.actor.type}${e.actor.email ? ` ${e.actor.email}` : ''}` },
                {
                  key: 'what',
                  header: 'What',
                  phone: true,
                  render: (e) => (
                    <Text size="sm" title={e.action}>
                      {inWords(e.action)}
                    </Text>
                  ),
                  text: (e) => e.action,
                },
                {
                  key: 'record',
                  header: 'Record',
                  render: (e) => (
                    <Text size="sm" title={e.target.id ?? undefined}>
                      {inWords(e.target.type)}
                    </Text>
                  ),
                  text: (e) => `${e.target.type}${e.target.id ? ` ${e.target.id}` : ''}`,
                },
                { key: 'from', header: 'From', render: (e) => e.ip ?? '—' },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.next} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const auditLogPage: PageDefinition = { path: 'team/audit-log', title: 'Audit log', area: 'admin', group: 'Settings', element: <AuditLogPage /> };
