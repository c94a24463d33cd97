import { ApiClient, control, type TestAccount } from './runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

/** The newest accept link mailed to `email` (GET /_local/emails). */
export async function inviteLink(runtime: LocalRuntime, email: string): Promise<string> {
  const mails = (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(email)}`)).body.emails as { text: string; sentAt: string }[];
  const last = mails[mails.length - 1];
  const link = last && /(https?:\/\/\S+\/team\/join\?token=[^\s"<]+)/.exec(last.text)?.[1];
  if (!link) throw new Error(`no invite mail to ${email}`);
  return link;
}

export const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('token')!);

/**
 * Accepts an invite as the form on the accept page does, then signs in as the dashboard does with
 * the one-time link the answer redirects to: the status (303 when joined) and the session token
 * of the store the invite was for.
 */
export async function acceptInvite(runtime: LocalRuntime, link: string, name = 'Team Mate'): Promise<{ status: number; html: string; token?: string }> {
  const form = new URLSearchParams({ token: tokenOf(link), name });
  const response = await fetch(`${runtime.url}/team/join`, { method: 'POST', body: form, redirect: 'manual' });
  const html = await response.text();
  const location = response.headers.get('location');
  if (response.status !== 303 || !location) return { status: response.status, html };
  const signInToken = new URL(location, runtime.url).searchParams.get('token');
  const session = await control(runtime).post('/dashboard/auth/session', { token: signInToken });
  if (session.status !== 200) throw new Error(`sign-in after joining failed: ${session.status} ${session.text}`);
  // The invite's store and mode, as the accept link's (readable) claims name them.
  const invite = JSON.parse(Buffer.from(tokenOf(link).split('.')[1]!, 'base64url').toString()) as { acc: string; md: string };
  const stores = session.body.stores as { accountId: string; mode: string; memberId?: string; token: string }[];
  const store = stores.find((s) => s.memberId && s.accountId === invite.acc && s.mode === invite.md);
  return { status: response.status, html, token: store?.token };
}

/** Invites, follows the mailed link and accepts: the member's API client and id. */
export async function joinTeam(runtime: LocalRuntime, account: TestAccount, email: string, role: 'owner' | 'admin' | 'member', teamIds: string[] = []) {
  const invited = await account.live.post('/team/invites', { email, role, teamIds });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.text}`);
  const joined = await acceptInvite(runtime, await inviteLink(runtime, email));
  if (joined.status !== 303 || !joined.token) throw new Error(`accept failed: ${joined.status} ${joined.html}`);
  const team = await account.live.get('/team');
  const member = team.body.members.find((m: { email: string }) => m.email === email.toLowerCase());
  return { client: new ApiClient(runtime.url, joined.token), id: member._id as string, token: joined.token };
}
