import { Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, list, text } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Team = JsonAnswer<'getTeam'>;
type Member = Team['members'][number];
type Squad = Team['teams'][number];
type Role = Member['role'];
type Area = Squad['areas'][number];

const ROLES: { value: Role; label: string }[] = [
  { value: 'member', label: "Member (their teams' areas)" },
  { value: 'admin', label: 'Admin (everything but ownership)' },
  { value: 'owner', label: 'Owner' },
];
const AREAS: Area[] = ['products', 'orders', 'emails', 'marketing', 'analytics', 'developers'];

function Members({ team, reload, api }: { team: Team; reload: () => void; api: Api }) {
  const [editing, setEditing] = useState<Member | null>(null);
  const teamOptions = team.teams.map((t) => ({ value: t._id, label: t.name }));
  const names = (ids: string[]) => ids.map((id) => team.teams.find((t) => t._id === id)?.name ?? id).join(', ') || '—';
  return (
    <>
      <DataTable
        caption="Members"
        rows={team.members}
        rowKey={(m) => m._id}
        columns={[
          { key: 'email', header: 'Email', render: (m) => m.email },
          { key: 'name', header: 'Name', render: (m) => m.name ?? '—' },
          { key: 'role', header: 'Role', render: (m) => <Badge variant="light">{m.role}</Badge> },
          { key: 'teams', header: 'Teams', render: (m) => names(m.teamIds) },
          { key: 'status', header: 'Status', render: (m) => <StatusBadge status={m.status} /> },
          { key: 'joined', header: 'Joined', render: (m) => formatDate(m.joinedAt) },
          {
            key: 'actions',
            header: 'Actions',
            render: (m) => (
              <Group gap={4} wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setEditing(m)} aria-label={`Edit ${m.email}`}>
                  Edit
                </Button>
                <ConfirmButton
                  title="Remove member"
                  message={`Remove ${m.email} from the team? Their sessions stop working.`}
                  confirmLabel="Remove"
                  aria-label={`Remove ${m.email}`}
                  onConfirm={() =>
                    attempt(async () => {
                      await unwrap(api.DELETE('/team/members/{id}', { params: { path: { id: m._id } } }));
                      reload();
                    })
                  }
                >
                  Remove
                </ConfirmButton>
              </Group>
            ),
          },
        ]}
      />
      <FormModal
        title={`Edit ${editing?.email ?? ''}`}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        fields={[
          { name: 'role', label: 'Role', kind: 'select', required: true, options: ROLES },
          { name: 'teamIds', label: 'Teams', kind: 'multiselect', options: teamOptions },
          {
            name: 'status',
            label: 'Status',
            kind: 'select',
            required: true,
            options: [
              { value: 'active', label: 'Active' },
              { value: 'suspended', label: 'Suspended' },
            ],
          },
        ]}
        initial={editing ? { role: editing.role, teamIds: editing.teamIds, status: editing.status } : {}}
        onSubmit={(v) =>
          attempt(async () => {
            await unwrap(
              api.PATCH('/team/members/{id}', {
                params: { path: { id: editing!._id } },
                body: { role: text(v.role) as Role, teamIds: list(v.teamIds), status: text(v.status) as Member['status'] },
              }),
            );
            reload();
          })
        }
      />
    </>
  );
}

