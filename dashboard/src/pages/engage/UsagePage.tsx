import { ActionIcon, Anchor, Button, Group, Modal, NumberInput, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { unwrap, type JsonAnswer } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { Money, PageHeader, StatusBadge } from '../../components/Page';
import { FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { formatCents } from '../../lib/money';
import type { PageDefinition } from '../types';
import { OnOff } from './common';

export type UsagePricing = JsonAnswer<'updateUsagePricing'>['usagePricing'];
type Meter = UsagePricing['meters'][number];
type Offer = JsonAnswer<'listSubscriptionOffers'>[number];

export const pricingOf = (o: Offer): UsagePricing => {
  const raw = (o as unknown as { usagePricing?: Partial<UsagePricing> }).usagePricing;
  return { seats: { enabled: false, ...(raw?.seats ?? {}) }, meters: (raw?.meters ?? []) as Meter[] };
};

const MAX_METERS = 5;

function PricingEditor({ offer, onClose, onSaved }: { offer: Offer | null; onClose: () => void; onSaved: () => void }) {
  const [seats, setSeats] = useState<UsagePricing['seats']>({ enabled: false });
  const [meters, setMeters] = useState<Meter[]>([]);
  useEffect(() => {
    if (offer) {
      const p = pricingOf(offer);
      setSeats(p.seats);
      setMeters(p.meters);
    }
  }, [offer]);
  const save = useMutation((api, id: string) => unwrap(api.PUT('/subscriptions/{id}/usage-pricing', { params: { path: { id } }, body: { seats, meters } })));
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new offer clears the previous save result
  useEffect(() => save.reset(), [offer, save.reset]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (offer && (await save.run(offer._id))) {
      onSaved();
      onClose();
    }
  };
  const n = (v: string | number) => (typeof v === 'number' ? v : undefined);
  const setMeter = (i: number, patch: Partial<Meter>) => setMeters((all) => all.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  return (
    <Modal opened={offer !== null} onClose={onClose} title={`Usage pricing of ${offer?.name ?? ''}`} size="xl" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={3} size="h5">
            Seats
          </Title>
          <Switch label="Charge per seat" checked={seats.enabled} onChange={(e) => setSeats((s) => ({ ...s, enabled: e.currentTarget.checked }))} />
          {seats.enabled && (
            <Group grow>
              <NumberInput
                label="Price per extra seat (cents)"
                value={seats.unitPriceCents ?? ''}
                onChange={(v) => setSeats((s) => ({ ...s, unitPriceCents: n(v) }))}
                allowDecimal={false}
              />
              <NumberInput
                label="Minimum seats"
                value={seats.minimum ?? ''}
                onChange={(v) => setSeats((s) => ({ ...s, minimum: n(v) }))}
                allowDecimal={false}
              />
              <NumberInput
                label="Maximum seats"
                value={seats.maximum ?? ''}
                onChange={(v) => setSeats((s) => ({ ...s, maximum: n(v) }))}
                allowDecimal={false}
              />
            </Group>
          )}
          <Title order={3} size="h5">
            Meters (at most {MAX_METERS})
          </Title>
          {meters.length === 0 && (
            <Text size="sm" c="dimmed">
              No meters: the offer bills a flat price.
            </Text>
          )}
          {meters.map((m, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: meters being typed have no key yet; their position is their identity
            <Group key={i} align="flex-end" wrap="nowrap">
              <TextInput label="Key" value={m.key} onChange={(e) => setMeter(i, { key: e.currentTarget.value })} w={140} />
              <TextInput label="Name" value={m.name} onChange={(e) => setMeter(i, { name: e.currentTarget.value })} w={160} />
              <NumberInput
                label="Price per unit over (cents)"
                value={m.unitPriceCents}
                onChange={(v) => setMeter(i, { unitPriceCents: n(v) ?? 0 })}
                allowDecimal={false}
                w={170}
              />
              <NumberInput
                label="Included units"
                value={m.includedUnits}
                onChange={(v) => setMeter(i, { includedUnits: n(v) ?? 0 })}
                allowDecimal={false}
                w={130}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove meter ${m.key || i + 1}`}
                onClick={() => setMeters((all) => all.filter((_, j) => j !== i))}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              variant="default"
              size="xs"
              disabled={meters.length >= MAX_METERS}
              onClick={() => setMeters((all) => [...all, { key: '', name: '', unitPriceCents: 0, includedUnits: 0 }])}
            >
              Add meter
            </Button>
          </Group>
          <FormError error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.running}>
              Save pricing
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function SubscribersOf({ offers }: { offers: Offer[] }) {
  const priced = offers.filter((o) => pricingOf(o).seats.enabled || pricingOf(o).meters.length > 0);
  const [offerId, setOfferId] = useState<string | null>(priced[0]?._id ?? null);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery(
    (api) =>
      offerId
        ? unwrap(api.GET('/subscriptions/subscribers', { params: { query: { subscriptionId: offerId, limit: 20, ...(cursor ? { cursor } : {}) } } }))
        : Promise.resolve(null),
    [offerId, cursor],
  );
  return (
    <Stack>
      <Title order={2} size="h4">
        Usage per subscriber
      </Title>
      <Select
        label="Offer"
        placeholder={priced.length ? 'Pick an offer' : 'No usage-priced offer yet'}
        data={priced.map((o) => ({ value: o._id, label: o.name }))}
        value={offerId}
        onChange={(v) => {
          setOfferId(v);
          setCursors([undefined]);
        }}
        w={320}
      />
      <QueryView query={query}>
        {(answer) =>
          answer && (
            <>
              <DataTable
                caption="Subscribers of the offer"
                rows={answer.data}
                rowKey={(s) => s._id}
                empty={{ title: 'No subscribers on this offer' }}
                columns={[
                  {
                    key: 'who',
                    header: 'Subscriber',
                    render: (s) => (
                      <Anchor component={Link} to={`/usage/subscribers/${s._id}`}>
                        {String((s as { buyerEmail?: string }).buyerEmail ?? s._id)}
                      </Anchor>
                    ),
                  },
                  { key: 'status', header: 'Status', render: (s) => <StatusBadge status={s.status} /> },
                ]}
              />
              <CursorPager cursors={cursors} next={answer.nextCursor} onChange={setCursors} />
            </>
          )
        }
      </QueryView>
    </Stack>
  );
}

/** Usage pricing (seats and meters) per offer, and a way into each subscriber's usage report. */
export function UsagePage() {
  const query = useQuery((api) => unwrap(api.GET('/subscriptions')));
  const [editing, setEditing] = useState<Offer | null>(null);
  return (
    <Stack>
      <PageHeader title="Usage billing" description="Seats and metered usage on top of an offer’s price, billed at the end of each period." />
      <QueryView query={query}>
        {(offers) => (
          <>
            <DataTable
              caption="Usage pricing per offer"
              rows={offers}
              rowKey={(o) => o._id}
              empty={{ title: 'No subscription offers', text: 'Usage pricing is set on a subscription offer.' }}
              columns={[
                { key: 'name', header: 'Offer', render: (o) => o.name },
                { key: 'price', header: 'Base price', numeric: true, render: (o) => <Money amount={o.price} currency={o.currency} /> },
                {
                  key: 'seats',
                  header: 'Seats',
                  render: (o) => {
                    const s = pricingOf(o).seats;
                    return s.enabled ? (
                      `${formatCents(s.unitPriceCents ?? 0, o.currency)} per extra seat (${s.minimum ?? 1}–${s.maximum ?? '∞'})`
                    ) : (
                      <OnOff on={false} />
                    );
                  },
                },
                {
                  key: 'meters',
                  header: 'Meters',
                  render: (o) =>
                    pricingOf(o)
                      .meters.map((m) => `${m.name} (${m.includedUnits} included, then ${formatCents(m.unitPriceCents, o.currency)})`)
                      .join('; ') || '—',
                },
                {
                  key: 'edit',
                  header: 'Edit',
                  render: (o) => (
                    <Button size="xs" variant="default" onClick={() => setEditing(o)} aria-label={`Edit pricing of ${o.name}`}>
                      Edit pricing
                    </Button>
                  ),
                },
              ]}
            />
            <PricingEditor offer={editing} onClose={() => setEditing(null)} onSaved={query.reload} />
            <SubscribersOf offers={offers} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const usagePage: PageDefinition = { path: 'usage', title: 'Usage billing', area: 'orders', group: 'Sales', element: <UsagePage /> };
