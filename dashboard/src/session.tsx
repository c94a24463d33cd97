import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiFailure, createApiClient, type Api } from './api/client';
import { signOutEverywhere, type Mode, type SignedIn, type StoreAccess } from './api/auth';
import type { DashboardConfig } from './config';
import { chosenMode, MODE_CHOICE_KEY } from './lib/mode';

const STORAGE_KEY = 'dashboard.session';

/** What the browser keeps: the sign-in answer and which store and mode are in use. */
export interface StoredSession extends SignedIn {
  accountId: string | null;
  mode: Mode;
  /** False until the opening mode is settled (the person's choice, or what the store's live side shows). */
  modeSettled?: boolean;
}

export interface SessionState {
  config: DashboardConfig;
  session: StoredSession | null;
  /** The store+mode in use (its token signs every call). */
  current: StoreAccess | null;
  /** Why the person was sent back to sign-in, shown there once. */
  notice: string | null;
  api: Api;
  signIn(signedIn: SignedIn, accountId?: string): void;
  selectStore(accountId: string): void;
  setMode(mode: Mode): void;
  /** Settles the opening mode without recording it as the person's choice. */
  settleMode(mode: Mode): void;
  /** The modes the person can reach in the current store. */
  modes: Mode[];
  signOut(): Promise<void>;
  expire(reason?: string): void;
}

const SessionContext = createContext<SessionState | null>(null);

function readStored(): StoredSession | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as StoredSession;
    if (!parsed.expiresAt || Date.parse(parsed.expiresAt) <= Date.now()) return null;
    return parsed;
  } catch {
    return null;
  }
}

function write(session: StoredSession | null) {
  if (session) window.localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else window.localStorage.removeItem(STORAGE_KEY);
}

export const storesOf = (signedIn: SignedIn) => [...new Map(signedIn.stores.map((s) => [s.accountId, s])).values()];

function pick(session: StoredSession | null): StoreAccess | null {
  if (!session?.accountId) return null;
  const inStore = session.stores.filter((s) => s.accountId === session.accountId);
  return inStore.find((s) => s.mode === session.mode) ?? inStore[0] ?? null;
}

export function SessionProvider({ config, children }: { config: DashboardConfig; children: ReactNode }) {
  const [session, setSession] = useState<StoredSession | null>(readStored);
  const [notice, setNotice] = useState<string | null>(null);

  const update = useCallback((next: StoredSession | null) => {
    write(next);
    setSession(next);
  }, []);

  const expire = useCallback(
    (reason = 'Your session has ended. Sign in again.') => {
      update(null);
      setNotice(reason);
    },
    [update],
  );

  const current = pick(session);

  // Sessions expire: leave at the stated time even when no call is made.
  useEffect(() => {
    if (!session) return;
    const left = Date.parse(session.expiresAt) - Date.now();
    const timer = window.setTimeout(() => expire('Your session has expired. Sign in again.'), Math.max(0, Math.min(left, 2 ** 31 - 1)));
    return () => window.clearTimeout(timer);
  }, [session, expire]);

  const api = useMemo(
    () => createApiClient(config.apiBaseUrl, current?.token, () => expire('Your session has expired. Sign in again.')),
    [config.apiBaseUrl, current?.token, expire],
  );

  const value = useMemo<SessionState>(() => {
    const modes =
      session && current ? (['live', 'test'] as Mode[]).filter((m) => session.stores.some((s) => s.accountId === current.accountId && s.mode === m)) : [];
    return {
      config,
      session,
      current,
      notice,
      api,
      modes,
      signIn(signedIn, accountId) {
        const stores = storesOf(signedIn);
        const chosen = accountId ?? (stores.length === 1 ? stores[0]!.accountId : null);
        // The person's own choice when they made one; else test until the shell has looked at live.
        const remembered = chosenMode();
        const wanted = remembered ?? 'test';
        const modeOk = signedIn.stores.some((s) => s.accountId === chosen && s.mode === wanted);
        setNotice(null);
        update({
          ...signedIn,
          accountId: chosen,
          mode: modeOk ? wanted : (signedIn.stores.find((s) => s.accountId === chosen)?.mode ?? 'live'),
          modeSettled: remembered !== null,
        });
      },
      selectStore(accountId) {
        if (!session) return;
        const modeOk = session.stores.some((s) => s.accountId === accountId && s.mode === session.mode);
        update({ ...session, accountId, mode: modeOk ? session.mode : (session.stores.find((s) => s.accountId === accountId)?.mode ?? 'live') });
      },
      setMode(mode) {
        if (!session) return;
        window.localStorage.setItem(MODE_CHOICE_KEY, mode);
        update({ ...session, mode, modeSettled: true });
      },
      settleMode(mode) {
        if (!session) return;
        const modeOk = session.stores.some((s) => s.accountId === session.accountId && s.mode === mode);
        update({ ...session, mode: modeOk ? mode : session.mode, modeSettled: true });
      },
      async signOut() {
        // The server ends every token of the sign-in first: "signed out" is only said once it is true.
        const token = current?.token;
        // A 401 means the session had already ended elsewhere: that is signed out too.
        const ended = token
          ? await signOutEverywhere(config.apiBaseUrl, token).then(
              () => true,
              (error: unknown) => error instanceof ApiFailure && error.status === 401,
            )
          : true;
        update(null);
        setNotice(ended ? 'You are signed out.' : 'You are signed out on this device. The server could not be reached, so the session ends when it expires.');
      },
      expire,
    };
  }, [config, session, current, notice, api, update, expire]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The typed client of the store and mode in use. */
export const useApi = (): Api => useSession().api;

/** Whether the signed-in person may open a page of `area` (owners and admins: everything). */
export function allows(access: StoreAccess | null, area: string): boolean {
  if (!access) return false;
  if (access.role === 'owner' || access.role === 'admin') return true;
  if (area === 'any') return true;
  if (area === 'admin') return false;
  return (access.areas as string[]).includes(area);
}
