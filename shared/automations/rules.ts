import type { AutomationStep, AutomationTrigger } from './records';

/**
 * A sequence of mails at hours after entry (0, 24, 72…) as automation steps: a wait before each
 * mail whose time is later than the one before it.
 */
export function stepsFromDelays(emails: { delayHours: number; postId: string }[]): AutomationStep[] {
  const steps: AutomationStep[] = [];
  let at = 0;
  for (const email of emails) {
    if (email.delayHours < at) throw new Error(`delays must not decrease (${email.delayHours} after ${at})`);
    if (email.delayHours > at) steps.push({ type: 'wait', hours: email.delayHours - at });
    steps.push({ type: 'send_email', postId: email.postId });
    at = email.delayHours;
  }
  return steps;
}

/** Hours after entry at which each mail step goes out, in order (what a reader of the sequence sees). */
export function sendOffsets(steps: AutomationStep[]): { step: number; postId: string; hours: number }[] {
  let hours = 0;
  const out: { step: number; postId: string; hours: number }[] = [];
  steps.forEach((step, index) => {
    if (step.type === 'wait') hours += step.hours;
    else if (step.type === 'send_email') out.push({ step: index, postId: step.postId, hours });
  });
  return out;
}

/**
 * What a run does when it reaches `from`: the mail steps to send now (up to the next wait, through
 * segment branches, answered by `inSegment` for the contact), then either the step to resume at
 * after `waitHours`, or the end.
 */
export function advanceRun(
  steps: AutomationStep[],
  from: number,
  inSegment: (segmentId: string) => boolean = () => false,
): { sends: number[]; resume?: { step: number; waitHours: number } } {
  const sends: number[] = [];
  for (let i = from; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.type === 'send_email') {
      sends.push(i);
      continue;
    }
    if (step.type === 'if_segment') {
      if (inSegment(step.segmentId)) continue;
      // Branches only jump forward (checked on save), so a run always ends.
      if (step.otherwise === 'end' || step.otherwise <= i) return { sends };
      i = step.otherwise - 1;
      continue;
    }
    // Waits in a row add up; a run that ends in a wait simply ends.
    let waitHours = 0;
    let j = i;
    for (; j < steps.length && steps[j]!.type === 'wait'; j++) waitHours += (steps[j] as { hours: number }).hours;
    return j < steps.length ? { sends, resume: { step: j, waitHours } } : { sends };
  }
  return { sends };
}

/** The mail steps whose post is gone, by step index (activation refuses them). */
export const stepsMissingPosts = (steps: AutomationStep[], existingPostIds: Set<string>) =>
  steps.flatMap((step, index) => (step.type === 'send_email' && !existingPostIds.has(step.postId) ? [index] : []));

/** The segments an automation names (its trigger's and its branches'), each once. */
export const segmentIdsOf = (trigger: AutomationTrigger, steps: AutomationStep[]) => [
  ...new Set([...(trigger.segmentId ? [trigger.segmentId] : []), ...steps.flatMap((s) => (s.type === 'if_segment' ? [s.segmentId] : []))]),
];

/** Why these steps cannot run, as `[field, reason]`, or undefined: branches must jump forward, within the steps. */
export function stepsProblem(steps: AutomationStep[]): [string, string] | undefined {
  for (const [index, step] of steps.entries()) {
    if (step.type === 'if_segment' && step.otherwise !== 'end' && (step.otherwise <= index || step.otherwise > steps.length)) {
      return [`steps.${index}.otherwise`, `steps.${index}.otherwise: a later step (${index + 1} to ${steps.length}) or "end"`];
    }
  }
  return undefined;
}
