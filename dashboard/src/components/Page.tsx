import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatMoney } from '../lib/money';

/** Every page starts with this: its h1, an optional line of help and its actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" mb="md" wrap="wrap">
      <Stack gap={2}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </Stack>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}

export const Money = ({ amount, currency }: { amount: number | null | undefined; currency?: string | null }) => (
  <span style={{ fontVariantNumeric: 'tabular-nums' }}>{amount === null || amount === undefined ? '—' : formatMoney(amount, currency ?? 'USD')}</span>
);

const STATUS_COLORS: Record<string, string> = {
  active: 'green',
  completed: 'green',
  delivered: 'green',
  succeeded: 'green',
  trialing: 'blue',
  paused: 'yellow',
  past_due: 'orange',
  pending: 'gray',
  refunded: 'grape',
  partially_refunded: 'grape',
  disputed: 'red',
  canceled: 'gray',
  failed: 'red',
  revoked: 'gray',
};

export const StatusBadge = ({ status }: { status: string }) => (
  <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="dot">
    {status.replace(/_/g, ' ')}
  </Badge>
);
