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
