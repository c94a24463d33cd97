import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { formatCents } from '../../lib/money';

interface TopProduct {
  productId: string;
  name: string;
  sales: number;
  grossCents: number;
}

/** The period's best sellers by revenue before refunds (from the analytics rollups). */
export function TopProducts({ products, currency }: { products: TopProduct[]; currency: string }) {
  return (
    <Card withBorder data-testid="top-products">
      <Title order={2} size="h4" mb="sm">
        Top products
      </Title>
      {products.length === 0 ? (
        <Text c="dimmed">Your best sellers show here once something sells in this period.</Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ paddingLeft: '1.2em', margin: 0 }}>
          {products.map((p) => (
            <li key={p.productId}>
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" fw={600}>
                  {p.name || 'A product no longer in the catalog'}
                </Text>
                <Text size="sm">
                  {formatCents(p.grossCents, currency)} · {p.sales === 1 ? '1 sale' : `${p.sales} sales`}
                </Text>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Card>
  );
}
