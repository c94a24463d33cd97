import { Anchor, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { unwrapPage, type JsonAnswer } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { Money, PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';

export type Sale = JsonAnswer<'listPayments'>[number];

/** The sales table shared by orders and payments. */
export function SalesTable({ rows, caption, detail }: { rows: Sale[]; caption: string; detail: (sale: Sale) => string }) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(s) => s._id}
      empty={{ title: `No ${caption.toLowerCase()} yet`, text: 'Sales appear here once a buyer pays through the checkout.' }}
      columns={[
        { key: 'date', header: 'Date', render: (s) => <Anchor component={Link} to={detail(s)}>{formatDate(s.createdAt)}</Anchor> },
        { key: 'buyer', header: 'Buyer', render: (s) => s.buyerEmail },
        { key: 'what', header: 'Items', render: (s) => (s.lines ?? []).map((l) => l.productName).join(', ') || (s.billingReason ?? s.type) },
        { key: 'amount', header: 'Amount', numeric: true, render: (s) => <Money amount={s.amount} currency={s.currency} /> },
        { key: 'refunded', header: 'Refunded', numeric: true, render: (s) => (s.refundedAmount ? <Money amount={s.refundedAmount} currency={s.currency} /> : '—') },
        { key: 'status', header: 'Status', render: (s) => <StatusBadge status={s.status} /> },
      ]}
    />
  );
}

/** Rows per page of the sales tables. */
const PAGE = 50;

export function OrdersPage() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery((api) => unwrapPage(api.GET('/orders', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } })), [cursor]);
  return (
    <Stack>
      <PageHeader title="Orders" description="One-time orders. Subscription charges are under Payments." />
      <QueryView query={query}>
        {(page) => (
          <>
            <SalesTable rows={page.rows} caption="Orders" detail={(s) => `/orders/${s._id}`} />
            <CursorPager cursors={cursors} next={page.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export function PaymentsPage() {
  const [type, setType] = useState<'all' | 'one_time' | 'subscription'>('all');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery((api) => unwrapPage(api.GET('/payments', { params: { query: { limit: PAGE, ...(type === 'all' ? {} : { type }), ...(cursor ? { cursor } : {}) } } })), [type, cursor]);
  return (
    <Stack>
      <PageHeader title="Payments" description="Every charge: one-time orders and subscription payments." />
      <SegmentedControl
        aria-label="Payment type"
        value={type}
        onChange={(v) => {
          setType(v as typeof type);
          setCursors([undefined]);
        }}
        data={[
          { value: 'all', label: 'All' },
          { value: 'one_time', label: 'One-time' },
          { value: 'subscription', label: 'Subscriptions' },
        ]}
        w="fit-content"
      />
      <QueryView query={query}>
        {(page) => (
          <>
            <SalesTable rows={page.rows} caption="Payments" detail={(s) => `/payments/${s._id}`} />
            <CursorPager cursors={cursors} next={page.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
      <Text size="sm" c="dimmed">
        Refunds are issued with the payment processor; a refunded payment shows its refunded amount here once the processor reports it.
      </Text>
    </Stack>
  );
}

export const ordersPage: PageDefinition = { path: 'orders', title: 'Orders', area: 'orders', group: 'Sales', element: <OrdersPage /> };
export const paymentsPage: PageDefinition = { path: 'payments', title: 'Payments', area: 'orders', group: 'Sales', element: <PaymentsPage /> };
