/** Automations as stored: a trigger and a list of steps, run per contact by one-time timers. */
export const AUTOMATION = 'AUTOMATION';
export const RUN = 'RUN';
export const SEND = 'SEND';
export const STEP_STAT = 'STEP_STAT';

/**
 * `if_segment`: a contact in the segment goes on to the next step; one who is not goes to step
 * `otherwise` (a later step) or leaves the automation (`end`).
 */
export type AutomationStep =
  | { type: 'send_email'; postId: string }
  | { type: 'wait'; hours: number }
  | { type: 'if_segment'; segmentId: string; otherwise: number | 'end' };

/**
 * What puts a contact into the automation. `lead_magnet_claimed` is a funnel's (funnels enroll);
 * `order_completed` is a buyer of the product (any product when none is named). With `segmentId`
 * only contacts in that segment at the moment of the trigger enter.
 */
export type AutomationTrigger =
  | { type: 'lead_magnet_claimed'; productId: string; segmentId?: string }
  | { type: 'order_completed'; productId?: string; segmentId?: string };
export type AutomationStatus = 'draft' | 'active' | 'paused';

export interface AutomationRecord {
  _id: string;
  name: string;
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  status: AutomationStatus;
  /** Base address of the links in the mails, fixed at creation (PUBLIC_BASE_URL wins when set). */
  linkBaseUrl?: string;
  /** Who made it (a funnel), so its sends are recorded with that source. */
  owner?: { kind: 'funnel'; id: string };
  createdAt: string;
  updatedAt: string;
}

/** One contact's way through an automation: `step` is the next step to run. */
export interface RunRecord {
  _id: string;
  automationId: string;
  email: string;
  step: number;
  enteredAt: string;
  nextAt: string | null;
  done: boolean;
}

/** Per send step: how many mails went out (stats). */
export interface StepStatRecord {
  step: number;
  sent: number;
}
