import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type JsonAnswer } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, num, type FormValues } from '../../components/FormModal';
import { Money, PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';
import { OnOff } from './common';

type Offer = JsonAnswer<'listRetentionOffers'>['data'][number];

const valuesOf = (o: Offer): FormValues => ({
  saveEnabled: o.saveOffers.enabled,
  pauseMaxMonths: o.saveOffers.pauseMaxMonths,
  discountPercent: o.saveOffers.discountPercent,
  discountMonths: o.saveOffers.discountMonths,
  introEnabled: o.intro.enabled,
  introPrice: o.intro.price ?? '',
  introPeriods: o.intro.periods,
  yearlyEnabled: o.yearlySwitch.enabled,
  afterPayments: o.yearlySwitch.afterPayments,
  percentOff: o.yearlySwitch.percentOff,
});

// Values are sent as typed (NaN for an emptied number becomes null) so that the API, not the
// browser, decides what is valid and says why (400 INVALID_RETENTION_CONFIG with its field).
const bodyOf = (v: FormValues) => ({
  saveOffers: {
    enabled: Boolean(v.saveEnabled),
    pauseMaxMonths: num(v.pauseMaxMonths) ?? null,
    discountPercent: num(v.discountPercent) ?? null,
    discountMonths: num(v.discountMonths) ?? null,
  },
  intro: { enabled: Boolean(v.introEnabled), price: num(v.introPrice) ?? null, periods: num(v.introPeriods) ?? null },
  yearlySwitch: { enabled: Boolean(v.yearlyEnabled), afterPayments: num(v.afterPayments) ?? null, percentOff: num(v.percentOff) ?? null },
});

/** Per offer: save offers at cancel (pause, discount), an intro price, and the switch to yearly. */
export function RetentionOffersPage() {
  const { api } = useSession();
  const query = useQuery((api) => unwrap(api.GET('/subscription-retention/offers')));
  const [editing, setEditing] = useState<Offer | null>(null);
  const save = (v: FormValues) =>
    attempt(async () => {
      const answer = await unwrap(api.PUT('/subscription-retention/offers/{id}', { params: { path: { id: editing!.id } }, body: bodyOf(v) }));
      query.set({ data: (query.data?.data ?? []).map((o) => (o.id === answer.id ? answer : o)) });
    });
  return (
    <Stack>
      <PageHeader
        title="Retention offers"
        description="What a subscriber is offered before cancelling, the intro price new subscribers pay, and the prompt to switch to yearly."
      />
      <QueryView query={query}>
        {(answer) => (
          <>
            <DataTable
              caption="Retention settings per offer"
              rows={answer.data}
              rowKey={(o) => o.id}
              empty={{ title: 'No subscription offers', text: 'Create a subscription offer first.' }}
              columns={[
                { key: 'name', header: 'Offer', render: (o) => o.name },
                {
                  key: 'price',
                  header: 'Price',
                  numeric: true,
                  render: (o) => (
                    <>
                      <Money amount={o.price} currency={o.currency} /> / {o.frequency}
                    </>
                  ),
                },
                {
                  key: 'save',
                  header: 'Save offers',
                  render: (o) => (
                    <Stack gap={2}>
                      <OnOff on={o.saveOffers.enabled} />
                      {o.saveOffers.enabled && (
                        <Text size="xs">
                          pause ≤ {o.saveOffers.pauseMaxMonths} mo · {o.saveOffers.discountPercent}% for {o.saveOffers.discountMonths} mo
                        </Text>
                      )}
                    </Stack>
                  ),
                },
                {
                  key: 'intro',
                  header: 'Intro price',
                  render: (o) => (
                    <Stack gap={2}>
                      <OnOff on={o.intro.enabled} />
                      {o.intro.enabled && (
                        <Text size="xs">
                          <Money amount={o.intro.price} currency={o.currency} /> for {o.intro.periods} periods
                        </Text>
                      )}
                    </Stack>
                  ),
                },
                {
                  key: 'yearly',
                  header: 'Yearly switch',
                  render: (o) => (
                    <Stack gap={2}>
                      <OnOff on={o.yearlySwitch.enabled} />
                      {o.yearlySwitch.enabled && (
                        <Text size="xs">
                          after {o.yearlySwitch.afterPayments} payments, {o.yearlySwitch.percentOff}% off
                        </Text>
                      )}
                    </Stack>
                  ),
                },
                {
                  key: 'edit',
                  header: 'Edit',
                  render: (o) => (
                    <Button size="xs" variant="default" onClick={() => setEditing(o)} aria-label={`Edit retention of ${o.name}`}>
                      Edit
                    </Button>
                  ),
                },
              ]}
            />
            <FormModal
              title={`Retention of ${editing?.name ?? ''}`}
              opened={editing !== null}
              onClose={() => setEditing(null)}
              initial={editing ? valuesOf(editing) : {}}
              fields={[
                { name: 'saveEnabled', label: 'Save offers when a subscriber cancels', kind: 'switch' },
                { name: 'pauseMaxMonths', label: 'Longest pause (months, 1–3)', kind: 'number' },
                { name: 'discountPercent', label: 'Discount to stay (percent, 5–90)', kind: 'number' },
                { name: 'discountMonths', label: 'Discount lasts (months, 1–12)', kind: 'number' },
                { name: 'introEnabled', label: 'Intro price for new subscribers', kind: 'switch' },
                { name: 'introPrice', label: `Intro price (${editing?.currency.toUpperCase() ?? ''}, below the regular price)`, kind: 'number', decimals: 2 },
                { name: 'introPeriods', label: 'Intro periods (1–12)', kind: 'number' },
                { name: 'yearlyEnabled', label: 'Offer a switch to yearly', kind: 'switch' },
                { name: 'afterPayments', label: 'Offer it after payments (1–24)', kind: 'number' },
                { name: 'percentOff', label: 'Yearly discount (percent, 1–50)', kind: 'number' },
              ]}
              submitLabel="Save retention"
              onSubmit={save}
            >
              <Group></Group>
            </FormModal>
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const retentionOffersPage: PageDefinition = {
  path: 'retention/offers',
  title: 'Retention offers',
  area: 'orders',
  group: 'Growth',
  element: <RetentionOffersPage />,
};
