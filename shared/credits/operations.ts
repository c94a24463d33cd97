import * as z from '../platform/zod';
import { defineOperation } from '../platform/operation';
import { creditAccountSchema, deductAnswer, deductBody, listAccountsQuery } from './schemas';
import { deductCredits, listCreditAccounts } from './service';

export const creditOperations = [
  defineOperation({
    operationId: 'deductCredits',
    tool: 'deduct_credits',
    summary: 'Record credit usage (integer cents); never below zero; may trigger the one auto-refill charge',
    tags: ['Credits'],
    method: 'POST',
    path: '/credits/deduct',
    auth: 'key',
    body: deductBody,
    output: deductAnswer,
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
    query: listAccountsQuery,
    output: z.array(creditAccountSchema),
    handler: (ctx, { query }) => listCreditAccounts(ctx, query),
  }),
];
