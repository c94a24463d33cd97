/**
 * Settings a function needs from its deployment: secrets (made at deploy time in Secrets Manager,
 * read once per container; locally generated on first start into the data folder) and plain values
 * (given as environment). A capability names the settings its code uses in its manifest
 * (`settings`); the CDK gives each function exactly the settings of what it runs, and the local
 * runtime reads the same declarations. Nothing a feature needs is left for the seller to set by
 * hand on a function.
 */
export interface SecretSetting {
  kind: 'secret';
  /** Unique across the app. */
  name: string;
  /**
   * Environment variable that overrides it (the local runtime and tests); in AWS the function gets
   * `<variable>_ARN`, the secret's ARN, never the value.
   */
  variable: string;
  /** What it protects, for people reading the template and the README. */
  summary: string;
  /**
   * The local runtime's value when the environment sets none. Unset: generated on first start
   * (kept in the data folder, or for the process with --memory).
   */
  localValue?: string;
}

export interface ValueSetting {
  kind: 'value';
  name: string;
  /** Environment variable the function reads. */
  variable: string;
  summary: string;
  /** The deploy setting that gives it (`cdk deploy -c <context>=...`); synth refuses without it. */
  context: string;
  /** The local runtime's value when the environment sets none. */
  localValue: string;
  /** Checks a deploy value; answers the problem, or undefined when it is fine. */
  check?: (value: string) => string | undefined;
}

export type Setting = SecretSetting | ValueSetting;

export const defineSetting = <S extends Setting>(setting: S): S => setting;

/** The environment variable that carries a secret's ARN to a function in AWS. */
export const secretArnVariable = (setting: SecretSetting) => `${setting.variable}_ARN`;

/**
 * Signs and verifies session tokens: dashboard sign-in, team members, staff tokens of the admin
 * CLI, and invite links. Any function that accepts a key accepts a session token too, so every
 * function with key-authenticated operations needs it (shared/platform/auth.ts).
 */
export const SESSION_SECRET = defineSetting({
  kind: 'secret',
  name: 'sessionSecret',
  variable: 'JWT_SECRET',
  summary: 'HS256 secret that signs and verifies session tokens and invite links',
});

const EMAIL_ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/**
 * The address the platform's own mails come from (sign-in links, team invites, buyers' account
 * notices). SES refuses an address it has not verified, so a deploy must name one.
 */
export const PLATFORM_SENDER = defineSetting({
  kind: 'value',
  name: 'platformSender',
  variable: 'EMAIL_FROM',
  summary: 'Sender address of the platform mails (sign-in links, invites, account notices); verify it in SES',
  context: 'senderEmail',
  localValue: 'no-reply@creator-commerce.localhost',
  check: (value) => (EMAIL_ADDRESS.test(value) ? undefined : `senderEmail must be an email address (got "${value}")`),
});
