import type { OperationContext } from '../platform/context';
import { idFloor } from './recovery';
import * as repo from './repository';
import { saveReport } from './rules';

export async function saveOffersReport(ctx: OperationContext, days: number) {
  const flows = await repo.flowsSince(ctx.store, ctx.scope, idFloor(ctx.clock.nowMs() - days * 86_400_000));
  return saveReport(flows, days);
}

export async function introReport(ctx: OperationContext) {
  const c = await repo.getCounters(ctx.store, ctx.scope);
  return {
    intro: { subscribersStarted: c.introStarted ?? 0, paymentsAtIntroPrice: c.introPayments ?? 0 },
    yearlySwitch: { prompted: c.yearlyPrompted ?? 0, accepted: c.yearlyAccepted ?? 0, switched: c.yearlySwitched ?? 0 },
  };
}