function Invites({ team, reload, api }: { team: Team; reload: () => void; api: Api }) {
  const [inviting, setInviting] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" role="status">
          {sent ?? `Seats: ${team.seats.used} used, ${team.seats.pending} pending, ${team.seats.limit} in the plan.`}
        </Text>
        <Button onClick={() => setInviting(true)}>Invite someone</Button>
      </Group>
      <DataTable
        caption="Pending invites"
        rows={team.invites}
        rowKey={(i) => i.id}
        empty={{ title: 'No pending invites' }}
        columns={[
          { key: 'email', header: 'Email', render: (i) => i.email },
          { key: 'role', header: 'Role', render: (i) => i.role },
          { key: 'teams', header: 'Teams', render: (i) => i.teamIds.map((id) => team.teams.find((t) => t._id === id)?.name ?? id).join(', ') || '—' },
          { key: 'expires', header: 'Expires', render: (i) => formatDate(i.expiresAt) },
          {
            key: 'actions',
            header: 'Actions',
            render: (i) => (
              <Group gap={4} wrap="nowrap">
                <ConfirmButton
                  color="blue"
                  title="Resend invite"
                  message={`Send the invite to ${i.email} again?`}
                  confirmLabel="Resend"
                  aria-label={`Resend the invite to ${i.email}`}
                  onConfirm={() =>
                    attempt(async () => {
                      await unwrap(api.POST('/team/invites/{id}/resend', { params: { path: { id: i.id } } }));
                      setSent(`Invite sent again to ${i.email}.`);
                      reload();
                    })
                  }
                >
                  Resend
                </ConfirmButton>
                <ConfirmButton
                  title="Cancel invite"
                  message={`Cancel the invite to ${i.email}? The link stops working.`}
                  confirmLabel="Cancel invite"
                  aria-label={`Cancel the invite to ${i.email}`}
                  onConfirm={() =>
                    attempt(async () => {
                      await unwrap(api.DELETE('/team/invites/{id}', { params: { path: { id: i.id } } }));
                      reload();
                    })
                  }
                >
                  Cancel
                </ConfirmButton>
              </Group>
            ),
          },
        ]}
      />
      <FormModal
        title="Invite someone"
        opened={inviting}
        onClose={() => setInviting(false)}
        submitLabel="Send invite"
        fields={[
          { name: 'email', label: 'Email', kind: 'email', required: true },
          { name: 'role', label: 'Role', kind: 'select', required: true, options: ROLES },
          {
            name: 'teamIds',
            label: 'Teams',
            kind: 'multiselect',
            description: 'A member sees the areas of their teams',
            options: team.teams.map((t) => ({ value: t._id, label: t.name })),
          },
        ]}
        initial={{ role: 'member', teamIds: [] }}
        onSubmit={(v) =>
          attempt(async () => {
            const answer = await unwrap(
              api.POST('/team/invites', { body: { email: text(v.email) ?? '', role: (text(v.role) ?? 'member') as Role, teamIds: list(v.teamIds) } }),
            );
            setSent(answer.emailSent ? `Invite mailed to ${answer.invite.email}.` : `Invite created for ${answer.invite.email}; the mail could not be sent.`);
            reload();
          })
        }
      />
    </Stack>
  );
}

