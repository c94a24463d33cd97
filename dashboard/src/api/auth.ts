import { createApiClient, unwrap, type JsonAnswer } from './client';

/** The sign-in routes of the dashboard (tag `Dashboard sign-in`), through the typed client. */
export type SignedIn = JsonAnswer<'createDashboardSession'>;
export type StoreAccess = SignedIn['stores'][number];
export type Mode = StoreAccess['mode'];

export const requestMagicLink = (baseUrl: string, email: string) =>
  unwrap(createApiClient(baseUrl, undefined).POST('/dashboard/auth/magic-link', { body: { email } }));
export const exchangeLink = (baseUrl: string, token: string) =>
  unwrap(createApiClient(baseUrl, undefined).POST('/dashboard/auth/session', { body: { token } }));
export const signOutEverywhere = (baseUrl: string, token: string) => unwrap(createApiClient(baseUrl, token).POST('/dashboard/auth/sign-out'));
