import { Anchor, Button, Card, Code, Group, NumberInput, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { unwrap, type Api } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { attempt } from '../../components/FormModal';
import { Money, PageHeader, StatusBadge } from '../../components/Page';
import { useSession } from '../../session';
import { QueryView } from '../../components/states';
import { saveDownload } from '../../lib/download';
import { useQuery } from '../../lib/hooks';
import { FormError } from '../../components/states';
import type { ApiFailure } from '../../api/client';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';
import { SaleStatus, type Sale } from './OrdersPage';
import { buyerName, chargeKind, countryName, discountCodeOf, productNameOf } from './sale-words';

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

/**
 * Refund all that is left, or a part of it (major units). The processor carries it out and its
 * notification updates the sale, so the page reloads the sale rather than guessing the outcome.
 */
function RefundCard({ sale, onRefunded }: { sale: Sale & Record<string, unknown>; onRefunded: () => void }) {
  const { api } = useSession();
  const [amount, setAmount] = useState<number | string>('');
  const left = Math.round((sale.amount - (sale.refundedAmount ?? 0)) * 100) / 100;
  if (sale.status !== 'completed' || left <= 0) return null;
  const refund = () =>
    attempt(async () => {
      const body = typeof amount === 'number' ? { amountCents: Math.round(amount * 100) } : {};
      await unwrap(api.POST('/payments/{id}/refund', { params: { path: { id: sale._id } }, body }));
      // The processor reports the refund a moment later; read the sale again then.
      window.setTimeout(onRefunded, 800);
    });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Refund
      </Title>
      <Group align="flex-end">
        <NumberInput
          label={`Amount (${sale.currency}), empty for all that is left`}
          value={amount}
          onChange={setAmount}
          min={0.01}
          max={left}
          decimalScale={2}
          w={300}
        />
        <ConfirmButton
          title="Refund this payment"
          confirmLabel="Refund"
          message={
            typeof amount === 'number'
              ? `Refund ${amount} ${sale.currency} to ${sale.buyerEmail}?`
              : `Refund all that is left (${left} ${sale.currency}) to ${sale.buyerEmail}?`
          }
          onConfirm={refund}
        >
          Refund
        </ConfirmButton>
      </Group>
    </Card>
  );
}

/** The invoice (and the credit note of a refund) as PDFs, numbered when first downloaded. */
function InvoiceCard({ sale }: { sale: Sale & Record<string, unknown> }) {
  const { api } = useSession();
  const [error, setError] = useState<ApiFailure | null>(null);
  const get = async (kind: 'invoice' | 'credit-note') => {
    setError(null);
    const call =
      kind === 'invoice'
        ? api.GET('/orders/{id}/invoice.pdf', { params: { path: { id: sale._id } }, parseAs: 'blob' })
        : api.GET('/orders/{id}/credit-note.pdf', { params: { path: { id: sale._id } }, parseAs: 'blob' });
    setError(await saveDownload(call, `${kind}-${sale._id}.pdf`));
  };
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Invoice
      </Title>
      <Text size="sm" mb="sm">
        The buyer can add a company name and VAT ID from the link in their receipt before the invoice is first downloaded.
      </Text>
      <FormError error={error} />
      <Group>
        <Button variant="default" onClick={() => get('invoice')}>
          Download invoice (PDF)
        </Button>
        {(sale.refundedAmount ?? 0) > 0 && (
          <Button variant="default" onClick={() => get('credit-note')}>
            Download credit note (PDF)
          </Button>
        )}
      </Group>
    </Card>
  );
}

type OrderKey = { key: string; status: string; licenseId?: string; activations?: number; activationLimit?: number };

