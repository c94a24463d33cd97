import * as z from 'zod';
import { defineOperation } from '../platform/operation';
import { deductCredits, listCreditAccounts } from './service';

const accountSchema = z.looseObject({ _id: z.string(), productId: z.string(), buyerEmail: z.string(), balanceCents: z.number().int(), status: z.enum(['active', 'paused']) });

export const creditOperations = [
  defineOperation({
    operationId: 'deductCredits',
    tool: 'deduct_credits',
    summary: 'Record credit usage (integer cents); never below zero; may trigger the one auto-refill charge',
    tags: ['Credits'],
    method: 'POST',
    path: '/credits/deduct',
    auth: 'key',
    body: z.object({
      productId: z.string().min(1).max(64),
      email: z.string().trim().email('email must be a valid email address').optional(),
      customerId: z.string().max(64).optional(),
      amountCents: z.number().int('amountCents is an integer').positive('amountCents must be positive'),
      reason: z.string().max(200).optional(),
    }),
    output: z.object({ account: accountSchema, deductedCents: z.number().int(), balanceCents: z.number().int(), autoRefill: z.object({ attempted: z.boolean(), succeeded: z.boolean() }) }),
    handler: (ctx, { body }) => deductCredits(ctx, body),
  }),
  defineOperation({
    operationId: 'listCreditAccounts',
    tool: 'list_credit_accounts',
    summary: 'Credit balances; optional email and productId filters',
    tags: ['Credits'],
    method: 'GET',
    path: '/credits/accounts',
    auth: 'key',
    query: z.object({ email: z.string().max(320).optional(), productId: z.string().max(64).optional() }),
    output: z.array(accountSchema),
    handler: (ctx, { query }) => listCreditAccounts(ctx, query),
  }),
];
