import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageHeader } from '../components/Page';

export function NotFoundPage() {
  return (
    <Stack>
      <PageHeader title="Page not found" />
      <Text>
        There is no such page.{' '}
        <Anchor component={Link} to="/">
          Back to home
        </Anchor>
      </Text>
    </Stack>
  );
}
