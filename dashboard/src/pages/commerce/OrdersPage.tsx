import { Anchor, Avatar, Badge, Button, Group, Image, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { unwrap, unwrapPage, type Api, type JsonAnswer } from '../../api/client';
import { CursorPager, DataTable } from '../../components/DataTable';
import { Money, PageHeader } from '../../components/Page';
import { useSession } from '../../session';
import { buyerName, chargeKind, countryName, discountCodeOf, productNameOf, saleStatus } from './sale-words';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';

export type Sale = JsonAnswer<'listPayments'>[number];

/** Product pictures by product id: the first image of each product (two short catalog lists). */
export async function loadProductPictures(api: Api): Promise<Map<string, string>> {
  const [products, images] = await Promise.all([unwrap(api.GET('/products')), unwrap(api.GET('/images'))]).catch(() => [[], []] as const);
  const urls = new Map(images.map((i) => [i._id, i.url]));
  return new Map(products.flatMap((p) => (p.imageIds[0] && urls.has(p.imageIds[0]) ? [[p._id, urls.get(p.imageIds[0])!] as [string, string]] : [])));
}

function Bought({ sale, picture, to }: { sale: Sale; picture?: string; to: string }) {
  return (
    <Group gap="sm" wrap="nowrap">
      {picture ? (
        <Image src={picture} alt="" w={36} h={36} radius="sm" fit="cover" />
      ) : (
        <Avatar size={36} radius="sm" aria-hidden>
          {productNameOf(sale).slice(0, 1).toUpperCase()}
        </Avatar>
      )}
      <div>
        <Anchor component={Link} to={to} fw={600} size="sm">
          {productNameOf(sale)}
        </Anchor>
        <Text size="xs" c="dimmed">
          {chargeKind(sale)}
        </Text>
      </div>
    </Group>
  );
}

/** The sales table shared by orders and payments: what was bought, by whom, for how much. */
export function SalesTable({
  rows,
  caption,
  detail,
  pictures,
  exportAll,
}: {
  rows: Sale[];
  caption: string;
  detail: (sale: Sale) => string;
  pictures: Map<string, string>;
  exportAll?: () => Promise<Sale[]>;
}) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(s) => s._id}
      exportAll={exportAll}
      empty={{
        title: `No ${caption.toLowerCase()} yet`,
        text: 'Sales appear here once a buyer pays. Share a buy link to get the first one.',
        action: (
          <Button component={Link} to="/settings#buy-links">
            Get a buy link
          </Button>
        ),
      }}
      columns={[
        {
          key: 'what',
          header: 'Product',
          phone: true,
          render: (s) => <Bought sale={s} picture={pictures.get(s.productId)} to={detail(s)} />,
          text: (s) => productNameOf(s),
        },
        { key: 'date', header: 'Date', render: (s) => formatDate(s.createdAt), text: (s) => s.createdAt },
        {
          key: 'buyer',
          header: 'Buyer',
          render: (s) => (
            <div>
              <Text size="sm">{buyerName(s)}</Text>
              <Text size="xs" c="dimmed">
                {buyerName(s) !== s.buyerEmail ? s.buyerEmail : null}
              </Text>
            </div>
          ),
          text: (s) => `${buyerName(s)} <${s.buyerEmail}>`,
        },
        { key: 'country', header: 'Country', render: (s) => countryName(s.country) ?? '—', text: (s) => String(s.country ?? '') },
        { key: 'discount', header: 'Discount code', render: (s) => discountCodeOf(s) ?? '—', text: (s) => discountCodeOf(s) ?? '' },
        {
          key: 'amount',
          header: 'Amount',
          numeric: true,
          phone: true,
          render: (s) => <Money amount={s.amount} currency={s.currency} />,
          text: (s) => `${s.amount} ${s.currency}`,
        },
        {
          key: 'refunded',
          header: 'Refunded',
          numeric: true,
          render: (s) => (s.refundedAmount ? <Money amount={s.refundedAmount} currency={s.currency} /> : '—'),
          text: (s) => String(s.refundedAmount ?? 0),
        },
        { key: 'status', header: 'Status', phone: true, render: (s) => <SaleStatus sale={s} />, text: (s) => saleStatus(s) },
      ]}
    />
  );
}

/** A sale's status in words, coloured like the other badges. */
export const SaleStatus = ({ sale }: { sale: Sale }) => (
  <Badge
    variant="dot"
    style={{ overflow: 'visible' }}
    miw="fit-content"
    color={sale.status === 'disputed' ? 'red' : sale.status === 'refunded' || sale.refundedAmount > 0 ? 'grape' : 'green'}
  >
    {saleStatus(sale)}
  </Badge>
);

/** Every page of a cursor list, for the CSV export (1,000 rows a request, the API's largest page). */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<{ rows: T[]; nextCursor: string | null }>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await page(cursor);
    rows.push(...answer.rows);
    cursor = answer.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

/** Rows per page of the sales tables. */
const PAGE = 50;

export function OrdersPage() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const { api } = useSession();
  const query = useQuery(
    async (api) => ({
      page: await unwrapPage(api.GET('/orders', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } })),
      pictures: await loadProductPictures(api),
    }),
    [cursor],
  );
  const exportAll = () => allPages((c) => unwrapPage(api.GET('/orders', { params: { query: { limit: 1000, ...(c ? { cursor: c } : {}) } } })));
  return (
    <Stack>
      <PageHeader title="Orders" description="One-time purchases. Subscription charges are under Payments." />
      <QueryView query={query}>
        {({ page, pictures }) => (
          <>
            <SalesTable rows={page.rows} caption="Orders" detail={(s) => `/orders/${s._id}`} pictures={pictures} exportAll={exportAll} />
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
  const { api } = useSession();
  const query = useQuery(
    async (api) => ({
      page: await unwrapPage(api.GET('/payments', { params: { query: { limit: PAGE, ...(type === 'all' ? {} : { type }), ...(cursor ? { cursor } : {}) } } })),
      pictures: await loadProductPictures(api),
    }),
    [type, cursor],
  );
  const exportAll = () =>
    allPages((c) => unwrapPage(api.GET('/payments', { params: { query: { limit: 1000, ...(type === 'all' ? {} : { type }), ...(c ? { cursor: c } : {}) } } })));
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
        {({ page, pictures }) => (
          <>
            <SalesTable rows={page.rows} caption="Payments" detail={(s) => `/payments/${s._id}`} pictures={pictures} exportAll={exportAll} />
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
