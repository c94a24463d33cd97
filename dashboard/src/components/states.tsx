import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ApiFailure } from '../api/client';

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text c="dimmed">{label}</Text>
      </Group>
    </Center>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Stack align="center" py="xl" gap="xs" data-testid="empty-state">
      <Title order={2} size="h4">
        {title}
      </Title>
      {children && (
        <Text c="dimmed" ta="center" maw={480}>
          {children}
        </Text>
      )}
      {action}
    </Stack>
  );
}

/** The API's own message, so that a refusal says why. */
export function ErrorState({ error, onRetry }: { error: ApiFailure; onRetry?: () => void }) {
  return (
    <Alert color="red" title={error.status === 403 ? 'Not allowed' : 'Something went wrong'} role="alert" data-testid="error-state">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{error.message}</Text>
        {onRetry && (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** A form's refusal (the API's 4xx reason), shown above its buttons. */
export function FormError({ error, title = 'That did not work' }: { error: ApiFailure | null; title?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" data-testid="form-error" title={title}>
      {error.message}
    </Alert>
  );
}

/** Loading, error or the content of a query. */
export function QueryView<T>({
  query,
  children,
}: {
  query: { data: T | undefined; error: ApiFailure | null; loading: boolean; reload(): void };
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ErrorState error={query.error} onRetry={query.reload} />;
  if (query.loading && query.data === undefined) return <LoadingState />;
  if (query.data === undefined) return null;
  return <>{children(query.data)}</>;
}
