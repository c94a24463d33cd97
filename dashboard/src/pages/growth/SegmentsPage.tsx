import {
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiFailure, unwrap, type Api, type JsonAnswer } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CursorPager, DataTable, PagePager } from '../../components/DataTable';
import { attempt } from '../../components/FormModal';
import { PageHeader, StatusBadge } from '../../components/Page';
import { ErrorState, FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';
import {
  cleanDefinition,
  describeDefinition,
  emptyDefinition,
  MAX_GROUPS,
  MAX_RULES,
  newRule,
  RULE_TYPES,
  ruleComplete,
  SOURCES,
  type Definition,
  type Group as RuleGroup,
  type Match,
  type Rule,
} from './segments-rules';

type Segment = JsonAnswer<'getSegment'>;
type Preview = JsonAnswer<'previewSegment'>;
const PAGE_SIZE = 25;

export function SegmentsPage() {
  const [page, setPage] = useState(1);
  const query = useQuery((api: Api) => unwrap(api.GET('/newsletters/segments', { params: { query: { page, pageSize: PAGE_SIZE } } })), [page]);
  return (
    <Stack>
      <PageHeader
        title="Segments"
        description="Rule-based audiences, evaluated live when counted, listed or sent to."
        actions={
          <Button component={Link} to="/segments/new">
            New segment
          </Button>
        }
      />
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Segments"
              rows={answer.data}
              rowKey={(s) => s._id}
              empty={{
                title: 'No segments yet',
                text: 'A segment groups contacts by tags, purchases, engagement, country or how they joined.',
                action: (
                  <Button component={Link} to="/segments/new">
                    Create a segment
                  </Button>
                ),
              }}
              columns={[
                {
                  key: 'name',
                  header: 'Name',
                  render: (s) => (
                    <Anchor component={Link} to={`/segments/${s._id}`}>
                      {s.name}
                    </Anchor>
                  ),
                },
                { key: 'rules', header: 'Rules', render: (s) => describeDefinition(s.definition as Definition) },
                { key: 'tag', header: 'Smart tag', render: (s) => s.smartTag ?? '—' },
                { key: 'updated', header: 'Updated', render: (s) => formatDate(s.updatedAt) },
              ]}
            />
            {answer.total > PAGE_SIZE && <PagePager page={page} pageSize={PAGE_SIZE} total={answer.total} onPage={setPage} />}
          </>
        )}
      </QueryView>
    </Stack>
  );
}

/** One rule's inputs; each labelled with its group and position so that screen readers can tell them apart. */
function RuleEditor({
  rule,
  onChange,
  products,
  label,
}: {
  rule: Rule;
  onChange: (r: Rule) => void;
  products: { value: string; label: string }[];
  label: string;
}) {
  const set = (patch: Record<string, unknown>) => onChange({ ...rule, ...patch });
  const field = () => {
    switch (rule.type) {
      case 'bought':
      case 'notBought':
        return (
          <Select
            label="Product"
            aria-label={`${label} product`}
            data={products}
            value={(rule.productId as string) || null}
            onChange={(v) => set({ productId: v ?? '' })}
            searchable
            placeholder="Choose a product"
          />
        );
      case 'spent':
        return (
          <Group grow>
            <Select
              label="Spent"
              aria-label={`${label} comparison`}
              data={[
                { value: 'gt', label: 'More than' },
                { value: 'lt', label: 'Less than' },
              ]}
              value={rule.op as string}
              onChange={(v) => set({ op: v ?? 'gt' })}
              allowDeselect={false}
            />
            <NumberInput
              label="Amount"
              aria-label={`${label} amount`}
              value={(rule.amountCents as number) / 100}
              min={0}
              decimalScale={2}
              onChange={(v) => set({ amountCents: Math.round(Number(v || 0) * 100) })}
            />
          </Group>
        );
      case 'boughtWithin':
      case 'notBoughtWithin':
        return (
          <NumberInput
            label="In the last (days)"
            aria-label={`${label} days`}
            value={rule.days as number}
            min={1}
            max={3650}
            onChange={(v) => set({ days: Number(v || 1) })}
          />
        );
      case 'engagedWithin':
        return (
          <Group grow>
            <NumberInput
              label="In the last (days)"
              aria-label={`${label} days`}
              value={rule.days as number}
              min={1}
              max={3650}
              onChange={(v) => set({ days: Number(v || 1) })}
            />
            <Select
              label="Did what"
              aria-label={`${label} event`}
              data={[
                { value: 'any', label: 'Opened or clicked' },
                { value: 'opened', label: 'Opened' },
                { value: 'clicked', label: 'Clicked' },
              ]}
              value={rule.event as string}
              onChange={(v) => set({ event: v ?? 'any' })}
              allowDeselect={false}
            />
          </Group>
        );
      case 'country':
        return (
          <TagsInput
            label="Countries"
            aria-label={`${label} countries`}
            description="Two-letter codes, e.g. US, DE, FR"
            value={rule.countries as string[]}
            onChange={(v) => set({ countries: v.map((c) => c.toUpperCase()) })}
          />
        );
      case 'source':
        return (
          <Select
            label="How they joined"
            aria-label={`${label} source`}
            data={SOURCES}
            value={rule.source as string}
            onChange={(v) => set({ source: v ?? 'form' })}
            allowDeselect={false}
          />
        );
      default:
        return <TextInput label="Tag" aria-label={`${label} tag`} value={(rule.tag as string) ?? ''} onChange={(e) => set({ tag: e.currentTarget.value })} />;
    }
  };
  return (
    <Group align="flex-end" grow preventGrowOverflow={false} wrap="wrap">
      <Select
        label="Rule"
        aria-label={`${label} type`}
        data={RULE_TYPES}
        value={rule.type}
        onChange={(v) => v && onChange(newRule(v))}
        allowDeselect={false}
        maw={220}
      />
      {field()}
    </Group>
  );
}