/** The order's licence keys: each with its status and activations, revoked or reactivated here. */
function LicenseKeysCard({ keys, onChanged }: { keys: OrderKey[]; onChanged: () => void }) {
  const { api } = useSession();
  if (!keys.length) return null;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Licence keys
      </Title>
      <Table aria-label="Licence keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Key</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Activations</Table.Th>
            <Table.Th scope="col">Action</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((k) => (
            <Table.Tr key={k.key}>
              <Table.Td>
                <Code data-testid="license-key">{k.key}</Code>
              </Table.Td>
              <Table.Td data-testid="license-status">
                <StatusBadge status={k.status} />
              </Table.Td>
              <Table.Td>{k.activationLimit ? `${k.activations ?? 0} of ${k.activationLimit}` : '—'}</Table.Td>
              <Table.Td>
                {k.licenseId && k.status === 'active' && (
                  <ConfirmButton
                    size="xs"
                    title="Revoke licence key"
                    message="The buyer's app will no longer accept this key."
                    confirmLabel="Revoke"
                    aria-label={`Revoke ${k.key}`}
                    onConfirm={() =>
                      attempt(async () => {
                        await unwrap(api.POST('/licenses/{id}/revoke', { params: { path: { id: k.licenseId! } } }));
                        onChanged();
                      })
                    }
                  >
                    Revoke
                  </ConfirmButton>
                )}
                {k.licenseId && k.status === 'revoked' && (
                  <ConfirmButton
                    size="xs"
                    color="green"
                    title="Reactivate licence key"
                    message="The key works again."
                    confirmLabel="Reactivate"
                    aria-label={`Reactivate ${k.key}`}
                    onConfirm={() =>
                      attempt(async () => {
                        await unwrap(api.POST('/licenses/{id}/reactivate', { params: { path: { id: k.licenseId! } } }));
                        onChanged();
                      })
                    }
                  >
                    Reactivate
                  </ConfirmButton>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/** One order or payment: what was bought, by whom, its status and refunds. */
function SaleDetail({ kind }: { kind: 'order' | 'payment' }) {
  const { id = '' } = useParams();
  const query = useQuery(
    (api: Api) =>
      (kind === 'order'
        ? unwrap(api.GET('/orders/{id}', { params: { path: { id } } }))
        : unwrap(api.GET('/payments/{id}', { params: { path: { id } } }))) as Promise<Sale & Record<string, unknown>>,
    [id, kind],
  );
  return (
    <Stack>
      <PageHeader
        title={kind === 'order' ? 'Order' : 'Payment'}
        description={
          <Anchor component={Link} to={kind === 'order' ? '/orders' : '/payments'}>
            Back to the list
          </Anchor>
        }
      />
      <QueryView query={query}>
        {(sale) => (
          <Stack>
            <Card withBorder>
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4">
                  <Money amount={sale.amount} currency={sale.currency} />
                </Title>
                <span data-testid="sale-status">
                  <SaleStatus sale={sale} />
                </span>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <Fact label="Product">{productNameOf(sale)}</Fact>
                <Fact label="Buyer">{buyerName(sale) === sale.buyerEmail ? sale.buyerEmail : `${buyerName(sale)} (${sale.buyerEmail})`}</Fact>
                <Fact label="Country">{countryName(sale.country) ?? '—'}</Fact>
                <Fact label="Date">{formatDate(sale.createdAt)}</Fact>
                <Fact label="Kind">{chargeKind(sale)}</Fact>
                <Fact label="Discount code">{discountCodeOf(sale) ?? 'none'}</Fact>
                <Fact label="Refunded">
                  <span data-testid="refunded-amount">{sale.refundedAmount ? <Money amount={sale.refundedAmount} currency={sale.currency} /> : 'nothing'}</span>
                </Fact>
                <Fact label="Payment method">{sale.paymentMethod ? `${sale.paymentMethod.brand} •••• ${sale.paymentMethod.last4}` : '—'}</Fact>
                {sale.clientReferenceId && <Fact label="Your reference">{sale.clientReferenceId}</Fact>}
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
                      // biome-ignore lint/suspicious/noArrayIndexKey: an order may list one product twice; lines never reorder
                      <Table.Tr key={`${line.productId}-${i}`}>
                        <Table.Td>
                          {line.productName}
                          {line.upsellId ? ' (upsell)' : ''}
                        </Table.Td>
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
            <InvoiceCard sale={sale} />
            <LicenseKeysCard keys={(sale.licenseKeys as OrderKey[] | undefined) ?? []} onChanged={query.reload} />
            <RefundCard sale={sale} onRefunded={query.reload} />
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

export const orderDetailPage: PageDefinition = {
  path: 'orders/:id',
  title: 'Order',
  area: 'orders',
  group: 'Sales',
  nav: false,
  element: <SaleDetail kind="order" />,
};
export const paymentDetailPage: PageDefinition = {
  path: 'payments/:id',
  title: 'Payment',
  area: 'orders',
  group: 'Sales',
  nav: false,
  element: <SaleDetail kind="payment" />,
};
