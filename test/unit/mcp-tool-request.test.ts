import { describe, expect, it } from 'vitest';
import { toolRequest, type ToolEntry } from '../../shared/mcp/tool-entry';

const entry = (over: Partial<ToolEntry>): ToolEntry => ({
  name: 't',
  title: 't',
  description: 't',
  inputSchema: { type: 'object' },
  annotations: { readOnlyHint: false, destructiveHint: false },
  method: 'POST',
  path: '/things/{id}/parts/{partId}',
  params: ['id', 'partId'],
  query: [],
  body: 'fields',
  ...over,
});

describe('a tool call as an API request', () => {
  it('fills path parameters (encoded, so an argument cannot reach another route) and sends the rest as the body', () => {
    expect(toolRequest(entry({}), { id: 'a/../b', partId: 7, name: 'x', price: 3 })).toEqual({
      method: 'POST',
      target: '/things/a%2F..%2Fb/parts/7',
      body: { name: 'x', price: 3 },
    });
  });

  it('puts query fields in the query string and leaves out the unset ones', () => {
    const list = entry({ method: 'GET', path: '/things', params: [], query: ['page', 'status', 'tag'], body: 'none' });
    expect(toolRequest(list, { page: 2, status: 'active & more', tag: undefined })).toEqual({ method: 'GET', target: '/things?page=2&status=active+%26+more' });
    expect(toolRequest(list, {})).toEqual({ method: 'GET', target: '/things' });
  });

  it('sends a non-object body from its `body` argument, and no body when the operation takes none', () => {
    expect(toolRequest(entry({ path: '/bulk', params: [], body: 'value' }), { body: [1, 2] })).toEqual({ method: 'POST', target: '/bulk', body: [1, 2] });
    expect(toolRequest(entry({ method: 'DELETE', path: '/things/{id}', params: ['id'], body: 'none' }), { id: 'p1', extra: 1 })).toEqual({
      method: 'DELETE',
      target: '/things/p1',
    });
  });

  it('leaves a missing path parameter empty so the API refuses it', () => {
    expect(toolRequest(entry({ method: 'GET', path: '/things/{id}', params: ['id'], body: 'none' }), {}).target).toBe('/things/');
  });
});
