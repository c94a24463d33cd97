import type { Deps } from '../platform/context';
import { badRequest, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import type { CreatorLinkRecord, CreatorPageRecord } from './records';
import {
  createCreatorPage,
  deleteCreatorLink as removeLink,
  getCreatorLink,
  getCreatorPage as readPage,
  listCreatorLinks,
  putCreatorLink,
  updateCreatorLink as writeLink,
  updateCreatorPage as writePage,
} from './repository';

/** A page is a short list of links; past this a seller wants a different tool. */
export const MAX_LINKS = 50;

export type CreatorPage = CreatorPageRecord & { links: CreatorLinkRecord[] };

/** The account+mode's page record, made empty on first use. */
async function ensurePage(deps: Deps, scope: Scope): Promise<CreatorPageRecord> {
  const existing = await readPage(deps.store, scope);
  if (existing) return existing;
  const now = deps.clock.now().toISOString();
  const page: CreatorPageRecord = { _id: objectId(deps.clock), title: '', bio: '', avatarUrl: null, testMode: scope.mode === 'test', createdAt: now, updatedAt: now };
  try {
    await createCreatorPage(deps.store, scope, page);
    return page;
  } catch (error) {
    // Two first reads raced; the other one's page is the page.
    if (error instanceof ConditionFailed) return (await readPage(deps.store, scope))!;
    throw error;
  }
}

export async function getCreatorPage(deps: Deps, scope: Scope): Promise<CreatorPage> {
  const page = await ensurePage(deps, scope);
  return { ...page, links: await listCreatorLinks(deps.store, scope) };
}

export async function updateCreatorPage(deps: Deps, scope: Scope, input: { title?: string; bio?: string; avatarUrl?: string | null }): Promise<CreatorPage> {
  await ensurePage(deps, scope);
  const page = await writePage(deps.store, scope, { ...input, updatedAt: deps.clock.now().toISOString() });
  return { ...page, links: await listCreatorLinks(deps.store, scope) };
}

export async function addCreatorLink(deps: Deps, scope: Scope, input: { title: string; url: string }): Promise<CreatorLinkRecord> {
  await ensurePage(deps, scope);
  // Read-then-write: two concurrent adds may pass one over the cap, which is harmless.
  if ((await listCreatorLinks(deps.store, scope)).length >= MAX_LINKS) {
    throw badRequest(`A creator page holds at most ${MAX_LINKS} links`, { code: 'TOO_MANY_LINKS' });
  }
  const now = deps.clock.now().toISOString();
  const link: CreatorLinkRecord = { _id: objectId(deps.clock), title: input.title, url: input.url, createdAt: now, updatedAt: now };
  await putCreatorLink(deps.store, scope, link);
  return link;
}

export async function updateCreatorLink(deps: Deps, scope: Scope, id: string, input: { title?: string; url?: string }): Promise<CreatorLinkRecord> {
  if (!(await getCreatorLink(deps.store, scope, id))) throw notFound('Link');
  try {
    return await writeLink(deps.store, scope, id, { ...input, updatedAt: deps.clock.now().toISOString() });
  } catch (error) {
    if (error instanceof ConditionFailed) throw notFound('Link');
    throw error;
  }
}

export async function deleteCreatorLink(deps: Deps, scope: Scope, id: string): Promise<void> {
  if (!(await removeLink(deps.store, scope, id))) throw notFound('Link');
}
