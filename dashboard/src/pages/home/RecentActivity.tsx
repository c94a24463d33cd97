import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ApiFailure, unwrap, type Api } from '../../api/client';
import { Money } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { latestActivity, type Activity } from '../../lib/metrics';
import { formatDate } from '../../lib/money';
import { buyerName, productNameOf } from '../commerce/sale-words';

/**
 * The latest sales, refunds and new subscribers, newest first. Refunds come from the latest sales
 * (a refund of an older sale shows on that order), so the page reads two short pages, never a list.
 */
async function loadActivity(api: Api): Promise<Activity[] | null> {
  // A team member without the orders area sees Home's figures but not who bought what.
  const sales = await unwrap(api.GET('/payments', { params: { query: { limit: 20 } } })).catch((error: unknown) => {
    if (error instanceof ApiFailure && error.status === 403) return null;
    throw error;
  });
  if (!sales) return null;
  const [subscribers] = await Promise.all([
    unwrap(api.GET('/newsletters/subscribers', { params: { query: { limit: 10, status: 'subscribed' } } })).then(
      (page) => page.data,
      () => [],
    ),
  ]);
  const items: Activity[] = [];
  for (const sale of sales) {
    const who = buyerName(sale);
    items.push({
      kind: 'sale',
      at: sale.createdAt,
      text: `${who} bought ${productNameOf(sale)}`,
      amount: { value: sale.amount, currency: sale.currency },
      href: `/${sale.type === 'subscription' ? 'payments' : 'orders'}/${sale._id}`,
    });
    const refundedAt = typeof sale.refundedAt === 'string' ? sale.refundedAt : null;
    if (sale.refundedAmount > 0 && refundedAt)
      items.push({
        kind: 'refund',
        at: refundedAt,
        text: `Refund to ${who} for ${productNameOf(sale)}`,
        amount: { value: -sale.refundedAmount, currency: sale.currency },
        href: `/orders/${sale._id}`,
      });
  }
  for (const s of subscribers) items.push({ kind: 'subscriber', at: s.createdAt, text: `${s.name ?? s.email} subscribed` });
  return latestActivity(items);
}

const KIND_WORDS: Record<Activity['kind'], string> = { sale: 'Sale', refund: 'Refund', subscriber: 'New subscriber' };

export function RecentActivity() {
  const query = useQuery(loadActivity);
  if (query.data === null) return null;
  return (
    <Card withBorder data-testid="recent-activity">
      <Title order={2} size="h4" mb="sm">
        Recent activity
      </Title>
      <QueryView query={query}>
        {(items) =>
          !items?.length ? (
            <Text c="dimmed">Sales, refunds and new subscribers show here as they happen.</Text>
          ) : (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {items.map((item) => (
                <Group key={`${item.kind}-${item.at}-${item.text}`} component="li" justify="space-between" wrap="nowrap" gap="sm">
                  <div>
                    <Text size="sm" fw={600}>
                      {KIND_WORDS[item.kind]} ·{' '}
                      {item.href ? (
                        <Anchor component={Link} to={item.href} size="sm">
                          {item.text}
                        </Anchor>
                      ) : (
                        item.text
                      )}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDate(item.at)}
                    </Text>
                  </div>
                  {item.amount && (
                    <Text size="sm" fw={600}>
                      <Money amount={item.amount.value} currency={item.amount.currency} />
                    </Text>
                  )}
                </Group>
              ))}
            </Stack>
          )
        }
      </QueryView>
    </Card>
  );
}
