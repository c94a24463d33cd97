/**
 * Which stack holds what grows with the capabilities, so that every stack keeps room under
 * CloudFormation's 500 resources (the goal is at most 300 each; test/infra/stacks.test.ts asserts
 * it). An API group (its function, integration, permission, alarms and routes, ~8 resources plus
 * one per route) lives in one of the API route stacks, a bus consumer (its function, rule,
 * permission and alarms, ~8) in the consumers stack.
 *
 * Groups are pinned here by name, never placed by counting: a route that moved from one stack to
 * another in one deploy would be created in its new stack while the old one still held it. A group
 * not pinned (a new capability) lands in OPEN_API_STACK; when the template test finds that stack
 * near its room, open a new one here and make it the open one; pinned groups stay where they are.
 */
export const API_ROUTE_STACKS = {
  Commerce: ['account', 'catalog', 'webhooks', 'storefront', 'checkout', 'processor', 'sales', 'subscribers', 'credits', 'events', 'usage', 'retention'],
  Growth: ['audience', 'email', 'automations', 'funnels', 'memberships', 'segments', 'forms', 'links', 'survey'],
  Platform: ['sheets', 'team', 'imports', 'dashboard', 'analytics', 'docs', 'mcp'],
} as const;

export type ApiRouteStackName = keyof typeof API_ROUTE_STACKS;

/** Where a group that is not pinned goes: the stack with the most room. */
export const OPEN_API_STACK: ApiRouteStackName = 'Platform';

export function apiRouteStackOf(group: string): ApiRouteStackName {
  for (const [stack, groups] of Object.entries(API_ROUTE_STACKS) as [ApiRouteStackName, readonly string[]][]) if (groups.includes(group)) return stack;
  return OPEN_API_STACK;
}

/** The most resources a stack may hold (CloudFormation allows 500): the rest is room to grow. */
export const STACK_RESOURCE_BUDGET = 300;

/**
 * A consumer function's name: the workers stack's rule targets it by this name, so the rule (which
 * stays there) needs no reference to the consumers stack. Lambda names are at most 64 characters.
 */
export function consumerFunctionName(stage: string, consumer: string): string {
  const name = `creator-commerce-${stage}-${consumer}`;
  if (name.length > 64) throw new Error(`Consumer function name ${name} is over 64 characters: shorten the stage or the consumer name`);
  return name;
}
