import { Stack } from '@mantine/core';
import { unwrap, type Api } from '../../api/client';
import { PageHeader } from '../../components/Page';
import { QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import type { PageDefinition } from '../types';
import { BuyLinksSection } from './BuyLinksSection';
import { PaymentsSection } from './PaymentsSection';
import { RecoveryEditor } from './RecoveryEditor';
import { SenderSection } from './SenderSection';
import { StoreSection } from './StoreSection';

const loadSettings = async (api: Api) => {
  const [branding, images, account, email, products, recovery] = await Promise.all([
    unwrap(api.GET('/account/branding')),
    unwrap(api.GET('/images')),
    unwrap(api.GET('/users/me')),
    unwrap(api.GET('/newsletters/settings')),
    unwrap(api.GET('/products')),
    unwrap(api.GET('/checkout/recovery')),
  ]);
  return { branding, images, account, email, products, recovery };
};

/** One place for what a seller sets once: the store's face, payments, the sender, buy links, reminders. */
export function SettingsPage() {
  const query = useQuery(loadSettings);
  return (
    <Stack>
      <PageHeader title="Store settings" description="Settings of the mode you are in: test mode keeps its own, so you can try them first." />
      <QueryView query={query}>
        {(data) => (
          <Stack>
            <StoreSection saved={data.branding} images={data.images} onSaved={(branding) => query.set({ ...data, branding })} />
            <PaymentsSection account={data.account} />
            <SenderSection settings={data.email} />
            <BuyLinksSection products={data.products} />
            <RecoveryEditor saved={data.recovery} onSaved={(recovery) => query.set({ ...data, recovery })} />
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

export const settingsPage: PageDefinition = { path: 'settings', title: 'Store settings', area: 'admin', group: 'Settings', element: <SettingsPage /> };
