import { Button, CopyButton as MantineCopy, Group, TextInput } from '@mantine/core';
import { useSession } from '../session';
import { markBuyLinkShared } from '../lib/buy-link';

/** A link shown in full with a copy button beside it (buy links, forms); copying a buy link ticks the checklist. */
export function CopyLink({ label, url, buyLink = false, testId }: { label: string; url: string; buyLink?: boolean; testId?: string }) {
  const { current } = useSession();
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap" data-testid={testId}>
      <TextInput label={label} value={url} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
      <MantineCopy value={url}>
        {({ copied, copy }) => (
          <Button
            variant="default"
            onClick={() => {
              copy();
              if (buyLink && current) markBuyLinkShared(current.accountId);
            }}
          >
            {copied ? 'Copied' : 'Copy link'}
          </Button>
        )}
      </MantineCopy>
    </Group>
  );
}
