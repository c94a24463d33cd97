import { Rating, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import type { PageDefinition } from '../types';

export function ReviewsPage() {
  const [productId, setProductId] = useState<string | null>(null);
  const products = useQuery((api) => unwrap(api.GET('/products')));
  const query = useQuery((api) => unwrap(api.GET('/reviews', { params: { query: productId ? { productId } : {} } })), [productId]);
  const names = new Map((products.data ?? []).map((p) => [p._id, p.name]));
  return (
    <Stack>
      <PageHeader title="Reviews" description="What buyers wrote after their purchase." />
      <Select
        label="Product"
        placeholder="All products"
        data={(products.data ?? []).map((p) => ({ value: p._id, label: p.name }))}
        value={productId}
        onChange={setProductId}
        clearable
        w={300}
      />
      <QueryView query={query}>
        {(reviews) => (
          <DataTable
            caption="Reviews"
            rows={reviews}
            rowKey={(r) => r._id}
            columns={[
              { key: 'product', header: 'Product', render: (r) => names.get(r.productId) ?? r.productId },
              { key: 'rating', header: 'Rating', render: (r) => <Rating value={r.rating} readOnly aria-label={`${r.rating} of 5`} /> },
              {
                key: 'review',
                header: 'Review',
                render: (r) => (
                  <>
                    <Text fw={500} size="sm">
                      {r.title ?? ''}
                    </Text>
                    <Text size="sm">{r.body ?? ''}</Text>
                  </>
                ),
              },
              { key: 'buyer', header: 'Buyer', render: (r) => r.buyerEmail },
              { key: 'created', header: 'Date', render: (r) => formatDate(r.createdAt) },
            ]}
          />
        )}
      </QueryView>
    </Stack>
  );
}

export const reviewsPage: PageDefinition = { path: 'reviews', title: 'Reviews', area: 'products', group: 'Products', element: <ReviewsPage /> };
