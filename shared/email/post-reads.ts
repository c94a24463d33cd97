import type { Deps } from '../platform/context';
import { notFound } from '../platform/errors';
import type { Scope } from '../store/keys';
import type { PostRecord } from './records';
import * as repo from './repository';

/**
 * Reading a post, for the capabilities that only read posts (automations). Kept apart from
 * service.ts, which asks the mail provider about the sender: a jobs function's AWS clients are
 * read from the `ports.<name>` its code names, and reading a post needs no SESv2.
 */
export async function getPost(deps: Deps, scope: Scope, id: string): Promise<PostRecord> {
  const post = await repo.getPost(deps.store, scope, id);
  if (!post) throw notFound('Post');
  return post;
}

/**
 * Opens and clicks of one delivered transactional mail (an automation step's send). Mail sent
 * before such mail stopped being recorded as posts is read from its post.
 */
export async function sentMailEngagement(deps: Deps, scope: Scope, id: string): Promise<{ opened: number; clicked: number } | undefined> {
  const mail = (await repo.getSentMail(deps.store, scope, id)) ?? (await repo.getPost(deps.store, scope, id));
  return mail ? { opened: mail.opened, clicked: mail.clicked } : undefined;
}
