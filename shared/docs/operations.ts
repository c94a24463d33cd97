import * as z from '../platform/zod';
import { notFound } from '../platform/errors';
import { defineOperation, rawReply, type AnyOperation } from '../platform/operation';
import { DOCS_ASSETS, explorerPage, readDocsAsset } from './assets';

const CACHE = { 'cache-control': 'public, max-age=300' };

/**
 * The docs group: the contract (`contract(baseUrl)`, the OpenAPI document of every operation the
 * API serves) and the explorer. The contract is built from the operations locally and read
 * prebuilt in the deployed docs function (shared/composition/docs-prebuilt.ts), which then
 * carries none of the capabilities' code.
 */
export const docsOperations = (contract: (baseUrl: string) => unknown): AnyOperation[] => [
  defineOperation({
    operationId: 'getOpenApi',
    summary: 'The OpenAPI 3.1 contract of this API',
    tags: ['Docs'],
    method: 'GET',
    path: '/docs.json',
    auth: 'public',
    handler: async (ctx) => {
      return rawReply(200, JSON.stringify(contract(ctx.request.baseUrl)), 'application/json; charset=utf-8', CACHE);
    },
  }),
  defineOperation({
    operationId: 'getApiExplorer',
    summary: 'Interactive API explorer',
    tags: ['Docs'],
    method: 'GET',
    path: '/docs',
    auth: 'public',
    handler: async (ctx) =>
      rawReply(200, explorerPage(`${ctx.request.baseUrl}/docs.json`, `${ctx.request.baseUrl}/docs/assets`), 'text/html; charset=utf-8', CACHE),
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
      const links = {
        docs: `${base}/docs`,
        openapi: `${base}/docs.json`,
        mcp: `${base}/mcp`,
        message: 'Creator commerce API: see the docs for every operation; authenticate with Authorization: Bearer <API key>.',
      };
      return rawReply(200, JSON.stringify(links), 'application/json; charset=utf-8', CACHE);
    },
  }),
];
