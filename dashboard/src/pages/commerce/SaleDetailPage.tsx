import { Anchor, Card, Code, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { unwrap, type Api } from '../../api/client';
import { Money, PageHeader, StatusBadge } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';
import type { Sale } from './OrdersPage';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

/** One order or payment: what was bought, by whom, its status and refunds. */
function SaleDetail({ kind }: { kind: 'order' | 'payment' }) {
  const { id = '' } = useParams();
  const query = useQuery((api: Api) => (kind === 'order' ? unwrap(api.GET('/orders/{id}', { params: { path: { id } } })) : unwrap(api.GET('/payments/{id}', { params: { path: { id } } }))) as Promise<Sale & Record<string, unknown>>, [id, kind]);
  return (
    <Stack>
      <PageHeader title={kind === 'order' ? 'Order' : 'Payment'} description={<Anchor component={Link} to={kind === 'order' ? '/orders' : '/payments'}>Back to the list</Anchor>} />
      <QueryView query={query}>
        {(sale) => (
          <Stack>
            <Card withBorder>
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4">
                  <Money amount={sale.amount} currency={sale.currency} />
                </Title>
                <span data-testid="sale-status">
                  <StatusBadge status={sale.status} />
                </span>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <Fact label="Buyer">{sale.buyerEmail}</Fact>
                <Fact label="Date">{formatDate(sale.createdAt)}</Fact>
                <Fact label="Type">{sale.billingReason ? `${sale.type} (${sale.billingReason})` : sale.type}</Fact>
                <Fact label="Refunded">
                  <span data-testid="refunded-amount">{sale.refundedAmount ? <Money amount={sale.refundedAmount} currency={sale.currency} /> : 'nothing'}</span>
                </Fact>
                <Fact label="Payment method">{sale.paymentMethod ? `${sale.paymentMethod.brand} •••• ${sale.paymentMethod.last4}` : '—'}</Fact>
                <Fact label="Reference">{sale.clientReferenceId ?? '—'}</Fact>
              </SimpleGrid>
            </Card>
            {(sale.lines ?? []).length > 0 && (
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Items
                </Title>
                <Table aria-label="Items">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Item</Table.Th>
                      <Table.Th scope="col" style={{ textAlign: 'right' }}>
                        Amount
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {(sale.lines ?? []).map((line, i) => (
                      <Table.Tr key={`${line.productId}-${i}`}>
                        <Table.Td>{line.productName}{line.upsellId ? ' (upsell)' : ''}</Table.Td>
                        <Table.Td style={{ textAlign: 'right' }}>
                          <Money amount={line.amount} currency={sale.currency} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Card>
            )}
            {Object.keys(sale.metadata ?? {}).length > 0 && (
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Metadata
                </Title>
                <Code block>{JSON.stringify(sale.metadata, null, 2)}</Code>
              </Card>
            )}
            <Text size="sm" c="dimmed">
              Refunds are issued with the payment processor (the API has no refund route); the refunded amount and status update here when the processor reports the refund.
            </Text>
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

export const orderDetailPage: PageDefinition = { path: 'orders/:id', title: 'Order', area: 'orders', group: 'Sales', nav: false, element: <SaleDetail kind="order" /> };
export const paymentDetailPage: PageDefinition = { path: 'payments/:id', title: 'Payment', area: 'orders', group: 'Sales', nav: false, element: <SaleDetail kind="payment" /> };