function GroupEditor({
  group,
  index,
  onChange,
  onRemove,
  products,
}: {
  group: RuleGroup;
  index: number;
  onChange: (g: RuleGroup) => void;
  onRemove?: () => void;
  products: { value: string; label: string }[];
}) {
  const [adding, setAdding] = useState<string | null>('tag');
  return (
    <Card withBorder padding="sm" component="fieldset" aria-label={`Group ${index + 1}`} style={{ margin: 0 }}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h5">
            Group {index + 1}
          </Title>
          <Group gap="xs">
            <Text size="sm" id={`group-${index}-match`}>
              Match
            </Text>
            <SegmentedControl
              aria-labelledby={`group-${index}-match`}
              size="xs"
              value={group.match}
              onChange={(v) => onChange({ ...group, match: v as Match })}
              data={[
                { value: 'all', label: 'All rules' },
                { value: 'any', label: 'Any rule' },
              ]}
            />
            {onRemove && (
              <Button size="xs" variant="subtle" color="red" onClick={onRemove}>
                Remove group {index + 1}
              </Button>
            )}
          </Group>
        </Group>
        {group.rules.length === 0 && (
          <Text size="sm" c="dimmed">
            No rules in this group yet.
          </Text>
        )}
        {group.rules.map((rule, r) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id until saved; their position is their identity while editing
          <Group key={r} align="flex-end" wrap="nowrap" data-testid="segment-rule">
            <div style={{ flex: 1 }}>
              <RuleEditor
                rule={rule}
                label={`Group ${index + 1} rule ${r + 1}`}
                products={products}
                onChange={(next) => onChange({ ...group, rules: group.rules.map((x, i) => (i === r ? next : x)) })}
              />
            </div>
            <Button size="xs" variant="subtle" color="red" onClick={() => onChange({ ...group, rules: group.rules.filter((_, i) => i !== r) })}>
              Remove rule {r + 1}
            </Button>
          </Group>
        ))}
        <Group align="flex-end" gap="xs">
          <Select label={`New rule type for group ${index + 1}`} data={RULE_TYPES} value={adding} onChange={setAdding} allowDeselect={false} maw={240} />
          <Button
            variant="light"
            disabled={group.rules.length >= MAX_RULES || !adding}
            onClick={() => adding && onChange({ ...group, rules: [...group.rules, newRule(adding)] })}
          >
            Add rule
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The live count: the definition is previewed 400 ms after the last change. */
function useLivePreview(definition: Definition) {
  const { api } = useSession();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  const [pending, setPending] = useState(false);
  const clean = cleanDefinition(definition);
  const ready = clean.groups.length > 0 && clean.groups.every((g) => g.rules.every(ruleComplete));
  const key = JSON.stringify(clean);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the preview reruns when the cleaned definition changes, which `key` stands for
  useEffect(() => {
    if (!ready) {
      setPreview(null);
      setError(null);
      return;
    }
    let live = true;
    setPending(true);
    const timer = window.setTimeout(() => {
      unwrap(api.POST('/newsletters/segments/preview', { body: { definition: clean } })).then(
        (answer) => {
          if (!live) return;
          setPreview(answer);
          setError(null);
          setPending(false);
        },
        (failure) => {
          if (!live) return;
          setError(failure instanceof ApiFailure ? failure : new ApiFailure(0, { message: String(failure) }));
          setPending(false);
        },
      );
    }, 400);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ready, api]);
  return { preview, error, pending, ready };
}

function LiveCount({ definition }: { definition: Definition }) {
  const { preview, error, pending, ready } = useLivePreview(definition);
  return (
    <Card withBorder padding="md" aria-labelledby="live-count-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="live-count-title">
          Live count
        </Title>
        <div role="status" aria-live="polite" data-testid="segment-live-count">
          {!ready ? (
            <Text c="dimmed" size="sm">
              Add a complete rule to see who matches.
            </Text>
          ) : error ? (
            <ErrorState error={error} />
          ) : preview ? (
            <Group gap="xs" align="baseline">
              <Text size="xl" fw={700} data-testid="segment-count">
                {preview.count}
              </Text>
              <Text size="sm">{preview.count === 1 ? 'contact matches' : 'contacts match'}</Text>
              {!preview.complete && (
                <Text size="xs" c="dimmed">
                  (counted {preview.scanned} so far)
                </Text>
              )}
            </Group>
          ) : (
            <Text c="dimmed" size="sm">
              Counting…
            </Text>
          )}
          {/* A spinner's span may not carry a label (axe: aria-prohibited-attr); the live region reads the text. */}
          {pending && (
            <>
              <Loader size="xs" aria-hidden />
              <VisuallyHidden>Updating the count</VisuallyHidden>
            </>
          )}
        </div>
        {preview && preview.sample.length > 0 && (
          <Table aria-label="Sample of matching contacts" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Name</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.sample.map((c) => (
                <Table.Tr key={c._id}>
                  <Table.Td>{c.email}</Table.Td>
                  <Table.Td>{c.name ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

function SegmentSubscribers({ id }: { id: string }) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors[cursors.length - 1];
  const query = useQuery(
    (api: Api) => unwrap(api.GET('/newsletters/segments/{id}/subscribers', { params: { path: { id }, query: { limit: 25, ...(after ? { after } : {}) } } })),
    [id, after],
  );
  const count = useQuery((api: Api) => unwrap(api.GET('/newsletters/segments/{id}/count', { params: { path: { id } } })), [id]);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Members {count.data ? `(${count.data.count})` : ''}
      </Title>
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Segment members"
              rows={answer.data}
              rowKey={(c) => c._id}
              empty={{ title: 'Nobody matches yet' }}
              columns={[
                { key: 'email', header: 'Email', render: (c) => c.email },
                { key: 'name', header: 'Name', render: (c) => c.name ?? '—' },
                { key: 'status', header: 'Status', render: (c) => <StatusBadge status={c.status} /> },
                { key: 'tags', header: 'Tags', render: (c) => [...c.tags, ...c.smartTags].join(', ') || '—' },
              ]}
            />
            <CursorPager cursors={cursors} next={answer.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

function SegmentForm({ segment, products }: { segment?: Segment; products: { value: string; label: string }[] }) {
  const navigate = useNavigate();
  const { api } = useSession();
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [smartTag, setSmartTag] = useState(segment?.smartTag ?? '');
  const [definition, setDefinition] = useState<Definition>(segment ? (segment.definition as Definition) : emptyDefinition());
  const save = useMutation((a: Api) => {
    const body = { name: name.trim(), description: description.trim() || null, smartTag: smartTag.trim() || null, definition: cleanDefinition(definition) };
    return segment
      ? unwrap(a.POST('/newsletters/segments/{id}', { params: { path: { id: segment._id } }, body }))
      : unwrap(a.POST('/newsletters/segments', { body }));
  });
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const saved = await save.run();
    if (saved) navigate(`/segments/${saved._id}`, { replace: true });
  };
  const setGroup = (i: number, g: RuleGroup) => setDefinition((d) => ({ ...d, groups: d.groups.map((x, j) => (j === i ? g : x)) }));
  return (
    <Stack>
      <PageHeader
        title={segment ? `Segment: ${segment.name}` : 'New segment'}
        description="Contacts matching these rules right now; the count updates as you edit."
        actions={
          <>
            <Button component={Link} to="/segments" variant="default">
              All segments
            </Button>
            {segment && (
              <ConfirmButton
                title="Delete segment"
                message={`Delete "${segment.name}"? Its smart tag is taken back from members.`}
                confirmLabel="Delete"
                onConfirm={() =>
                  attempt(async () => {
                    await unwrap(api.DELETE('/newsletters/segments/{id}', { params: { path: { id: segment._id } } }));
                    navigate('/segments');
                  })
                }
              >
                Delete
              </ConfirmButton>
            )}
          </>
        }
      />
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group grow align="flex-start" wrap="wrap">
            <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <TextInput
              label="Smart tag"
              description="Applied to every member, refreshed nightly"
              value={smartTag}
              onChange={(e) => setSmartTag(e.currentTarget.value)}
            />
          </Group>
          <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} autosize minRows={1} />
          <LiveCount definition={definition} />
          <Group gap="xs">
            <Text size="sm" id="segment-match">
              Contacts must match
            </Text>
            <SegmentedControl
              aria-labelledby="segment-match"
              value={definition.match}
              onChange={(v) => setDefinition((d) => ({ ...d, match: v as Match }))}
              data={[
                { value: 'all', label: 'All groups' },
                { value: 'any', label: 'Any group' },
              ]}
            />
          </Group>
          {definition.groups.map((g, i) => (
            <GroupEditor
              // biome-ignore lint/suspicious/noArrayIndexKey: groups have no id until saved; their position is their identity while editing
              key={i}
              group={g}
              index={i}
              products={products}
              onChange={(next) => setGroup(i, next)}
              onRemove={definition.groups.length > 1 ? () => setDefinition((d) => ({ ...d, groups: d.groups.filter((_, j) => j !== i) })) : undefined}
            />
          ))}
          <Group>
            <Button
              variant="default"
              disabled={definition.groups.length >= MAX_GROUPS}
              onClick={() => setDefinition((d) => ({ ...d, groups: [...d.groups, { match: 'all', rules: [] }] }))}
            >
              Add group
            </Button>
          </Group>
          <FormError error={save.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={save.running}>
              {segment ? 'Save segment' : 'Create segment'}
            </Button>
          </Group>
        </Stack>
      </form>
      {segment && <SegmentSubscribers id={segment._id} />}
    </Stack>
  );
}

const loadProducts = async (api: Api) => {
  const [products, offers] = await Promise.all([unwrap(api.GET('/products')), unwrap(api.GET('/subscriptions'))]);
  return [...products, ...offers].map((p) => ({ value: p._id, label: p.name }));
};

export function SegmentEditorPage() {
  const { id = 'new' } = useParams();
  const query = useQuery(
    async (api: Api) => {
      const products = await loadProducts(api).catch(() => []);
      const segment = id === 'new' ? undefined : await unwrap(api.GET('/newsletters/segments/{id}', { params: { path: { id } } }));
      return { products, segment };
    },
    [id],
  );
  return <QueryView query={query}>{({ products, segment }) => <SegmentForm key={segment?._id ?? 'new'} segment={segment} products={products} />}</QueryView>;
}

export const segmentsPage: PageDefinition = { path: 'segments', title: 'Segments', area: 'emails', group: 'Audience', element: <SegmentsPage /> };
export const segmentEditorPage: PageDefinition = {
  path: 'segments/:id',
  title: 'Segment',
  area: 'emails',
  group: 'Audience',
  element: <SegmentEditorPage />,
  nav: false,
};
