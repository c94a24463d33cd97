/** Automations as stored: a trigger and a list of steps, run per contact by one-time timers. */
export const AUTOMATION = 'AUTOMATION';
export const RUN = 'RUN';
export const SEND = 'SEND';
export const STEP_STAT = 'STEP_STAT';

export type AutomationStep = { type: 'send_email'; postId: string } | { type: 'wait'; hours: number };
export type AutomationTrigger = { type: 'lead_magnet_claimed'; productId: string };
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
