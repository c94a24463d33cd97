import { Badge, Button, Group, Stack, Text, Alert } from '@mantine/core';
import { useState } from 'react';
import { unwrap, type Api, type JsonAnswer, type JsonBody } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { attempt, FormModal, list, num, text, type Field, type FormValues } from '../../components/FormModal';
import { Money, PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';
import { BuyLink, ProductFilesModal } from './ProductFiles';

type Product = JsonAnswer<'listProducts'>[number];
type ProductBody = JsonBody<'createProduct'>;

async function load(api: Api) {
  const [products, images, policies] = await Promise.all([unwrap(api.GET('/products')), unwrap(api.GET('/images')), unwrap(api.GET('/refunds'))]);
  return { products, images, policies };
}

function fields(images: { _id: string; filename: string }[], policies: { _id: string; name: string }[]): Field[] {
  return [
    { name: 'name', label: 'Name', required: true },
    { name: 'price', label: 'Price (USD)', kind: 'number', required: true, min: 0, decimals: 2 },
    { name: 'description', label: 'Description', kind: 'textarea' },
    {
      name: 'productType',
      label: 'Type',
      kind: 'select',
      options: [
        { value: 'digital', label: 'Digital product' },
        { value: 'credits', label: 'Credits' },
      ],
    },
    { name: 'creditAmount', label: 'Credits granted (credits products)', kind: 'number', min: 1 },
    { name: 'imageIds', label: 'Images', kind: 'multiselect', options: images.map((i) => ({ value: i._id, label: i.filename })) },
    { name: 'refundPolicyId', label: 'Refund policy', kind: 'select', options: policies.map((p) => ({ value: p._id, label: p.name })) },
    { name: 'published', label: 'Published', kind: 'switch' },
    { name: 'pwyw', label: 'Pay what you want (the price is the suggestion)', kind: 'switch' },
    { name: 'minimumPrice', label: 'Minimum price when buyers choose (USD, 0 allowed)', kind: 'number', min: 0, decimals: 2 },
    { name: 'licenseKeys', label: 'Issue a licence key with each order', kind: 'switch' },
    { name: 'activationLimit', label: 'Activations per licence key', kind: 'number', min: 1 },
    { name: 'expiresInDays', label: 'Licence keys work for (days, empty for ever)', kind: 'number', min: 1 },
    { name: 'downloadLimit', label: 'Downloads per order (empty for unlimited)', kind: 'number', min: 1 },
  ];
}

function body(values: FormValues): ProductBody {
  const productType = text(values.productType) as ProductBody['productType'];
  return {
    name: text(values.name) ?? '',
    price: num(values.price) ?? (NaN as number),
    description: text(values.description) ?? null,
    ...(productType ? { productType } : {}),
    ...(num(values.creditAmount) !== undefined ? { creditAmount: num(values.creditAmount) } : {}),
    imageIds: list(values.imageIds),
    refundPolicyId: text(values.refundPolicyId) ?? null,
    published: Boolean(values.published),
    payWhatYouWant: { enabled: Boolean(values.pwyw), ...(num(values.minimumPrice) !== undefined ? { minimumPrice: num(values.minimumPrice) } : {}) },
    ...(values.licenseKeys || num(values.activationLimit) !== undefined
      ? {
          licenseKeys: {
            enabled: Boolean(values.licenseKeys),
            activationLimit: num(values.activationLimit) ?? 1,
            expiresInDays: num(values.expiresInDays) ?? null,
          },
        }
      : {}),
    downloadLimit: num(values.downloadLimit) ?? null,
  } as ProductBody;
}

const initialOf = (p: Product): FormValues => ({
  name: p.name,
  price: p.price,
  description: p.description ?? '',
  productType: p.productType,
  creditAmount: p.creditAmount ?? '',
  imageIds: p.imageIds,
  refundPolicyId: p.refundPolicyId,
  published: p.published,
  pwyw: p.payWhatYouWant.enabled,
  minimumPrice: p.payWhatYouWant.minimumPrice,
  licenseKeys: p.licenseKeys?.enabled ?? false,
  activationLimit: p.licenseKeys?.activationLimit ?? '',
  expiresInDays: p.licenseKeys?.expiresInDays ?? '',
  downloadLimit: p.downloadLimit ?? '',
});

export function ProductsPage() {
  const { api, current, modes, config } = useSession();
  const buyUrl = (p: Product) => `${config.apiBaseUrl.replace(/\/$/, '')}${p.buyPath}`;
  const query = useQuery(load);
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const [filesOf, setFilesOf] = useState<Product | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Stack>
      <PageHeader
        title="Products"
        description="One-time products. Subscription offers have their own page."
        actions={
          <Button onClick={() => setEditing('new')} data-testid="new-product">
            New product
          </Button>
        }
      />
      {notice && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <QueryView query={query}>
        {({ products, images, policies }) => (
          <>
            <DataTable
              caption="Products"
              rows={products}
              rowKey={(p) => p._id}
              empty={{
                title: 'No products yet',
                text: 'Add your first product: a price, a file to deliver, and it gets a buy link to share.',
                action: <Button onClick={() => setEditing('new')}>Add your first product</Button>,
              }}
              columns={[
                { key: 'name', header: 'Name', render: (p) => <Text fw={500}>{p.name}</Text> },
                { key: 'price', header: 'Price', numeric: true, render: (p) => <Money amount={p.price} currency={p.currency} /> },
                { key: 'type', header: 'Type', render: (p) => p.productType },
                { key: 'buy', header: 'Buy link', render: (p) => <BuyLink url={buyUrl(p)} name={p.name} /> },
                {
                  key: 'published',
                  header: 'Status',
                  render: (p) => (
                    <Badge variant="dot" color={p.published ? 'green' : 'gray'}>
                      {p.published ? 'published' : 'draft'}
                    </Badge>
                  ),
                },
                { key: 'created', header: 'Created', render: (p) => formatDate(p.createdAt) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (p) => (
                    <Group gap={4} wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
                        Edit
                      </Button>
                      <Button size="xs" variant="default" onClick={() => setFilesOf(p)} aria-label={`Files of ${p.name}`} data-testid="product-files">
                        Files
                      </Button>
                      {current?.mode === 'test' && modes.includes('live') && (
                        <ConfirmButton
                          color="indigo"
                          title="Copy to live mode"
                          message={`A copy of "${p.name}" is created in live mode, unpublished, without images or refund policy.`}
                          confirmLabel="Copy to live"
                          aria-label={`Copy to live: ${p.name}`}
                          onConfirm={() =>
                            attempt(async () => {
                              const copy = await unwrap(api.POST('/products/copy/{id}', { params: { path: { id: p._id } }, body: { testMode: false } }));
                              setNotice(`Copied to live mode as "${copy.name}".`);
                            })
                          }
                        >
                          Copy to live
                        </ConfirmButton>
                      )}
                      <ConfirmButton
                        title="Delete product"
                        message={`Delete "${p.name}"? Buyers can no longer check out with it.`}
                        confirmLabel="Delete"
                        aria-label={`Delete ${p.name}`}
                        onConfirm={() =>
                          attempt(async () => {
                            await unwrap(api.DELETE('/products/{id}', { params: { path: { id: p._id } } }));
                            query.reload();
                          })
                        }
                      >
                        Delete
                      </ConfirmButton>
                    </Group>
                  ),
                },
              ]}
            />
            <ProductFilesModal product={filesOf && { ...filesOf, buyUrl: buyUrl(filesOf) }} onClose={() => setFilesOf(null)} />
            <FormModal
              title={editing === 'new' ? 'New product' : `Edit ${editing ? editing.name : ''}`}
              opened={editing !== null}
              onClose={() => setEditing(null)}
              fields={fields(images, policies)}
              initial={editing && editing !== 'new' ? initialOf(editing) : { productType: 'digital', published: true }}
              submitLabel={editing === 'new' ? 'Create product' : 'Save changes'}
              onSubmit={(values) =>
                attempt(async () => {
                  if (editing === 'new') await unwrap(api.POST('/products', { body: body(values) }));
                  else if (editing) await unwrap(api.POST('/products/update/{id}', { params: { path: { id: editing._id } }, body: body(values) }));
                  query.reload();
                })
              }
            />
          </>
        )}
      </QueryView>
    </Stack>
  );
}

export const productsPage: PageDefinition = { path: 'products', title: 'Products', area: 'products', group: 'Products', element: <ProductsPage /> };
