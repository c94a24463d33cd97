import type { Ports } from './ports';
import type { Scope } from '../store/keys';
import type { Store } from '../store/store';
import type { Clock } from './clock';
import type { Config } from './config';
import type { ActivityRecording } from './activity';
import type { Actor } from './permissions';
import type { Plan } from './plans';

export interface Account {
  accountId: string;
  email: string;
  name?: string;
  plan: Plan;
  currency: string;
  senderVerified?: boolean;
  createdAt: string;
}

/** What every service call gets: the tenant scope and the ports, never HTTP or Lambda types. */
export interface Deps {
  store: Store;
  ports: Ports;
  clock: Clock;
  config: Config;
  /** The activity recording of the API write being run (activity.ts); absent elsewhere. */
  activity?: ActivityRecording;
}

export interface RequestInfo {
  requestId: string;
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The body exactly as received (signature checks need the raw bytes). */
  rawBody: string;
  sourceIp: string;
  /** Base address of this API as the caller reached it, for links we hand out. */
  baseUrl: string;
}

export interface OperationContext extends Deps {
  /** Present on key-authenticated operations. */
  scope: Scope;
  account: Account;
  /** Who acts: the owner through a key (also when absent), or a team member through a session token. */
  actor?: Actor;
  request: RequestInfo;
}

/** Context of a public, portal or processor operation: there is no caller account. */
export interface PublicContext extends Deps {
  scope?: undefined;
  account?: undefined;
  request: RequestInfo;
}
