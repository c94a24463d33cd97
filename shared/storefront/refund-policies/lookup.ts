import type { Deps } from '../../platform/context';
import type { Scope } from '../../store/keys';
import { loadRefundPolicy } from './repository';

// Apart from service.ts because the catalog calls it while service.ts calls the catalog (appliedTo
// counts): one module each way keeps the import graph free of loops.

/** Whether a refund policy of this tenant and mode has this id (products may only point at those). */
export async function refundPolicyExists(deps: Deps, scope: Scope, id: string): Promise<boolean> {
  return Boolean(await loadRefundPolicy(deps.store, scope, id));
}
