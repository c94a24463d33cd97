import { defineOperation } from '../platform/operation';
import { summaryOutput, summaryQuery } from './schemas';
import { salesSummary } from './service';

export const analyticsOperations = [
  defineOperation({
    operationId: 'getAnalyticsSummary',
    tool: 'get_analytics_summary',
    summary: 'Revenue (gross, refunds, net), sales and new or churned subscribers per day, with MRR and active subscribers now',
    description:
      'Days are UTC, both ends included, at most 366. A sale counts on its day, a refund on the day it was made. ' +
      "Figures are in one currency (the account's unless `currency`), for the key's mode. MRR counts what active and trialing subscribers pay per month " +
      '(their latest charge, so discounts show; the offer price while in trial; nothing while paused). `recoveredCents` and `recoveredSales` are the part of the gross ' +
      "and sales bought through an abandoned-checkout mail's link (PUT /checkout/recovery). Kept from the events within seconds.",
    tags: ['Analytics'],
    method: 'GET',
    path: '/analytics/summary',
    auth: 'key',
    query: summaryQuery,
    output: summaryOutput,
    handler: (ctx, { query }) => salesSummary(ctx, query),
  }),
];
