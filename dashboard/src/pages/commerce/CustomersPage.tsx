import { Alert, Button, Group, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { unwrap, unwrapPage } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CursorPager, DataTable } from '../../components/DataTable';
import { attempt, FormModal, text } from '../../components/FormModal';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { saveFromUrl } from '../../lib/download';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

export function CustomersPage() {
  const { api } = useSession();
  const [productId, setProductId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const products = useQuery((api) => unwrap(api.GET('/products')));
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery(
    (api) => unwrapPage(api.GET('/customers', { params: { query: { limit: 50, ...(productId ? { productId } : {}), ...(cursor ? { cursor } : {}) } } })),
    [productId, cursor],
  );
  return (
    <Stack>
      <PageHeader
        title="Customers"
        description="Everyone who bought, keyed by email."
        actions={<Button onClick={() => setCreating(true)}>New customer</Button>}
      />
      {notice && (
        <Alert color="teal" withCloseButton onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Select
        label="Bought product"
        placeholder="Any product"
        data={(products.data ?? []).map((p) => ({ value: p._id, label: p.name }))}
        value={productId}
        onChange={(id) => {
          setProductId(id);
          setCursors([undefined]);
        }}
        clearable
        w={300}
      />
      <QueryView query={query}>
        {(page) => (
          <>
            <DataTable
              caption="Customers"
              rows={page.rows}
              rowKey={(c) => c._id}
              columns={[
                { key: 'email', header: 'Email', render: (c) => c.buyerEmail },
                { key: 'name', header: 'Name', render: (c) => [c.firstName, c.lastName].filter(Boolean).join(' ') || '—' },
                { key: 'country', header: 'Country', render: (c) => c.country ?? '—' },
                { key: 'orders', header: 'Orders', numeric: true, render: (c) => c.numberOfOrders },
                { key: 'since', header: 'Since', render: (c) => formatDate(c.createdAt) },
                {
                  key: 'actions',
                  header: 'Data',
                  render: (c) => (
                    <Group gap="xs" wrap="nowrap">
                      <ConfirmButton
                        color="indigo"
                        title="Export this buyer's data"
                        message={`Download everything held about ${c.buyerEmail} in this mode, as a JSON file.`}
                        confirmLabel="Download"
                        aria-label={`Export ${c.buyerEmail}`}
                        onConfirm={() =>
                          attempt(async () => {
                            const file = await unwrap(api.GET('/customers/{id}/export', { params: { path: { id: c._id } } }));
                            saveFromUrl(file.url, `customer-${c._id}.json`);
                          })
                        }
                      >
                        Export
                      </ConfirmButton>
                      <ConfirmButton
                        title="Erase this buyer"
                        message={`Erase the personal data of ${c.buyerEmail} everywhere? Orders keep their amounts, dates, products and country for your books, without the name or email. This cannot be undone.`}
                        confirmLabel="Erase"
                        aria-label={`Erase ${c.buyerEmail}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/customers/{id}', { params: { path: { id: c._id } } }));
                            setNotice(`${c.buyerEmail} is being erased: gone from the lists now, everywhere else within moments.`);
                            query.reload();
                          })
                        }
                      >
                        Erase
                      </ConfirmButton>
                    </Group>
                  ),
                },
              ]}
            />
            <CursorPager cursors={cursors} next={page.nextCursor} onChange={setCursors} />
          </>
        )}
      </QueryView>
      <FormModal
        title="New customer"
        opened={creating}
        onClose={() => setCreating(false)}
        fields={[
          { name: 'email', label: 'Email', kind: 'email', required: true },
          { name: 'firstName', label: 'First name' },
          { name: 'lastName', label: 'Last name' },
          { name: 'country', label: 'Country (two letters)' },
        ]}
        onSubmit={(v) =>
          attempt(async () => {
            const country = text(v.country)?.toUpperCase();
            await unwrap(
              api.POST('/customers', {
                body: {
                  email: text(v.email) ?? '',
                  ...(text(v.firstName) ? { firstName: text(v.firstName) } : {}),
                  ...(text(v.lastName) ? { lastName: text(v.lastName) } : {}),
                  ...(country ? { country } : {}),
                },
              }),
            );
            query.reload();
          })
        }
      />
    </Stack>
  );
}

export const customersPage: PageDefinition = { path: 'customers', title: 'Customers', area: 'orders', group: 'Sales', element: <CustomersPage /> };
