import { ApiFailure, type ApiErrorBody } from './client';

/** The sign-in routes of the dashboard contract (tag `Dashboard sign-in`). */
export type Mode = 'live' | 'test';

export interface StoreAccess {
  accountId: string;
  storeName: string;
  mode: Mode;
  role: 'owner' | 'admin' | 'member';
  areas: string[];
  memberId: string | null;
  token: string;
}

export interface SignedIn {
  expiresAt: string;
  email: string;
  stores: StoreAccess[];
}

async function call<T>(baseUrl: string, path: string, body: unknown, token?: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiFailure(0, { message: `The API could not be reached: ${(error as Error).message}` });
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw new ApiFailure(response.status, parsed as ApiErrorBody | undefined);
  return parsed as T;
}

export const requestMagicLink = (baseUrl: string, email: string) => call<{ sent: boolean }>(baseUrl, '/dashboard/auth/magic-link', { email });
export const exchangeLink = (baseUrl: string, token: string) => call<SignedIn>(baseUrl, '/dashboard/auth/session', { token });
export const signOutEverywhere = (baseUrl: string, token: string) => call<void>(baseUrl, '/dashboard/auth/sign-out', undefined, token);
