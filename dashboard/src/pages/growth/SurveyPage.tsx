import { Alert, Button, Card, Group, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { Money, PageHeader } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';

type Settings = JsonAnswer<'getAttributionSurvey'>;
type Option = NonNullable<JsonBody<'updateAttributionSurvey'>['options']>[number];
const CHANNELS = ['instagram', 'tiktok', 'youtube', 'x', 'facebook', 'email', 'ads', 'other'] as const;
const day = (d: Date) => d.toISOString().slice(0, 10);

function SettingsEditor({ saved, onSaved }: { saved: Settings; onSaved: (s: Settings) => void }) {
  const [enabled, setEnabled] = useState(saved.enabled);
  const [question, setQuestion] = useState(saved.question);
  const [allowOther, setAllowOther] = useState(saved.allowOther);
  const [options, setOptions] = useState<Option[]>(saved.options);
  const [done, setDone] = useState(false);
  const save = useMutation((api: Api) =>
    unwrap(
      api.PUT('/attribution-survey/settings', {
        body: { enabled, question, allowOther, options: options.map((o) => ({ ...(o.id ? { id: o.id } : {}), label: o.label, channel: o.channel ?? null })) },
      }),
    ),
  );
  return (
    <Card withBorder>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setDone(false);
          const answer = await save.run();
          if (answer) {
            onSaved(answer);
            setDone(true);
          }
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            Question after checkout
          </Title>
          <Switch label="Ask buyers where they heard of you" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <TextInput label="Question" value={question} onChange={(e) => setQuestion(e.currentTarget.value)} />
          {options.map((o, i) => (
            <Group key={o.id ?? `new-${i}`} align="flex-end" wrap="nowrap">
              <TextInput
                label={`Answer ${i + 1}`}
                value={o.label}
                onChange={(e) => {
                  const label = e.currentTarget.value;
                  setOptions(options.map((x, j) => (j === i ? { ...x, label } : x)));
                }}
                style={{ flex: 1 }}
              />
              <Select
                label={`Answer ${i + 1} channel`}
                data={[...CHANNELS]}
                value={o.channel ?? null}
                onChange={(v) => setOptions(options.map((x, j) => (j === i ? { ...x, channel: (v as Option['channel']) ?? null } : x)))}
                clearable
                maw={160}
              />
              <Button variant="subtle" color="red" onClick={() => setOptions(options.filter((_, j) => j !== i))}>
                Remove answer {i + 1}
              </Button>
            </Group>
          ))}
          <Group>
            <Button variant="default" onClick={() => setOptions([...options, { label: '', channel: null }])}>
              Add answer
            </Button>
            <Switch label="Allow a free-text answer" checked={allowOther} onChange={(e) => setAllowOther(e.currentTarget.checked)} />
          </Group>
          <FormError error={save.error} />
          <div role="status" aria-live="polite">
            {done && <Text size="sm">Saved {formatDate(saved.updatedAt)}.</Text>}
          </div>
          <Group justify="flex-end">
            <Button type="submit" loading={save.running}>
              Save survey
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function Report() {
  const now = new Date();
  const [start, setStart] = useState(day(new Date(now.getTime() - 30 * 86_400_000)));
  const [end, setEnd] = useState(day(now));
  const query = useQuery((api: Api) => unwrap(api.GET('/attribution-survey/report', { params: { query: { startDate: start, endDate: end } } })), [start, end]);
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Report
        </Title>
        <Group>
          <TextInput type="date" label="From" value={start} onChange={(e) => setStart(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={end} onChange={(e) => setEnd(e.currentTarget.value)} />
        </Group>
        <QueryView query={query}>
          {(r) => (
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Text size="sm">
                  Shown: <strong>{r.totals.shown}</strong>
                </Text>
                <Text size="sm">
                  Answered: <strong>{r.totals.answered}</strong>
                </Text>
                <Text size="sm">
                  Response rate: <strong>{(r.totals.responseRate * 100).toFixed(1)}%</strong>
                </Text>
                <Text size="sm">
                  Revenue:{' '}
                  <strong>
                    <Money amount={r.totals.revenue} currency={r.currency} />
                  </strong>
                </Text>
              </SimpleGrid>
              {r.options.length === 0 && r.other.answers === 0 ? (
                <Text size="sm">No answers in these dates.</Text>
              ) : (
                <Table aria-label="Answers" striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Answer</Table.Th>
                      <Table.Th scope="col">Channel</Table.Th>
                      <Table.Th scope="col" style={{ textAlign: 'right' }}>
                        Answers
                      </Table.Th>
                      <Table.Th scope="col" style={{ textAlign: 'right' }}>
                        Share
                      </Table.Th>
                      <Table.Th scope="col" style={{ textAlign: 'right' }}>
                        Revenue
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {[...r.options.map((o) => ({ ...o, key: o.id })), { ...r.other, key: 'other', label: 'Other (free text)', channel: null }].map((o) => (
                      <Table.Tr key={o.key}>
                        <Table.Td>{o.label}</Table.Td>
                        <Table.Td>{o.channel ?? '—'}</Table.Td>
                        <Table.Td style={{ textAlign: 'right' }}>{o.answers}</Table.Td>
                        <Table.Td style={{ textAlign: 'right' }}>{(o.share * 100).toFixed(1)}%</Table.Td>
                        <Table.Td style={{ textAlign: 'right' }}>
                          <Money amount={o.revenue} currency={r.currency} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              {r.other.topAnswers.length > 0 && (
                <Text size="sm">Top free-text answers: {r.other.topAnswers.map((a) => `${a.answer} (${a.count})`).join(', ')}</Text>
              )}
              {r.trackedLinks.locked ? (
                <Alert color="gray">Tracked-link figures per channel need the Pro plan.</Alert>
              ) : (
                r.trackedLinks.channels.length > 0 && (
                  <Table aria-label="Tracked links by channel">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">Channel</Table.Th>
                        <Table.Th scope="col" style={{ textAlign: 'right' }}>
                          Clicks
                        </Table.Th>
                        <Table.Th scope="col" style={{ textAlign: 'right' }}>
                          Visitors
                        </Table.Th>
                        <Table.Th scope="col" style={{ textAlign: 'right' }}>
                          Sales
                        </Table.Th>
                        <Table.Th scope="col" style={{ textAlign: 'right' }}>
                          Revenue
                        </Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {r.trackedLinks.channels.map((c) => (
                        <Table.Tr key={c.channel}>
                          <Table.Td>{c.channel}</Table.Td>
                          <Table.Td style={{ textAlign: 'right' }}>{c.clicks}</Table.Td>
                          <Table.Td style={{ textAlign: 'right' }}>{c.visitors}</Table.Td>
                          <Table.Td style={{ textAlign: 'right' }}>{c.sales}</Table.Td>
                          <Table.Td style={{ textAlign: 'right' }}>
                            <Money amount={c.revenue} currency={r.currency} />
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )
              )}
            </Stack>
          )}
        </QueryView>
      </Stack>
    </Card>
  );
}

export function SurveyPage() {
  const query = useQuery((api: Api) => unwrap(api.GET('/attribution-survey/settings')));
  return (
    <Stack>
      <PageHeader title="Attribution survey" description="Ask buyers where they heard of you, and see which channels bring revenue." />
      <QueryView query={query}>{(saved) => <SettingsEditor key={saved.updatedAt ?? 'new'} saved={saved} onSaved={query.set} />}</QueryView>
      <Report />
    </Stack>
  );
}

export const surveyPage: PageDefinition = { path: 'attribution', title: 'Attribution survey', area: 'analytics', group: 'Growth', element: <SurveyPage /> };
