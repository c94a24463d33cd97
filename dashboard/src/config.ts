/** Where the API lives: `/dashboard/config.json` `{ apiBaseUrl }` when the host provides it, else this origin. */
export interface DashboardConfig {
  apiBaseUrl: string;
}

export async function loadConfig(): Promise<DashboardConfig> {
  try {
    const response = await fetch(`${import.meta.env.BASE_URL}config.json`, { cache: 'no-store' });
    if (response.ok && (response.headers.get('content-type') ?? '').includes('json')) {
      const body = (await response.json()) as Partial<DashboardConfig>;
      if (typeof body.apiBaseUrl === 'string' && body.apiBaseUrl) return { apiBaseUrl: body.apiBaseUrl.replace(/\/+$/, '') };
    }
  } catch {
    /* no config file: same origin */
  }
  return { apiBaseUrl: window.location.origin };
}
