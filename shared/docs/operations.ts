import * as z from 'zod';
import { notFound } from '../platform/errors';
import { defineOperation, rawReply, type AnyOperation } from '../platform/operation';
import { DOCS_ASSETS, explorerPage, readDocsAsset } from './assets';
import { buildOpenApi } from './openapi';

const CACHE = { 'cache-control': 'public, max-age=300' };

/** The docs group: the contract and the explorer of `documented()`, every operation the API serves. */
export const docsOperations = (documented: () => AnyOperation[]): AnyOperation[] => [
  defineOperation({
    operationId: 'getOpenApi',
    summary: 'The OpenAPI 3.1 contract of this API',
    tags: ['Docs'],
    method: 'GET',
    path: '/docs.json',
    auth: 'public',
    handler: async (ctx) => {
      const spec = buildOpenApi(documented(), ctx.request.baseUrl);
      return rawReply(200, JSON.stringify(spec), 'application/json; charset=utf-8', CACHE);
    },
  }),
  defineOperation({
    operationId: 'getApiExplorer',
    summary: 'Interactive API explorer',
    tags: ['Docs'],
    method: 'GET',
    path: '/docs',
    auth: 'public',
    handler: async (ctx) => rawReply(200, explorerPage(`${ctx.request.baseUrl}/docs.json`, `${ctx.request.baseUrl}/docs/assets`), 'text/html; charset=utf-8', CACHE),
  }),
  defineOperation({
    operationId: 'getApiExplorerAsset',
    summary: 'A file of the API explorer',
    tags: ['Docs'],
    method: 'GET',
    path: '/docs/assets/{file}',
    auth: 'public',
    params: z.object({ file: z.string() }),
    handler: async (_ctx, { params }) => {
      const text = await readDocsAsset(params.file);
      if (text === undefined) throw notFound('File');
      return rawReply(200, text, DOCS_ASSETS[params.file]!, { 'cache-control': 'public, max-age=86400' });
    },
  }),
];
