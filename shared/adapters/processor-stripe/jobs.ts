import type { JobHandler } from '../../platform/capability';
import { logger } from '../../platform/logger';
import { decryptProcessorSecrets, getProcessorSettings } from '../../processor/settings';
import { JOB_RETRY_INVOICE } from './records';

/**
 * Jobs of the Stripe adapter: a recovery retry of a failed renewal invoice, on the day the
 * service's recovery schedule names (translate.ts schedules it when the failure arrives).
 */
export const STRIPE_JOB_HANDLERS: Record<string, JobHandler> = {
  [JOB_RETRY_INVOICE]: async (job, deps) => {
    if (!job.scope) return;
    const settings = await getProcessorSettings(deps.store, job.scope);
    // The scope moved off Stripe since: its invoices are no longer ours to pay.
    if (settings?.provider !== 'stripe') return;
    const secrets = await decryptProcessorSecrets(deps.ports.encryption, job.scope, settings);
    // The SDK loads with the first retry, outside the jobs function's cold import.
    const [{ retryInvoice }, { stripeClient }] = await Promise.all([import('./billing'), import('./client')]);
    const client = stripeClient(secrets.secretKey!, deps.config);
    const outcome = await retryInvoice({ deps, scope: job.scope, client }, String(job.payload.invoiceId), Number(job.payload.attempt));
    logger.info('Stripe recovery retry', { invoiceId: job.payload.invoiceId, attempt: job.payload.attempt, outcome });
  },
};
