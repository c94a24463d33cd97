import { readFile, stat } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheControl, contentTypeOf, dashboardConfig, isClientRoute, securityHeaders } from '../dashboard/hosting';

/** The built app (`npm run dashboard:build` writes it). */
export const DASHBOARD_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dashboard', 'dist');

export interface StaticAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export const isDashboardPath = (pathname: string) => pathname === '/dashboard' || pathname.startsWith('/dashboard/');

const exists = async (path: string) => (await stat(path).catch(() => undefined))?.isFile() ?? false;

/**
 * Serves the dashboard the way CloudFront does in AWS: files of `dist`, index.html for client
 * routes, `config.json` naming this runtime as the API, the same security and cache headers.
 * Files are read per request, so a rebuild shows without a restart.
 */
export async function serveDashboard(pathname: string, method: string, dist: string, apiBaseUrl: string): Promise<StaticAnswer> {
  const headers = securityHeaders();
  const text = (status: number, message: string, extra: Record<string, string> = {}): StaticAnswer => ({
    status,
    headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra },
    body: Buffer.from(message),
  });
  if (method !== 'GET' && method !== 'HEAD') return text(405, `Method ${method} not allowed on ${pathname}`, { allow: 'GET, HEAD' });
  if (pathname === '/dashboard/config.json') {
    return {
      status: 200,
      headers: { ...headers, 'content-type': contentTypeOf(pathname), 'cache-control': cacheControl(pathname) },
      body: Buffer.from(JSON.stringify(dashboardConfig(apiBaseUrl))),
    };
  }
  if (!(await exists(join(dist, 'index.html')))) {
    return text(503, 'The dashboard is not built yet: run `npm run dashboard:build`, then reload this page.');
  }
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice('/dashboard'.length)) || '/';
  } catch {
    return text(400, 'Bad path');
  }
  const file = normalize(join(dist, relative));
  if (file !== dist && !file.startsWith(dist + sep)) return text(404, 'Not found');
  const target = relative.endsWith('/') || isClientRoute(relative) ? ((await exists(file)) ? file : join(dist, 'index.html')) : file;
  if (!(await exists(target))) return text(404, `No file ${pathname}`);
  const body = await readFile(target);
  const servedPath = target === join(dist, 'index.html') ? '/dashboard/index.html' : pathname;
  return {
    status: 200,
    headers: { ...headers, 'content-type': contentTypeOf(target), 'cache-control': cacheControl(servedPath) },
    body: method === 'HEAD' ? Buffer.alloc(0) : body,
  };
}
