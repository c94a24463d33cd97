import { defineEntity } from '../store/entity';
import { keys } from '../store/keys';
import type { SignInLinkRecord } from './records';

/** Scope-free: a link is found by its token's hash before anyone is known. */
const linkKey = (tokenHash: string) => keys.capability('SIGNIN', tokenHash);
const rateKey = (emailHash: string, windowStart: string) => keys.capability('SIGNINRATE', `${emailHash}#${windowStart}`);

export const signInLinkEntity = defineEntity<SignInLinkRecord>()({
  entity: 'DashboardSignInLink',
  version: 1,
  owner: 'dashboard',
  key: linkKey,
  keyArgs: ['sha256(token)'],
  patterns: {
    byTokenHash: {
      kind: 'get',
      summary: 'A dashboard sign-in link by its token',
      key: linkKey,
      args: ['sha256(token)'],
      consistent: true,
      notes: 'used once (conditional update); TTL a day after it lapses',
    },
  },
});

export const signInRateEntity = defineEntity<{ count: number }>()({
  entity: 'DashboardSignInRate',
  version: 1,
  owner: 'dashboard',
  key: rateKey,
  keyArgs: ['sha256(email)', 'window start'],
  patterns: {},
  summary: 'Sign-in links sent to one address in a 15-minute window (conditional ADD)',
  notes: 'TTL at the window end',
});
