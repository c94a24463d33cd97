import type { Deps } from '../../platform/context';
import { badRequest, notFound } from '../../platform/errors';
import { objectId } from '../../platform/ids';
import type { Scope } from '../../store/keys';
import { failOnCondition, onConditionFailed } from '../../store/conditional';
import type { CreatorLinkRecord, CreatorPageRecord } from './records';
import {
  insertCreatorLink,
  insertCreatorPage,
  loadCreatorLink,
  loadCreatorLinks,
  loadCreatorPage,
  patchCreatorLink,
  patchCreatorPage,
  removeCreatorLink,
} from './repository';

/** A page is a short list of links; past this a seller wants a different tool. */
export const MAX_LINKS = 50;

export type CreatorPage = CreatorPageRecord & { links: CreatorLinkRecord[] };

/** The account+mode's page record, made empty on first use. */
async function ensurePage(deps: Deps, scope: Scope): Promise<CreatorPageRecord> {
  const existing = await loadCreatorPage(deps.store, scope);
  if (existing) return existing;
  const now = deps.clock.now().toISOString();
  const page: CreatorPageRecord = {
    _id: objectId(deps.clock),
    title: '',
    bio: '',
    avatarUrl: null,
    testMode: scope.mode === 'test',
    createdAt: now,
    updatedAt: now,
  };
  // Two first reads may race; the other one's page is then the page.
  return onConditionFailed(
    insertCreatorPage(deps.store, scope, page).then(() => page),
    async () => (await loadCreatorPage(deps.store, scope))!,
  );
}

export async function getCreatorPage(deps: Deps, scope: Scope): Promise<CreatorPage> {
  const page = await ensurePage(deps, scope);
  return { ...page, links: await loadCreatorLinks(deps.store, scope) };
}

export async function updateCreatorPage(deps: Deps, scope: Scope, input: { title?: string; bio?: string; avatarUrl?: string | null }): Promise<CreatorPage> {
  await ensurePage(deps, scope);
  const page = await patchCreatorPage(deps.store, scope, { ...input, updatedAt: deps.clock.now().toISOString() });
  return { ...page, links: await loadCreatorLinks(deps.store, scope) };
}

export async function addCreatorLink(deps: Deps, scope: Scope, input: { title: string; url: string }): Promise<CreatorLinkRecord> {
  await ensurePage(deps, scope);
  // Read-then-write: two concurrent adds may pass one over the cap, which is harmless.
  if ((await loadCreatorLinks(deps.store, scope)).length >= MAX_LINKS) {
    throw badRequest(`A creator page holds at most ${MAX_LINKS} links`, { code: 'TOO_MANY_LINKS' });
  }
  const now = deps.clock.now().toISOString();
  const link: CreatorLinkRecord = { _id: objectId(deps.clock), title: input.title, url: input.url, createdAt: now, updatedAt: now };
  await insertCreatorLink(deps.store, scope, link);
  return link;
}

export async function updateCreatorLink(deps: Deps, scope: Scope, id: string, input: { title?: string; url?: string }): Promise<CreatorLinkRecord> {
  if (!(await loadCreatorLink(deps.store, scope, id))) throw notFound('Link');
  return failOnCondition(patchCreatorLink(deps.store, scope, id, { ...input, updatedAt: deps.clock.now().toISOString() }), () => notFound('Link'));
}

export async function deleteCreatorLink(deps: Deps, scope: Scope, id: string): Promise<void> {
  if (!(await removeCreatorLink(deps.store, scope, id))) throw notFound('Link');
}
