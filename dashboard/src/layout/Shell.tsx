import { Alert, AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, SegmentedControl, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { LoadingState } from '../components/states';
import { openingMode } from '../lib/mode';
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

/** The test/live switch, on every page, with the mode named in words beside it. */
export function ModeSwitch() {
  const { current, modes, setMode } = useSession();
  if (!current) return null;
  return (
    <Group gap="xs" wrap="nowrap">
      {current.mode === 'test' ? (
        <Badge color="#b03a00" variant="filled" size="lg" data-testid="test-badge">
          Test mode
        </Badge>
      ) : (
        <Badge color="#1f6f32" variant="filled" size="lg" data-testid="live-badge">
          Live
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

/** Settles the mode a store opens in (test until it sells for real), once per sign-in. */
function useOpeningMode() {
  const session = useSession();
  const stored = session.session;
  const unsettled = !!stored && !stored.modeSettled && !!session.current;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per unsettled sign-in, not on every session change
  useEffect(() => {
    if (!unsettled || !stored) return;
    let live = true;
    const liveAccess = stored.stores.find((s) => s.accountId === stored.accountId && s.mode === 'live');
    openingMode(session.config.apiBaseUrl, liveAccess).then(
      (mode) => live && session.settleMode(mode),
      // Live mode could not be read (a role without sales, the API away): test is the safe start.
      () => live && session.settleMode('test'),
    );
    return () => {
      live = false;
    };
  }, [unsettled]);
  return unsettled;
}

/** A folding section of the nav: a real button that says whether it is open; opens when one of its pages is shown. */
function NavSection({ group, items, active, onNavigate }: { group: string; items: PageDefinition[]; active: boolean; onNavigate: () => void }) {
  const location = useLocation();
  const [opened, setOpened] = useState(active);
  useEffect(() => {
    if (active) setOpened(true);
  }, [active]);
  return (
    <NavLink
      component="button"
      type="button"
      label={group}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      childrenOffset="md"
      fw={600}
      data-testid={`nav-section-${group.toLowerCase()}`}
    >
      {items.map((page) => (
        <NavLink
          key={page.path}
          component={RouterLink}
          to={`/${page.path}`}
          end
          label={page.title}
          onClick={onNavigate}
          active={location.pathname === `/${page.path}`}
          fw={400}
        />
      ))}
    </NavLink>
  );
}

/** The nav: Home, then six sections that fold open; the section of the page in view starts open. */
function MainNav({ pages, onNavigate }: { pages: PageDefinition[]; onNavigate: () => void }) {
  const location = useLocation();
  const inSection = (items: PageDefinition[]) =>
    items.some((p) => p.path !== '' && (location.pathname === `/${p.path}` || location.pathname.startsWith(`/${p.path}/`)));
  return (
    <Stack gap={2}>
      {navGroups(pages).map(([group, items]) =>
        items.length === 1 && items[0]!.title === group ? (
          <NavLink
            key={group}
            component={RouterLink}
            to={`/${items[0]!.path}`}
            end
            label={group}
            onClick={onNavigate}
            active={location.pathname === `/${items[0]!.path}`}
            fw={600}
          />
        ) : (
          <NavSection key={group} group={group} items={items} active={inSection(items)} onNavigate={onNavigate} />
        ),
      )}
    </Stack>
  );
}

/** The signed-in frame: header (store, mode, sign-out), the sectioned nav, the page. */
export function Shell({ pages }: { pages: PageDefinition[] }) {
  const session = useSession();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure();
  const settling = useOpeningMode();
  const { current } = session;
  if (!session.session) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname)}`} replace />;
  if (!current) return <Navigate to="/sign-in?pick=1" replace />;
  const stores = storesOf(session.session);
  const visible = pages.filter((p) => p.nav !== false && allows(current, p.area));
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      {/* Not a banner landmark: a dialog's own <header> would make a second one. The bar is a named region instead. */}
      <AppShell.Header component="div">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" component="section" aria-label="Store and account">
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
          <MainNav pages={visible} onNavigate={close} />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        {current.mode === 'test' && !settling && (
          <Alert color="orange" variant="light" mb="md" p="xs" data-testid="test-mode-note" title="You are in test mode">
            Payments here are simulated: no card is charged and nothing is paid out. Switch to Live when you are ready to sell.
          </Alert>
        )}
        <VisuallyHidden>
          <span aria-live="polite">{settling ? '' : current.mode === 'test' ? 'Test mode' : 'Live mode'}</span>
        </VisuallyHidden>
        {/* A store or mode change starts every page afresh (its records are another set). */}
        {settling ? (
          <LoadingState label="Opening your store…" />
        ) : (
          <div key={`${current.accountId}:${current.mode}`}>
            <Outlet />
          </div>
        )}
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
