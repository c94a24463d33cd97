import { marketingAllowed } from '../audience/suppression';
import { prepareTransactional } from '../email/outbox';
import { getPost, sentMailEngagement } from '../email/post-reads';
import type { PostSource } from '../email/records';
import type { Deps } from '../platform/context';
import { conflict, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import { logger } from '../platform/logger';
import type { Scope } from '../store/keys';
import { isConditionFailed, onConditionFailed } from '../store/conditional';
import type { TransactOp } from '../store/store';
import type { AutomationRecord, AutomationStep, AutomationTrigger, RunRecord } from './records';
import * as repo from './repository';
import { advanceRun } from './rules';
import { contactInSegment } from '../segments/service';

export const JOB_AUTOMATION_STEP = 'automation.step';
const HOUR_MS = 3_600_000;

const timerName = (run: Pick<RunRecord, '_id'>) => `automation-run-${run._id}`;

export interface NewAutomation {
  name: string;
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  linkBaseUrl?: string;
  owner?: AutomationRecord['owner'];
}

/** The write that creates an automation, for callers that create it with their own record (funnels). */
export function createAutomationOps(deps: Deps, scope: Scope, input: NewAutomation): { automation: AutomationRecord; ops: TransactOp[] } {
  const now = deps.clock.now().toISOString();
  const automation: AutomationRecord = { _id: objectId(deps.clock), status: 'draft', createdAt: now, updatedAt: now, ...input };
  return { automation, ops: [repo.automationWrites.create(scope, automation)] };
}

/** The automation, or undefined when it was deleted. */
export const findAutomation = (deps: Deps, scope: Scope, id: string) => repo.getAutomation(deps.store, scope, id, true);

export async function getAutomation(deps: Deps, scope: Scope, id: string): Promise<AutomationRecord> {
  const automation = await findAutomation(deps, scope, id);
  if (!automation) throw notFound('Automation');
  return automation;
}

export const listAutomations = (deps: Deps, scope: Scope, page: { limit: number; cursor?: string }) => repo.listAutomations(deps.store, scope, page);

/** Turning on and off. Pausing stops new entries and any pending send (the timer finds it paused). */
export async function setAutomationStatus(deps: Deps, scope: Scope, id: string, status: 'active' | 'paused'): Promise<void> {
  await onConditionFailed(deps.store.transact([repo.automationWrites.setStatus(scope, id, status, deps.clock.now().toISOString())]), () => {
    throw notFound('Automation');
  });
}

export async function deleteAutomation(deps: Deps, scope: Scope, id: string): Promise<AutomationRecord> {
  const automation = await getAutomation(deps, scope, id);
  if (automation.status === 'active') throw conflict('Pause the automation before deleting it', 'AUTOMATION_ACTIVE');
  await onConditionFailed(deps.store.transact([repo.automationWrites.delete(scope, id)]), () => {
    throw notFound('Automation');
  });
  return automation;
}

/**
 * Puts a contact into an active automation once (a second entry of the same email does nothing)
 * and runs its first steps. Answers whether the contact entered.
 */
export async function enroll(deps: Deps, scope: Scope, automationId: string, email: string): Promise<boolean> {
  const automation = await findAutomation(deps, scope, automationId);
  if (!automation || automation.status !== 'active') return false;
  // A trigger restricted to a segment lets in only contacts in it at the moment of the trigger.
  if (automation.trigger.segmentId && !(await contactInSegment(deps, scope, automation.trigger.segmentId, email))) return false;
  const now = deps.clock.now().toISOString();
  const run: RunRecord = { _id: objectId(deps.clock), automationId, email, step: 0, enteredAt: now, nextAt: now, done: false };
  try {
    await deps.store.transact([repo.runWrites.create(scope, run)]);
  } catch (error) {
    if (isConditionFailed(error)) {
      // Entered before: resume only if that entry never got past its first step (a crash).
      const existing = await repo.getRun(deps.store, scope, automationId, email);
      if (existing && existing.step === 0 && !existing.done) await runStep(deps, scope, automationId, email, 0);
      return false;
    }
    throw error;
  }
  await runStep(deps, scope, automationId, email, 0);
  return true;
}

/**
 * Runs a contact's run from `step` (the timer's job): sends the mails up to the next wait, then
 * arms the timer for the step after it. Idempotent: a run that already moved past `step` is left
 * alone, and each mail is claimed by a marker before it goes out.
 */
export async function runStep(deps: Deps, scope: Scope, automationId: string, email: string, step: number): Promise<void> {
  const automation = await findAutomation(deps, scope, automationId);
  if (!automation || automation.status !== 'active') return;
  const run = await repo.getRun(deps.store, scope, automationId, email);
  if (!run || run.done || run.step !== step) return;
  // Branches ask about this contact's segments once, up front, so the plan stays a pure function.
  const branchSegments = [...new Set(automation.steps.flatMap((s) => (s.type === 'if_segment' ? [s.segmentId] : [])))];
  const membership = new Map(await Promise.all(branchSegments.map(async (id) => [id, await contactInSegment(deps, scope, id, email)] as const)));
  const plan = advanceRun(automation.steps, step, (id) => membership.get(id) === true);
  for (const index of plan.sends) await sendStep(deps, scope, automation, index, email);
  const now = deps.clock.nowMs();
  const nextAt = plan.resume ? new Date(now + plan.resume.waitHours * HOUR_MS) : undefined;
  try {
    await deps.store.transact([
      repo.runWrites.advance(scope, run, { step: plan.resume?.step ?? automation.steps.length, nextAt: nextAt?.toISOString() ?? null, done: !plan.resume }),
    ]);
  } catch (error) {
    if (isConditionFailed(error)) return; // another firing moved it on
    throw error;
  }
  if (plan.resume && nextAt) {
    await deps.ports.scheduler.schedule(timerName(run), nextAt, { type: JOB_AUTOMATION_STEP, scope, payload: { automationId, email, step: plan.resume.step } });
  }
}

async function sendStep(deps: Deps, scope: Scope, automation: AutomationRecord, index: number, email: string): Promise<void> {
  const step = automation.steps[index];
  if (step?.type !== 'send_email') return;
  try {
    // Marketing mail goes only to contacts who consented (a buyer who did not tick the opt-in).
    if (!(await marketingAllowed(deps, scope, email))) {
      logger.info('automation mail not sent: no marketing consent', { automationId: automation._id, step: index });
      return;
    }
    const post = await getPost(deps, scope, step.postId);
    const source: PostSource = automation.owner?.kind === 'funnel' ? 'funnel' : 'automation';
    // Queued for the email capability's worker with the step's marker, in one transaction.
    const queued = await prepareTransactional(deps, scope, {
      to: [email],
      subject: post.subject,
      html: post.html,
      text: post.text,
      preview: post.preview,
      fromName: post.fromName,
      replyTo: post.replyTo,
      source,
      baseUrl: automation.linkBaseUrl,
    });
    await deps.store.transact([...repo.sendOps(scope, automation._id, index, email, deps.clock.now().toISOString(), queued.id), ...queued.ops]);
  } catch (error) {
    if (isConditionFailed(error)) return; // queued by an earlier firing
    // The sequence goes on: a deleted post or an address the mail cannot take must not block the later steps.
    logger.warn('automation mail not sent', { automationId: automation._id, step: index, error: error as Error });
  }
}

export interface StepReport {
  step: number;
  postId: string;
  sent: number;
  opened: number;
  clicked: number;
}

/**
 * Per mail step: mails sent, and unique recipients who opened and clicked (read from the sent
 * posts of the step, a page at a time).
 */
export async function automationReport(
  deps: Deps,
  scope: Scope,
  automation: AutomationRecord,
): Promise<{ steps: StepReport[]; uniqueOpened: number; uniqueClicked: number }> {
  const openers = new Set<string>();
  const clickers = new Set<string>();
  const stats = new Map((await repo.stepStats(deps.store, scope, automation._id)).map((s) => [s.step, s.sent]));
  const out: StepReport[] = [];
  for (const [index, step] of automation.steps.entries()) {
    if (step.type !== 'send_email') continue;
    let opened = 0;
    let clicked = 0;
    let cursor: string | undefined;
    do {
      const page = await repo.sendsOfStep(deps.store, scope, automation._id, index, { limit: 100, cursor });
      const sent = page.sends.filter((s) => s.sentPostId);
      const posts = await Promise.all(sent.map((s) => sentMailEngagement(deps, scope, s.sentPostId!)));
      posts.forEach((post, i) => {
        if (post?.opened) {
          opened++;
          openers.add(sent[i]!.email);
        }
        if (post?.clicked) {
          clicked++;
          clickers.add(sent[i]!.email);
        }
      });
      cursor = page.cursor;
    } while (cursor);
    out.push({ step: index, postId: step.postId, sent: stats.get(index) ?? 0, opened, clicked });
  }
  return { steps: out, uniqueOpened: openers.size, uniqueClicked: clickers.size };
}
