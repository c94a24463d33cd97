import {
  Alert,
  Anchor,
  Button,
  Card,
  FileInput,
  Group,
  List,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { type ApiFailure, unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

type Job = JsonAnswer<'getImportJob'>;
type Kind = JsonBody<'addImportFile'>['kind'];
type Source = JsonBody<'createImportJob'>['source'];
const KINDS: Kind[] = ['products', 'customers', 'orders', 'subscribers'];
const SOURCES: { value: Source; label: string }[] = [
  { value: 'csv', label: 'Any CSV' },
  { value: 'gumroad', label: 'Gumroad' },
  { value: 'shopify', label: 'Shopify' },
  { value: 'mailchimp', label: 'Mailchimp' },
];

/** The answers the OpenAPI document leaves untyped, as the spec names them. */
interface JobList {
  data: Job[];
  page: number;
  pageSize: number;
  hasMore: boolean;
}
interface DryRun {
  computedAt: string;
  canStart: boolean;
  subscriberLimit: number | null;
  kinds: Partial<Record<Kind, Record<string, number>>>;
  notes: string[];
}
interface Rows {
  rows: { kind: Kind; row: number; values: Record<string, string>; state: string; problem: string | null }[];
  page: number;
  hasMore: boolean;
}
interface Report {
  status: string;
  kinds: Partial<Record<Kind, Record<string, number>>>;
  fileNeeded: { row: number; productId: string | null; reason: string }[];
  finishedAt: string | null;
}

const label = (key: string) => key.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase());

export function ImportsPage() {
  const [page, setPage] = useState(1);
  const query = useQuery(
    async (api: Api) => (await unwrap(api.GET('/migrations', { params: { query: { page, pageSize: 25 } } }))) as unknown as JobList,
    [page],
  );
  return (
    <Stack>
      <PageHeader
        title="Imports"
        description="Bring products, customers, purchase history and subscribers from another platform's CSV exports."
        actions={
          <Button component={Link} to="/imports/new">
            New import
          </Button>
        }
      />
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Imports"
              rows={answer.data}
              rowKey={(j) => j._id}
              empty={{
                title: 'No imports yet',
                text: 'Start one with the CSV exports of your previous platform.',
                action: (
                  <Button component={Link} to="/imports/new">
                    Start an import
                  </Button>
                ),
              }}
              columns={[
                {
                  key: 'created',
                  header: 'Created',
                  render: (j) => (
                    <Anchor component={Link} to={`/imports/${j._id}`}>
                      {formatDate(j.createdAt)}
                    </Anchor>
                  ),
                },
                { key: 'source', header: 'Source', render: (j) => j.source },
                { key: 'files', header: 'Files', render: (j) => j.files.map((f) => `${f.kind} (${f.rowCount})`).join(', ') || '—' },
                { key: 'status', header: 'Status', render: (j) => <StatusBadge status={j.status} /> },
              ]}
            />
            <PrevNext page={page} hasMore={answer.hasMore} onPage={setPage} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

/** One CSV export: pasted, or read from a chosen file in the browser (nothing is uploaded elsewhere). */

/** Page-numbered lists whose answers say only whether more follow. */
function PrevNext({ page, hasMore, onPage }: { page: number; hasMore: boolean; onPage: (page: number) => void }) {
  return (
    <Group justify="flex-end" gap="xs">
      <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <Button size="xs" variant="default" disabled={!hasMore} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </Group>
  );
}

function FileEditor({ onAdd, running }: { onAdd: (file: { kind: Kind; filename: string; csv: string }) => void; running?: boolean }) {
  const [kind, setKind] = useState<Kind>('subscribers');
  const [filename, setFilename] = useState('');
  const [csv, setCsv] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const pick = async (chosen: File | null) => {
    setFile(chosen);
    if (chosen) {
      setCsv(await chosen.text());
      setFilename(chosen.name);
    }
  };
  return (
    <Card withBorder padding="sm">
      <Stack gap="xs">
        <Group grow align="flex-start" wrap="wrap">
          <Select label="Kind of export" data={KINDS} value={kind} onChange={(v) => v && setKind(v as Kind)} allowDeselect={false} />
          <TextInput label="File name" value={filename} onChange={(e) => setFilename(e.currentTarget.value)} placeholder={`${kind}.csv`} />
          <FileInput label="CSV file" value={file} onChange={pick} accept=".csv,text/csv" clearable />
        </Group>
        <Textarea
          label="CSV content"
          description="Paste the export here, or choose a file above"
          autosize
          minRows={4}
          maxRows={12}
          value={csv}
          onChange={(e) => setCsv(e.currentTarget.value)}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Group justify="flex-end">
          <Button
            variant="light"
            loading={running}
            disabled={!csv.trim()}
            onClick={() => {
              onAdd({ kind, filename: filename.trim() || `${kind}.csv`, csv });
              setCsv('');
              setFile(null);
              setFilename('');
            }}
          >
            Add file
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function NewImportPage() {
  const navigate = useNavigate();
  const [source, setSource] = useState<Source>('csv');
  const [files, setFiles] = useState<{ kind: Kind; filename: string; csv: string }[]>([]);
  const create = useMutation((api: Api) => unwrap(api.POST('/migrations', { body: { source, files } })));
  return (
    <Stack>
      <PageHeader title="New import" description="A draft: nothing is imported until you check the dry run and start it." />
      <Select label="Source platform" data={SOURCES} value={source} onChange={(v) => v && setSource(v as Source)} allowDeselect={false} maw={320} />
      <Title order={2} size="h4">
        Files
      </Title>
      {files.length === 0 ? (
        <Text size="sm" c="dimmed">
          No files yet; add at least one export below (one per kind).
        </Text>
      ) : (
        <List>
          {files.map((f) => (
            <List.Item key={`${f.kind}-${f.filename}`}>
              {f.kind}: {f.filename} ({f.csv.trim().split('\n').length - 1} rows){' '}
              <Button size="compact-xs" variant="subtle" color="red" onClick={() => setFiles(files.filter((other) => other !== f))}>
                Remove {f.filename}
              </Button>
            </List.Item>
          ))}
        </List>
      )}
      <FileEditor onAdd={(f) => setFiles([...files.filter((x) => x.kind !== f.kind), f])} />
      <FormError error={create.error} />
      <Group justify="flex-end">
        <Button variant="default" component={Link} to="/imports">
          Cancel
        </Button>
        <Button
          loading={create.running}
          onClick={async () => {
            const job = await create.run();
            if (job) navigate(`/imports/${job._id}`);
          }}
        >
          Create draft
        </Button>
      </Group>
    </Stack>
  );
}

function MappingEditor({ job, kind, onSaved }: { job: Job; kind: Kind; onSaved: () => void }) {
  const file = job.files.find((f) => f.kind === kind)!;
  const [mapping, setMapping] = useState<Record<string, string | null>>(job.mapping[kind] ?? {});
  const { api } = useSession();
  const [error, setError] = useState<ApiFailure | null>(null);
  const [running, setRunning] = useState(false);
  const saveMapping = async () => {
    setRunning(true);
    const failure = await attempt(() =>
      unwrap(api.PUT('/migrations/{id}/files/{kind}/mapping', { params: { path: { id: job._id, kind } }, body: { mapping } })),
    );
    setRunning(false);
    setError(failure);
    if (!failure) onSaved();
  };
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {Object.keys(mapping).map((field) => (
          <Select
            key={field}
            label={`${label(field)} (${kind})`}
            data={file.columns}
            value={mapping[field] ?? null}
            onChange={(v) => setMapping({ ...mapping, [field]: v })}
            clearable
            placeholder="Not imported"
            disabled={job.status !== 'draft'}
          />
        ))}
      </SimpleGrid>
      <FormError error={error} />
      {job.status === 'draft' && (
        <Group justify="flex-end">
          <Button size="xs" variant="light" loading={running} onClick={saveMapping}>
            Save {kind} mapping
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function ProblemRows({ id, kind, version }: { id: string; kind: Kind; version: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery(
    async (api: Api) =>
      (await unwrap(
        api.GET('/migrations/{id}/rows', { params: { path: { id }, query: { kind, filter: 'problems', page, pageSize: 20 } } }),
      )) as unknown as Rows,
    [id, kind, page, version],
  );
  return (
    <QueryView query={query}>
      {(answer) => (
        <>
          <DataTable
            caption={`Rows with problems (${kind})`}
            rows={answer.rows}
            rowKey={(r) => `${r.kind}-${r.row}`}
            empty={{ title: 'No problems in this file' }}
            columns={[
              { key: 'row', header: 'Row', numeric: true, render: (r) => r.row },
              { key: 'problem', header: 'Problem', render: (r) => r.problem ?? '—' },
              { key: 'state', header: 'State', render: (r) => r.state },
              {
                key: 'values',
                header: 'Values',
                render: (r) => (
                  <Text size="xs" ff="monospace">
                    {Object.values(r.values).join(', ')}
                  </Text>
                ),
              },
            ]}
          />
          {(page > 1 || answer.hasMore) && <PrevNext page={page} hasMore={answer.hasMore} onPage={setPage} />}
        </>
      )}
    </QueryView>
  );
}

function Counts({ title, kinds, testId }: { title: string; kinds: Partial<Record<Kind, Record<string, number>>>; testId: string }) {
  const present = KINDS.filter((k) => kinds[k]);
  return (
    <Stack gap="xs" data-testid={testId}>
      <Title order={3} size="h5">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {present.map((kind) => (
          <Table key={kind} aria-label={`${title}: ${kind}`} verticalSpacing={2}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{kind}</Table.Th>
                <Table.Th scope="col" style={{ textAlign: 'right' }}>
                  Rows
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {Object.entries(kinds[kind]!).map(([key, value]) => (
                <Table.Tr key={key} data-count={`${kind}.${key}`}>
                  <Table.Td>{label(key)}</Table.Td>
                  <Table.Td style={{ textAlign: 'right' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function RunProgress({ job }: { job: Job }) {
  const kinds = KINDS.filter((k) => job.progress[k]);
  return (
    <Stack gap="xs" data-testid="import-progress">
      {kinds.map((kind) => {
        const p = job.progress[kind]!;
        const pct = p.total ? Math.round(((p.done ?? 0) / p.total) * 100) : 100;
        return (
          <div key={kind}>
            <Group justify="space-between">
              <Text size="sm" id={`progress-${kind}`}>
                {kind}
              </Text>
              <Text size="sm">
                {p.done ?? 0} of {p.total ?? 0} · {p.created ?? 0} created · {p.existing ?? 0} existing · {p.skipped ?? 0} skipped · {p.failed ?? 0} failed
              </Text>
            </Group>
            <Progress.Root size="lg">
              <Progress.Section value={pct} aria-label={`${kind}: ${pct}% done`} animated={job.status === 'running'} />
            </Progress.Root>
          </div>
        );
      })}
    </Stack>
  );
}

async function downloadErrors(api: Api, id: string) {
  const { data, response } = await api.GET('/migrations/{id}/errors.csv', { params: { path: { id } }, parseAs: 'text' });
  if (!response.ok || typeof data !== 'string') return;
  const url = URL.createObjectURL(new Blob([data], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `import-${id}-errors.csv`;
  a.click();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ImportDetailPage() {
  const { id = '' } = useParams();
  const { api } = useSession();
  const query = useQuery((a: Api) => unwrap(a.GET('/migrations/{id}', { params: { path: { id } } })), [id]);
  const job = query.data;
  const [dryRun, setDryRun] = useState<DryRun | null>(null);
  const dry = useMutation(async (a: Api) => (await unwrap(a.POST('/migrations/{id}/dry-run', { params: { path: { id } } }))) as unknown as DryRun);
  const [startError, setStartError] = useState<ApiFailure | null>(null);
  const [starting, setStarting] = useState(false);
  const startRun = async () => {
    setStarting(true);
    const failure = await attempt(() => unwrap(api.POST('/migrations/{id}/start', { params: { path: { id } } })));
    setStarting(false);
    setStartError(failure);
    if (!failure) query.reload();
  };
  const addFile = useMutation((a: Api, body: { kind: Kind; filename: string; csv: string }) =>
    unwrap(a.POST('/migrations/{id}/files', { params: { path: { id } }, body })),
  );
  const report = useQuery(
    async (a: Api) =>
      job && job.status !== 'draft' && job.status !== 'running'
        ? ((await unwrap(a.GET('/migrations/{id}/report', { params: { path: { id } } }))) as unknown as Report)
        : null,
    [id, job?.status],
  );

  useEffect(() => {
    if (job?.dryRun && !dryRun) setDryRun(job.dryRun as unknown as DryRun);
  }, [job, dryRun]);
  // Progress: poll while the run is under way, a large file is stored or a large dry run computed.
  const waiting =
    !!job && ((job as { dryRunComputing?: boolean }).dryRunComputing || (job.files as { status?: string }[]).some((f) => f.status === 'processing'));
  // biome-ignore lint/correctness/useExhaustiveDependencies: polls while the import runs; restarting on each answer would reset the interval
  useEffect(() => {
    if (job?.status !== 'running' && !waiting) return;
    const timer = window.setInterval(() => {
      unwrap(api.GET('/migrations/{id}', { params: { path: { id } } })).then(query.set, () => undefined);
    }, 1000);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job?.status, waiting, api, id]);

  return (
    <Stack>
      <PageHeader
        title="Import"
        description={job ? `From ${job.source}, created ${formatDate(job.createdAt)}` : undefined}
        actions={
          <>
            <Button component={Link} to="/imports" variant="default">
              All imports
            </Button>
            {job?.status === 'running' && (
              <ConfirmButton
                title="Cancel import"
                message="Stop after the current batch? Rows already imported stay."
                confirmLabel="Cancel import"
                onConfirm={() =>
                  attempt(async () => {
                    query.set(await unwrap(api.POST('/migrations/{id}/cancel', { params: { path: { id } } })));
                  })
                }
              >
                Cancel import
              </ConfirmButton>
            )}
          </>
        }
      />
      <QueryView query={query}>
        {(job) => (
          <Stack>
            <Group>
              <Text size="sm">Status</Text>
              <span data-testid="import-status">
                <StatusBadge status={job.status} />
              </span>
              {job.cancelRequested && job.status === 'running' && (
                <Text size="sm" c="dimmed">
                  stopping after this batch…
                </Text>
              )}
            </Group>
            {job.files.length > 0 && (
              <Tabs defaultValue={job.files[0]!.kind}>
                <Tabs.List>
                  {job.files.map((f) => (
                    <Tabs.Tab key={f.kind} value={f.kind}>
                      {f.kind} ({f.rowCount} rows)
                    </Tabs.Tab>
                  ))}
                </Tabs.List>
                {job.files.map((f) => (
                  <Tabs.Panel key={f.kind} value={f.kind} pt="sm">
                    <Stack>
                      <Text size="sm" c="dimmed">
                        {f.filename} · columns: {f.columns.join(', ')}
                      </Text>
                      <MappingEditor
                        job={job}
                        kind={f.kind}
                        onSaved={() => {
                          setDryRun(null);
                          query.reload();
                        }}
                      />
                      <ProblemRows id={job._id} kind={f.kind} version={job.updatedAt} />
                    </Stack>
                  </Tabs.Panel>
                ))}
              </Tabs>
            )}
            {job.status === 'draft' && (
              <details>
                <summary>Add or replace a file</summary>
                <FormError error={addFile.error} />
                <FileEditor
                  running={addFile.running}
                  onAdd={async (f) => {
                    const next = await addFile.run(f);
                    if (next) {
                      setDryRun(null);
                      query.set(next);
                    }
                  }}
                />
              </details>
            )}
            {(job.status === 'draft' || job.status === 'failed' || job.status === 'canceled') && (
              <Card withBorder>
                <Stack>
                  <Title order={2} size="h4">
                    Dry run
                  </Title>
                  <Text size="sm" c="dimmed">
                    What the run will do, computed without changing anything.
                  </Text>
                  <FormError error={dry.error ?? startError} />
                  {dryRun && (
                    <Stack gap="xs" data-testid="dry-run">
                      <Text size="sm">
                        Computed {formatDate(dryRun.computedAt)} · subscriber limit {dryRun.subscriberLimit ?? 'none'} ·{' '}
                        <strong data-testid="dry-run-can-start">{dryRun.canStart ? 'ready to start' : 'cannot start yet'}</strong>
                      </Text>
                      <Counts title="Dry run counts" kinds={dryRun.kinds} testId="dry-run-counts" />
                      {dryRun.notes.length > 0 && (
                        <Alert color="yellow" title="Notes">
                          <List size="sm">
                            {dryRun.notes.map((n) => (
                              <List.Item key={n}>{n}</List.Item>
                            ))}
                          </List>
                        </Alert>
                      )}
                    </Stack>
                  )}
                  <Group justify="flex-end">
                    <Button
                      variant="light"
                      loading={dry.running}
                      onClick={async () => {
                        const answer = await dry.run();
                        // A large import's dry run answers 202 computing; it lands on the import (polled).
                        if (answer && (answer as unknown as { status?: string }).status === 'computing') {
                          setDryRun(null);
                          query.reload();
                        } else if (answer) setDryRun(answer);
                      }}
                    >
                      {dryRun ? 'Run the dry run again' : 'Run the dry run'}
                    </Button>
                    <Button disabled={!dryRun?.canStart} loading={starting} onClick={startRun}>
                      {job.status === 'draft' ? 'Start import' : 'Resume import'}
                    </Button>
                  </Group>
                </Stack>
              </Card>
            )}
            {job.status !== 'draft' && (
              <Card withBorder>
                <Stack>
                  <Title order={2} size="h4">
                    Progress
                  </Title>
                  <RunProgress job={job} />
                </Stack>
              </Card>
            )}
            {report.data && (
              <Card withBorder>
                <Stack>
                  <Title order={2} size="h4">
                    Report
                  </Title>
                  {report.data.finishedAt && <Text size="sm">Finished {formatDate(report.data.finishedAt)}</Text>}
                  <Counts title="Results" kinds={report.data.kinds} testId="import-report" />
                  {report.data.fileNeeded.length > 0 && (
                    <Alert color="yellow" title="Products needing a file">
                      <List size="sm">
                        {report.data.fileNeeded.map((f) => (
                          <List.Item key={f.row}>
                            Row {f.row}: {f.reason}
                          </List.Item>
                        ))}
                      </List>
                    </Alert>
                  )}
                  <Group>
                    <Button variant="default" onClick={() => downloadErrors(api, job._id)}>
                      Download errors.csv
                    </Button>
                  </Group>
                </Stack>
              </Card>
            )}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

export const importsPage: PageDefinition = { path: 'imports', title: 'Imports', area: 'products', group: 'Settings', element: <ImportsPage /> };
export const newImportPage: PageDefinition = {
  path: 'imports/new',
  title: 'New import',
  area: 'products',
  group: 'Settings',
  element: <NewImportPage />,
  nav: false,
};
export const importDetailPage: PageDefinition = {
  path: 'imports/:id',
  title: 'Import',
  area: 'products',
  group: 'Settings',
  element: <ImportDetailPage />,
  nav: false,
};
