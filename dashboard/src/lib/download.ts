import { ApiFailure, type ApiErrorBody } from '../api/client';

/**
 * Hands a file the API answered (an invoice PDF, a buyer's export; asked with `parseAs: 'blob'`)
 * to the browser as a download. A refusal comes back as the API's own reason.
 */
export async function saveDownload(call: Promise<{ data?: Blob; error?: unknown; response: Response }>, filename: string): Promise<ApiFailure | null> {
  const { data, error, response } = await call;
  if (error !== undefined || !data) return new ApiFailure(response.status, error as ApiErrorBody | undefined);
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return null;
}

/**
 * Hands a file the API put behind a short-lived link (a buyer's export) to the browser: a download
 * on the same origin; elsewhere the browser opens the link itself (its own headers decide).
 */
export function saveFromUrl(url: string, filename: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
