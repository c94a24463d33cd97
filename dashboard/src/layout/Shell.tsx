import { AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, SegmentedControl, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink as RouterLink, Navigate, Outlet, useLocation } from 'react-router-dom';
import { allows, storesOf, useSession } from '../session';
import { GROUP_ORDER, type PageDefinition } from '../pages/types';
import type { Mode } from '../api/auth';

function navGroups(pages: PageDefinition[]): [string, PageDefinition[]][] {
  const groups = new Map<string, PageDefinition[]>();
  for (const page of pages) (groups.get(page.group) ?? groups.set(page.group, []).get(page.group)!).push(page);
  const rank = (g: string) => (GROUP_ORDER.includes(g) ? GROUP_ORDER.indexOf(g) : GROUP_ORDER.length);
  return [...groups.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
}

/** The test/live switch, on every page; test mode also shows a TEST badge beside it. */
export function ModeSwitch() {
  const { current, modes, setMode } = useSession();
  if (!current) return null;
  return (
    <Group gap="xs" wrap="nowrap">
      {current.mode === 'test' && (
        <Badge color="#b03a00" variant="filled" size="lg" data-testid="test-badge">
          TEST
        </Badge>
      )}
      <SegmentedControl
        size="xs"
        aria-label="Mode"
        data-testid="mode-switch"
        value={current.mode}
        onChange={(value) => setMode(value as Mode)}
        data={[
          { value: 'live', label: 'Live', disabled: !modes.includes('live') },
          { value: 'test', label: 'Test', disabled: !modes.includes('test') },
        ]}
      />
    </Group>
  );
}

/** The signed-in frame: header (store, mode, sign-out), nav grouped by area, the page. */
export function Shell({ pages }: { pages: PageDefinition[] }) {
  const session = useSession();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure();
  const { current } = session;
  if (!session.session) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname)}`} replace />;
  if (!current) return <Navigate to="/sign-in?pick=1" replace />;
  const stores = storesOf(session.session);
  const visible = pages.filter((p) => p.nav !== false && allows(current, p.area));
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Text fw={700} visibleFrom="xs">
              {current.storeName}
            </Text>
            {stores.length > 1 && (
              <Select
                size="xs"
                aria-label="Store"
                data={stores.map((s) => ({ value: s.accountId, label: s.storeName }))}
                value={current.accountId}
                onChange={(value) => value && session.selectStore(value)}
                allowDeselect={false}
                w={180}
              />
            )}
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ModeSwitch />
            <Text size="sm" c="dimmed" visibleFrom="md">
              {session.session.email}
            </Text>
            <Button size="xs" variant="default" onClick={() => void session.signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <ScrollArea>
          <Stack gap="xs">
            {navGroups(visible).map(([group, items]) => (
              <div key={group}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="xs" component="h2">
                  {group}
                </Text>
                {items.map((page) => (
                  <NavLink key={page.path} component={RouterLink} to={`/${page.path}`} end label={page.title} onClick={close} active={location.pathname === `/${page.path}`} />
                ))}
              </div>
            ))}
          </Stack>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <VisuallyHidden>
          <span aria-live="polite">{current.mode === 'test' ? 'Test mode' : 'Live mode'}</span>
        </VisuallyHidden>
        {/* A store or mode change starts every page afresh (its records are another set). */}
        <div key={`${current.accountId}:${current.mode}`}>
          <Outlet />
        </div>
      </AppShell.Main>
    </AppShell>
  );
}

/** A page the signed-in person's areas do not allow (reached by its address). */
export function Guard({ page, pages }: { page: PageDefinition; pages: PageDefinition[] }) {
  const { current } = useSession();
  if (!allows(current, page.area)) {
    // Home for someone whose areas exclude it: their first page instead.
    const first = page.path === '' ? pages.find((p) => p.nav !== false && p.path !== '' && allows(current, p.area)) : undefined;
    if (first) return <Navigate to={`/${first.path}`} replace />;
  }
  if (!allows(current, page.area))
    return (
      <Stack>
        <Text component="h1" fw={700} size="xl">
          {page.title}
        </Text>
        <Text>Your role does not include this part of the store. Ask an owner or admin for access.</Text>
      </Stack>
    );
  return <>{page.element}</>;
}
