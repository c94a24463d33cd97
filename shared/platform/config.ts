import * as z from './zod';

/**
 * Runtime configuration, read once from the environment and validated. Lambda functions get these
 * variables from the CDK stacks; the local runtime sets them for itself.
 */
const schema = z.object({
  STAGE: z._default(z.string(), 'local'),
  AWS_REGION: z._default(z.string(), 'us-east-1'),
  TABLE_NAME: z._default(z.string(), 'creator-commerce'),
  /** Set only for DynamoDB Local. */
  DYNAMODB_ENDPOINT: z.optional(z.string().check(z.url())),
  EVENT_BUS_NAME: z._default(z.string(), 'creator-commerce'),
  /**
   * Address and ARN of the jobs queues up to the job group's name: each group of capabilities with
   * job handlers has its own queue, named `<prefix><group>` (shared/composition/jobs.ts).
   */
  JOBS_QUEUE_URL_PREFIX: z.optional(z.string()),
  JOBS_QUEUE_ARN_PREFIX: z.optional(z.string()),
  SCHEDULER_GROUP: z._default(z.string(), 'default'),
  SCHEDULER_ROLE_ARN: z.optional(z.string()),
  BLOB_BUCKET: z.optional(z.string()),
  KMS_KEY_ID: z.optional(z.string()),
  /** The function that renders mail and sanitises HTML (the render port in AWS). */
  RENDER_FUNCTION_NAME: z.optional(z.string()),
  /**
   * The platform sender (shared/platform/settings.ts PLATFORM_SENDER): the deploy's `senderEmail`
   * in AWS; the local runtime's own address when unset.
   */
  EMAIL_FROM: z.optional(z.string().check(z.minLength(3))),
  /** SES configuration set every message goes through; its event destination reports bounces. */
  EMAIL_CONFIGURATION_SET: z.optional(z.string()),
  /** Base address of the API as buyers and sellers reach it; derived from the request when unset. */
  PUBLIC_BASE_URL: z.optional(z.string().check(z.url())),
  /** The API's own address, where the MCP endpoint sends each tool call (the stack sets its endpoint; the local runtime its own address). */
  API_URL: z.optional(z.string().check(z.url())),
  /** Address of the seller dashboard (its sign-in links point here); `<API base>/dashboard` when unset. */
  DASHBOARD_URL: z.optional(z.string().check(z.url())),
  /** Honoured only by the local runtime: lets webhooks go to http://127.0.0.1 and localhost. */
  WEBHOOK_ALLOW_LOOPBACK: z._default(z.enum(['0', '1']), '0'),
  /** Validate every answer against its output schema (on in tests, off in production). */
  VALIDATE_OUTPUT: z._default(z.enum(['0', '1']), '0'),
  /** The seller's Google OAuth client for spreadsheet sync (drive.file scope only). */
  GOOGLE_CLIENT_ID: z.optional(z.string()),
  GOOGLE_CLIENT_SECRET: z.optional(z.string()),
  /** The client secret encrypted with the deployment's KMS key (context purpose=google-client-secret); what AWS uses. */
  GOOGLE_CLIENT_SECRET_ENCRYPTED: z.optional(z.string()),
  /** Overrides of Google's endpoints (tests point them at a fake server on loopback). */
  GOOGLE_OAUTH_AUTH_URL: z.optional(z.string().check(z.url())),
  GOOGLE_OAUTH_TOKEN_URL: z.optional(z.string().check(z.url())),
  GOOGLE_OAUTH_REVOKE_URL: z.optional(z.string().check(z.url())),
  GOOGLE_SHEETS_ROOT_URL: z.optional(z.string().check(z.url())),
  /** Stripe API address (`http://127.0.0.1:PORT`); unset means api.stripe.com. Tests point it at a fake. */
  STRIPE_API_URL: z.optional(z.string().check(z.url())),
  /** Platform API addresses for imports' `connect` (tests point them at a fake on loopback); unset means the platform's own. */
  IMPORT_GUMROAD_API_URL: z.optional(z.string().check(z.url())),
  IMPORT_SHOPIFY_API_URL: z.optional(z.string().check(z.url())),
  IMPORT_MAILCHIMP_API_URL: z.optional(z.string().check(z.url())),
  /** Imports: a file of more rows than this (or replacing one) has its rows stored by a queue worker, not in the request. */
  IMPORT_INLINE_ROWS: z._default(z.coerce.number().check(z.int(), z.positive()), 2000),
  /** Imports: a dry run over more rows than this is computed by a queue worker (202), not in the request. */
  IMPORT_DRY_RUN_INLINE_ROWS: z._default(z.coerce.number().check(z.int(), z.positive()), 10000),
  /** Imports: rows a file worker stores per queue message. */
  IMPORT_FILE_CHUNK_ROWS: z._default(z.coerce.number().check(z.int(), z.positive()), 5000),
  RATE_LIMIT_PER_MINUTE: z._default(z.coerce.number().check(z.int(), z.positive()), 600),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  if (env === process.env && cached) return cached;
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  if (env === process.env) cached = parsed.data;
  return parsed.data;
}

export const configFrom = (values: Partial<Record<keyof Config, string>>): Config => loadConfig(values as NodeJS.ProcessEnv);
