import * as z from './zod';

/** Plans in ascending order. Growth = tier2, Pro = tier3, Volume = volume. */
export const PLANS = ['free', 'tier2', 'tier3', 'volume'] as const;
export type Plan = (typeof PLANS)[number];
export const planSchema = z.enum(PLANS);

export const planAtLeast = (plan: Plan, required: Plan) => PLANS.indexOf(plan) >= PLANS.indexOf(required);
