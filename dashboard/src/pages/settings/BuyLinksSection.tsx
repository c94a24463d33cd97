import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { JsonAnswer } from '../../api/client';
import { CopyLink } from '../../components/CopyButton';
import { buyUrl } from '../../lib/buy-link';
import { useSession } from '../../session';

type Product = JsonAnswer<'listProducts'>[number];

/** Every product's public buy link, to paste in a bio, a post or a button. */
export function BuyLinksSection({ products }: { products: Product[] }) {
  const { config } = useSession();
  return (
    <Card withBorder id="buy-links">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Buy links
        </Title>
        <Text size="sm" c="dimmed">
          Anyone who opens a buy link goes straight to the checkout of that product.
        </Text>
        {products.length === 0 ? (
          <Text size="sm">
            No products yet.{' '}
            <Anchor component={Link} to="/products">
              Add a product
            </Anchor>{' '}
            to get its buy link.
          </Text>
        ) : (
          products.map((p) => <CopyLink key={p._id} label={p.name} url={buyUrl(config.apiBaseUrl, p.buyPath)} buyLink testId="buy-link" />)
        )}
      </Stack>
    </Card>
  );
}
