import { describe, expect, it } from 'vitest';
import { Router } from '../../shared/platform/http/router';

describe('Router', () => {
  const router = new Router<string>();
  router.add('GET', '/subscriptions/{id}', 'offer');
  router.add('GET', '/subscriptions/subscribers', 'subscribers');
  router.add('GET', '/subscriptions/subscribers/{id}', 'subscriber');
  router.add('GET', '/discounts/apply/{code}/{productId}', 'apply');
  router.add('GET', '/discounts/{id}', 'discount');
  router.add('GET', '/files/{path+}', 'files');
  router.add('POST', '/subscriptions/{id}', 'update');

  it('prefers literal segments over parameters, as API Gateway does', () => {
    expect(router.match('GET', '/subscriptions/subscribers')).toMatchObject({ route: 'subscribers', params: {} });
    expect(router.match('GET', '/subscriptions/abc')).toMatchObject({ route: 'offer', params: { id: 'abc' } });
    expect(router.match('GET', '/subscriptions/subscribers/42')).toMatchObject({ route: 'subscriber', params: { id: '42' } });
  });

  it('binds every parameter and decodes it', () => {
    expect(router.match('GET', '/discounts/apply/SAVE%2010/p1')).toMatchObject({ route: 'apply', params: { code: 'SAVE 10', productId: 'p1' } });
  });

  it('matches a greedy parameter over the rest of the path', () => {
    expect(router.match('GET', '/files/a/b/c.txt')).toMatchObject({ route: 'files', params: { path: 'a/b/c.txt' } });
    expect(router.match('GET', '/files')).toBeUndefined();
  });

  it('tells a wrong method from a missing path', () => {
    expect(router.match('DELETE', '/discounts/1')).toEqual({ methodNotAllowed: true });
    expect(router.match('GET', '/nothing/here')).toBeUndefined();
    expect(router.match('GET', '/discounts/1/extra')).toBeUndefined();
  });
});

describe('Router with routes under parameters and at the root', () => {
  const router = new Router<string>();
  router.add('GET', '/', 'root');
  router.add('GET', '/{slug}', 'page');
  router.add('GET', '/{slug}/edit', 'edit');
  router.add('GET', '/products', 'products');
  router.add('GET', '/products/{id}', 'product');

  it('finds routes whose first segment is a parameter beside the literal ones', () => {
    expect(router.match('GET', '/')).toMatchObject({ route: 'root' });
    expect(router.match('GET', '/products')).toMatchObject({ route: 'products' });
    expect(router.match('GET', '/hello')).toMatchObject({ route: 'page', params: { slug: 'hello' } });
    expect(router.match('GET', '/hello/edit')).toMatchObject({ route: 'edit', params: { slug: 'hello' } });
    // The literal first segment wins, as in API Gateway.
    expect(router.match('GET', '/products/edit')).toMatchObject({ route: 'product', params: { id: 'edit' } });
    expect(router.match('GET', '/products/p1')).toMatchObject({ route: 'product', params: { id: 'p1' } });
    expect(router.match('POST', '/hello')).toEqual({ methodNotAllowed: true });
  });
});
