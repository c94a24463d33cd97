import { getPost } from '../email/post-reads';
import type { OperationContext } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import { segmentExists } from '../segments/service';
import { onConditionFailed } from '../store/conditional';
import type { AutomationRecord, AutomationStep, AutomationTrigger } from './records';
import * as repo from './repository';
import { segmentIdsOf, stepsMissingPosts, stepsProblem } from './rules';
import { createAutomationOps, getAutomation } from './service';

/**
 * The seller's own automations (`POST/PATCH /automations`), beside the ones funnels make: a
 * trigger (a purchase, optionally restricted to a segment) and steps (mails, waits, branches on
 * segment membership). Every post and segment named must be the tenant's; a funnel's automation
 * is changed through its funnel.
 */
export interface AutomationInput {
  name: string;
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  status?: 'draft' | 'active' | 'paused';
}

async function checkReferences(ctx: OperationContext, trigger: AutomationTrigger, steps: AutomationStep[]) {
  const problem = stepsProblem(steps);
  if (problem) throw badRequest(problem[1], { field: problem[0] });
  const postIds = [...new Set(steps.flatMap((s) => (s.type === 'send_email' ? [s.postId] : [])))];
  const existing = new Set((await Promise.all(postIds.map((id) => getPost(ctx, ctx.scope, id).catch(() => undefined)))).flatMap((p) => (p ? [p._id] : [])));
  const missing = stepsMissingPosts(steps, existing);
  if (missing.length) throw badRequest(`steps.${missing[0]}.postId: no such email post`, { field: `steps.${missing[0]}.postId` });
  for (const segmentId of segmentIdsOf(trigger, steps)) {
    if (!(await segmentExists(ctx, ctx.scope, segmentId))) {
      const field =
        trigger.segmentId === segmentId
          ? 'trigger.segmentId'
          : `steps.${steps.findIndex((s) => s.type === 'if_segment' && s.segmentId === segmentId)}.segmentId`;
      throw badRequest(`${field}: no such segment`, { field });
    }
  }
}

export async function createAutomation(ctx: OperationContext, input: AutomationInput): Promise<AutomationRecord> {
  await checkReferences(ctx, input.trigger, input.steps);
  const { automation } = createAutomationOps(ctx, ctx.scope, {
    name: input.name,
    trigger: input.trigger,
    steps: input.steps,
    linkBaseUrl: ctx.config.PUBLIC_BASE_URL ?? ctx.request.baseUrl,
  });
  const created: AutomationRecord = { ...automation, status: input.status ?? 'draft' };
  await ctx.store.transact([repo.automationWrites.create(ctx.scope, created)]);
  return created;
}

export async function updateAutomation(ctx: OperationContext, id: string, change: Partial<AutomationInput>): Promise<AutomationRecord> {
  const current = await getAutomation(ctx, ctx.scope, id);
  if (current.owner?.kind === 'funnel') throw conflict('This automation belongs to a funnel: change it through the funnel', 'AUTOMATION_OWNED');
  const next: AutomationRecord = {
    ...current,
    name: change.name ?? current.name,
    trigger: change.trigger ?? current.trigger,
    steps: change.steps ?? current.steps,
    status: change.status ?? current.status,
    updatedAt: ctx.clock.now().toISOString(),
  };
  await checkReferences(ctx, next.trigger, next.steps);
  await onConditionFailed(ctx.store.transact([repo.automationWrites.replace(ctx.scope, next, current.updatedAt)]), () => {
    throw conflict('The automation changed while this request ran; try again', 'CONCURRENT_UPDATE');
  });
  return next;
}
