import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { JsonAnswer } from '../../api/client';

type EmailSettings = JsonAnswer<'getNewsletterSettings'>;

/** Whether the address newsletters and receipts come from is verified with the mail provider. */
export function SenderSection({ settings }: { settings: EmailSettings }) {
  return (
    <Card withBorder id="sender">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Email sender
        </Title>
        <Group justify="space-between" wrap="wrap">
          <div>
            <Text fw={600}>{settings.senderEmail ?? 'No sender address yet'}</Text>
            <Text size="sm" c="dimmed">
              {settings.senderVerified
                ? 'Verified: your emails come from this address.'
                : settings.senderEmail
                  ? 'Waiting for verification: check the inbox of this address (or its domain records) for the provider’s message.'
                  : 'Set the address your newsletters come from.'}
            </Text>
          </div>
          <Badge color={settings.senderVerified ? 'green' : 'orange'} size="lg" variant="light" data-testid="sender-status">
            {settings.senderVerified ? 'Verified' : 'Not verified'}
          </Badge>
        </Group>
        <Anchor component={Link} to="/email/settings" size="sm">
          Change the sender, reply-to address and footer
        </Anchor>
      </Stack>
    </Card>
  );
}
