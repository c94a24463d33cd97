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
  // Last, so the docs function's integration keeps the logical id of its first route.
  defineOperation({
    operationId: 'getApiRoot',
    summary: 'Where to start: a browser goes to the explorer, an API client gets the links',
    tags: ['Docs'],
    method: 'GET',
    path: '/',
    auth: 'public',
    handler: async (ctx) => {
      const base = ctx.request.baseUrl;
      if ((ctx.request.headers.accept ?? '').includes('text/html')) return rawReply(302, '', 'text/plain; charset=utf-8', { location: `${base}/docs` });
      const links = { docs: `${base}/docs`, openapi: `${base}/docs.json`, mcp: `${base}/mcp`, message: 'Creator commerce API: see the docs for every operation; authenticate with Authorization: Bearer <API key>.' };
      return rawReply(200, JSON.stringify(links), 'application/json; charset=utf-8', CACHE);
    },
  }),
];
