import { defineEntity } from '../../store/entity';
import { keys, type Scope } from '../../store/keys';
import { CREATOR_PAGE, type CreatorLinkRecord, type CreatorPageRecord } from './records';

const PAGE_ID = 'PAGE';
const LINK = 'LINK';
const pageKey = (scope: Scope) => keys.entity(scope, CREATOR_PAGE, PAGE_ID);
const linkKey = (scope: Scope, id: string) => keys.child(scope, CREATOR_PAGE, PAGE_ID, LINK, id);

export const creatorPageEntity = defineEntity<CreatorPageRecord>()({
  entity: 'CreatorPage',
  version: 1,
  owner: 'storefront/creator-pages',
  key: pageKey,
  keyArgs: ['scope'],
  patterns: {
    ofTenant: { kind: 'get', summary: 'Creator page of a tenant', key: pageKey, args: ['scope'], notes: 'one per account and mode, made on first read' },
  },
});

export const creatorLinkEntity = defineEntity<CreatorLinkRecord>()({
  entity: 'CreatorPageLink',
  version: 1,
  owner: 'storefront/creator-pages',
  key: linkKey,
  keyArgs: ['scope', 'linkId'],
  patterns: {
    byId: { kind: 'get', summary: 'Creator page link by id', key: linkKey, args: ['scope', 'linkId'] },
    ofPage: {
      kind: 'query',
      summary: 'Creator page links, in order added',
      partition: (scope: Scope) => keys.children(scope, CREATOR_PAGE, PAGE_ID, LINK),
      args: ['scope'],
      order: 'oldest first',
      notes: 'at most 50',
    },
  },
});
