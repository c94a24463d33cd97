import { Anchor, Button, Card, Group, List, Progress, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router-dom';
import { unwrap, type Api } from '../../api/client';
import { useQuery } from '../../lib/hooks';
import { buyLinkShared } from '../../lib/buy-link';
import { allows, useSession } from '../../session';

interface Step {
  key: string;
  label: string;
  done: boolean;
  action: { label: string; to: string };
}

/** The four steps a new store takes before its first real sale, from what the API says is set up. */
async function loadSteps(api: Api, accountId: string): Promise<Step[]> {
  const [products, me, email] = await Promise.all([unwrap(api.GET('/products')), unwrap(api.GET('/users/me')), unwrap(api.GET('/newsletters/settings'))]);
  return [
    { key: 'product', label: 'Add a product', done: products.length > 0, action: { label: 'Add a product', to: '/products' } },
    { key: 'share', label: 'Share its buy link', done: buyLinkShared(accountId), action: { label: 'Copy a buy link', to: '/settings#buy-links' } },
    {
      key: 'stripe',
      label: 'Connect Stripe to take real payments',
      done: me.processors.live === 'stripe',
      action: { label: 'Connect Stripe', to: '/settings#payments' },
    },
    {
      key: 'sender',
      label: 'Verify the address your emails come from',
      done: email.senderVerified,
      action: { label: 'Verify the sender', to: '/settings#sender' },
    },
  ];
}

/** Shown on Home to owners and admins until every step is done. */
export function Checklist() {
  const { current } = useSession();
  const owner = !!current && allows(current, 'admin');
  const query = useQuery((api) => (owner ? loadSteps(api, current!.accountId) : Promise.resolve([])), [owner]);
  const steps = query.data ?? [];
  const done = steps.filter((s) => s.done).length;
  if (!steps.length || done === steps.length) return null;
  return (
    <Card withBorder data-testid="onboarding-checklist">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          Get your store ready
        </Title>
        <Text size="sm" c="dimmed">
          {done} of {steps.length} done
        </Text>
      </Group>
      <Progress value={(done / steps.length) * 100} mb="md" aria-label={`${done} of ${steps.length} steps done`} />
      <List spacing="sm" listStyleType="none" pl={0}>
        {steps.map((step) => (
          <List.Item key={step.key} data-testid={`step-${step.key}`} data-done={step.done}>
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon size="sm" radius="xl" color={step.done ? 'teal' : 'gray'} variant={step.done ? 'filled' : 'light'} aria-hidden>
                  {step.done ? '✓' : ''}
                </ThemeIcon>
                <Text td={step.done ? 'line-through' : undefined} c={step.done ? 'dimmed' : undefined}>
                  {step.label}
                  {step.done && <VisuallyHidden> (done)</VisuallyHidden>}
                </Text>
              </Group>
              {!step.done && (
                <Button component={Link} to={step.action.to} size="xs" variant="light">
                  {step.action.label}
                </Button>
              )}
            </Group>
          </List.Item>
        ))}
      </List>
      <Text size="xs" c="dimmed" mt="sm">
        Everything here can wait: you can sell in test mode first.{' '}
        <Anchor component={Link} to="/settings">
          All settings
        </Anchor>
      </Text>
    </Card>
  );
}
