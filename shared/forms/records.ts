export const FORM = 'FORM';
export const FORM_DAY = 'DAY';

export const FORM_TYPES = ['inline', 'slide_in', 'popup'] as const;
export type FormType = (typeof FORM_TYPES)[number];
export const FORM_STATUSES = ['active', 'paused', 'archived'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

export interface FormTrigger {
  delaySeconds: number;
  scrollPercent: number;
  exitIntent: boolean;
}

/** One signup form of an account and mode. */
export interface FormRecord {
  _id: string;
  name: string;
  type: FormType;
  status: FormStatus;
  headline: string;
  body: string;
  buttonLabel: string;
  placeholder: string;
  collectName: boolean;
  successHeadline: string;
  successMessage: string;
  leadMagnetProductId: string | null;
  /** Where the thank-you state sends people for the lead magnet (the spec's `leadMagnet.url`). */
  leadMagnetUrl: string | null;
  tags: string[];
  doubleOptIn: boolean;
  accentColor: string;
  position: 'bottom_right' | 'bottom_left';
  trigger: FormTrigger;
  frequencyDays: number;
  /** Counters (ADD), so a list never reads the day items. */
  views: number;
  signups: number;
  createdAt: string;
  updatedAt: string;
}

/** Views and signups of one form on one UTC day. */
export interface FormDayRecord {
  day: string;
  views: number;
  signups: number;
}

/** Where a public form id lives (public routes carry no key). */
export interface FormPointer {
  accountId: string;
  mode: 'live' | 'test';
  formId: string;
}

/** A double opt-in waiting for its link to be followed. */
export interface PendingConfirmation {
  accountId: string;
  mode: 'live' | 'test';
  formId: string;
  email: string;
  name: string | null;
  requestedAt: string;
}
