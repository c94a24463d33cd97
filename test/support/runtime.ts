import { testDynamoEndpoint } from './dynamo-endpoint';
import { randomHex } from '../../shared/platform/ids';
import { startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from '../../shared/local/runtime';

/**
 * A fresh local runtime on a random port with its own table in the shared DynamoDB Local, started
 * as `npm start` starts it: no secret and no feature switch is injected (the runtime generates its
 * secrets, as on a first start). Only what places it (port, table, memory) and the loopback switch
 * for tests' local webhook receivers are given, plus output validation, which only makes a test
 * stricter. `env` points a test at a fake (Stripe, Google) where it needs one.
 */
export async function startTestRuntime(env: Record<string, string> = {}, options: Partial<LocalRuntimeOptions> = {}): Promise<LocalRuntime> {
  return startLocalRuntime({
    ...options,
    port: 0,
    // In memory unless the test gives a data folder (as `npm start` keeps one) for tools that read it.
    memory: !options.dataDir,
    dynamoEndpoint: testDynamoEndpoint(),
    tableName: `t_${randomHex(6)}`,
    allowLoopbackWebhooks: true,
    dropTableOnStop: true,
    env: { VALIDATE_OUTPUT: '1', ...env },
  });
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/** A tiny HTTP client for one key. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly key?: string,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...(this.key ? { authorization: `Bearer ${this.key}` } : {}), ...headers } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body);
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body);
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }
}

export interface TestAccount {
  accountId: string;
  liveKey: string;
  testKey: string;
  live: ApiClient;
  test: ApiClient;
}

/** Creates an account through the control API, as any black-box client would. */
export async function createTestAccount(runtime: LocalRuntime, plan: 'free' | 'tier2' | 'tier3' | 'volume' = 'free', email?: string): Promise<TestAccount> {
  const control = new ApiClient(runtime.url);
  const created = await control.post('/_local/accounts', { plan, ...(email ? { email } : {}) });
  if (created.status !== 201) throw new Error(`account creation failed: ${created.text}`);
  const { accountId, liveKey, testKey } = created.body;
  return { accountId, liveKey, testKey, live: new ApiClient(runtime.url, liveKey), test: new ApiClient(runtime.url, testKey) };
}

export const control = (runtime: LocalRuntime) => new ApiClient(runtime.url);

/** `POST /_local/settle`, tried again (up to 4 times) when it answers 504 on a loaded machine. */
export async function settleWithRetries(runtime: LocalRuntime): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const res = await control(runtime).post('/_local/settle', {});
    if (res.status === 200) return;
    // Printed at once: a test that times out meanwhile still shows what the settle waited for.
    console.error(`settle attempt ${attempt} answered ${res.status}: ${res.text}`);
    if (res.status !== 504 || attempt === 4) throw new Error(`settle answered ${res.status}: ${res.text}`);
  }
}