function Teams({ team, reload, api }: { team: Team; reload: () => void; api: Api }) {
  const [editing, setEditing] = useState<Squad | 'new' | null>(null);
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={() => setEditing('new')}>New team</Button>
      </Group>
      <DataTable
        caption="Teams"
        rows={team.teams}
        rowKey={(t) => t._id}
        empty={{ title: 'No teams yet', text: 'A team names the areas its members may use (products, orders, emails, marketing, analytics, developers).' }}
        columns={[
          { key: 'name', header: 'Name', render: (t) => t.name },
          {
            key: 'areas',
            header: 'Areas',
            render: (t) => (
              <Group gap={4}>
                {t.areas.map((a) => (
                  <Badge key={a} variant="outline">
                    {a}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { key: 'members', header: 'Members', numeric: true, render: (t) => team.members.filter((m) => m.teamIds.includes(t._id)).length },
          {
            key: 'actions',
            header: 'Actions',
            render: (t) => (
              <Group gap={4} wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setEditing(t)} aria-label={`Edit team ${t.name}`}>
                  Edit
                </Button>
                <ConfirmButton
                  title="Delete team"
                  message={`Delete the team ${t.name}? Its members lose its areas.`}
                  confirmLabel="Delete"
                  aria-label={`Delete team ${t.name}`}
                  onConfirm={() =>
                    attempt(async () => {
                      await unwrap(api.DELETE('/team/teams/{id}', { params: { path: { id: t._id } } }));
                      reload();
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
      <FormModal
        title={editing === 'new' ? 'New team' : 'Edit team'}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        fields={[
          { name: 'name', label: 'Name', required: true },
          { name: 'areas', label: 'Areas', kind: 'multiselect', required: true, options: AREAS.map((a) => ({ value: a, label: a })) },
        ]}
        initial={editing && editing !== 'new' ? { name: editing.name, areas: editing.areas } : { areas: [] }}
        onSubmit={(v) =>
          attempt(async () => {
            const body = { name: text(v.name) ?? '', areas: list(v.areas) as Area[] };
            if (editing === 'new') await unwrap(api.POST('/team/teams', { body }));
            else if (editing) await unwrap(api.PATCH('/team/teams/{id}', { params: { path: { id: editing._id } }, body }));
            reload();
          })
        }
      />
    </Stack>
  );
}

function Activity() {
  const [befores, setBefores] = useState<(string | undefined)[]>([undefined]);
  const before = befores[befores.length - 1];
  const query = useQuery((api: Api) => unwrap(api.GET('/team/activity', { params: { query: { limit: 25, ...(before ? { before } : {}) } } })), [before]);
  return (
    <QueryView query={query}>
      {(answer) => (
        <>
          <DataTable
            caption="Activity log"
            rows={answer.activity}
            rowKey={(a) => a._id}
            empty={{ title: 'No activity yet' }}
            columns={[
              { key: 'at', header: 'When', render: (a) => formatDate(a.at) },
              { key: 'actor', header: 'Who', render: (a) => a.actor.email ?? a.actor.type.replace('_', ' ') },
              { key: 'action', header: 'Action', render: (a) => a.action },
              { key: 'target', header: 'Target', render: (a) => a.target.email ?? `${a.target.type}${a.target.id ? ` ${a.target.id}` : ''}` },
            ]}
          />
          <Group justify="flex-end" gap="xs" mt="sm">
            <Button size="xs" variant="default" disabled={befores.length <= 1} onClick={() => setBefores(befores.slice(0, -1))}>
              Newer
            </Button>
            <Button size="xs" variant="default" disabled={!answer.nextBefore} onClick={() => setBefores([...befores, answer.nextBefore ?? undefined])}>
              Older
            </Button>
          </Group>
        </>
      )}
    </QueryView>
  );
}

export function TeamPage() {
  const { api } = useSession();
  const query = useQuery((a: Api) => unwrap(a.GET('/team')));
  const [tab, setTab] = useState<string | null>('members');
  return (
    <Stack>
      <PageHeader title="Team" description="Who can use this store, what they may do, and what they did." />
      <QueryView query={query}>
        {(team) => (
          <Tabs value={tab} onChange={setTab}>
            <Tabs.List>
              <Tabs.Tab value="members">Members ({team.members.length})</Tabs.Tab>
              <Tabs.Tab value="invites">Invites ({team.invites.length})</Tabs.Tab>
              <Tabs.Tab value="teams">Teams ({team.teams.length})</Tabs.Tab>
              <Tabs.Tab value="activity">Activity</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="members" pt="md">
              <Members team={team} reload={query.reload} api={api} />
            </Tabs.Panel>
            <Tabs.Panel value="invites" pt="md">
              <Invites team={team} reload={query.reload} api={api} />
            </Tabs.Panel>
            <Tabs.Panel value="teams" pt="md">
              <Teams team={team} reload={query.reload} api={api} />
            </Tabs.Panel>
            <Tabs.Panel value="activity" pt="md">
              <Title order={2} size="h4" mb="xs">
                Activity log
              </Title>
              {tab === 'activity' && <Activity />}
            </Tabs.Panel>
          </Tabs>
        )}
      </QueryView>
    </Stack>
  );
}

export const teamPage: PageDefinition = { path: 'team', title: 'Team', area: 'admin', group: 'Settings', element: <TeamPage /> };
