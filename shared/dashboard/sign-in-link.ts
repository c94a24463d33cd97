import type { Deps } from '../platform/context';
import { randomBase62 } from '../platform/ids';
import { putLink } from './repository';
import { LINK_TTL_SECONDS, sha256, signInLink } from './rules';

/**
 * A one-time dashboard sign-in link for an address (15 minutes; only its hash is stored): the
 * magic-link mail carries one, and accepting a team invite sends the new member through one, so
 * they land signed in to the dashboard instead of on a page with a raw session token.
 */
export async function issueSignInLink(deps: Pick<Deps, 'store' | 'clock' | 'config'>, email: string, baseUrl: string): Promise<string> {
  const token = randomBase62(43);
  const now = deps.clock.now();
  await putLink(deps.store, sha256(token), {
    email,
    createdAt: now.toISOString(),
    validUntil: new Date(now.getTime() + LINK_TTL_SECONDS * 1000).toISOString(),
  });
  return signInLink(deps.config.DASHBOARD_URL ?? `${baseUrl}/dashboard`, token);
}
