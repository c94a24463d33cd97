import autocannon from 'autocannon';

export interface LatencyResult {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  non2xx: number;
  readUnits?: number;
  writeUnits?: number;
}

/** Latency at fixed concurrency with autocannon, for a bounded number of requests. */
export async function measureLatency(options: {
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: unknown;
  connections?: number;
  amount?: number;
}): Promise<LatencyResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: { ...(options.body ? { 'content-type': 'application/json' } : {}), ...(options.headers ?? {}) },
    body: options.body ? JSON.stringify(options.body) : undefined,
    connections: options.connections ?? 16,
    amount: options.amount ?? 400,
    timeout: 20,
  });
  return {
    name: options.name,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: Math.round(result.requests.average),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Capacity units one request consumed, from the local runtime's x-consumed-capacity header. */
export async function measureCapacity(url: string, init: RequestInit = {}): Promise<{ read: number; write: number; status: number }> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  const header = response.headers.get('x-consumed-capacity') ?? '';
  const read = Number(/read=([\d.]+)/.exec(header)?.[1] ?? NaN);
  const write = Number(/write=([\d.]+)/.exec(header)?.[1] ?? NaN);
  return { read, write, status: response.status };
}
