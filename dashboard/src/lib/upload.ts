import { ApiFailure } from '../api/client';

/**
 * Uploads one product file with progress; the dashboard's only upload path for product files.
 * Files up to 4 MB go in one multipart POST /products/{id}/files; larger ones (up to the plan's
 * limit, 2 GB on Volume) in parts: declared first (the API refuses an oversized or disallowed file
 * before a byte moves), each part PUT straight to its signed URL, then completed. XMLHttpRequest
 * because fetch cannot report upload progress. The API's own reason comes back on a refusal.
 */
const FORM_LIMIT = 4 * 1024 * 1024;

interface Started {
  uploadId: string;
  partSize: number;
  parts: { partNumber: number; url: string }[];
}

function send(
  method: string,
  url: string,
  options: { token?: string; body?: Document | XMLHttpRequestBodyInit; json?: unknown; onProgress?: (loaded: number) => void },
): Promise<XMLHttpRequest> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    if (options.token) xhr.setRequestHeader('authorization', `Bearer ${options.token}`);
    if (options.json !== undefined) xhr.setRequestHeader('content-type', 'application/json');
    if (options.onProgress) xhr.upload.onprogress = (event) => options.onProgress!(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(xhr);
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the text itself is the reason */
      }
      reject(new ApiFailure(xhr.status, typeof body === 'object' && body ? (body as ApiFailure['body']) : { message: String(body) }));
    };
    xhr.onerror = () => reject(new ApiFailure(0, { message: 'The upload was interrupted; check the connection and try again' }));
    xhr.send(options.json !== undefined ? JSON.stringify(options.json) : (options.body ?? null));
  });
}

async function uploadInParts(files: string, token: string | undefined, file: File, onProgress: (fraction: number) => void): Promise<void> {
  const started = JSON.parse(
    (await send('POST', `${files}/uploads`, { token, json: { name: file.name, size: file.size, contentType: file.type || undefined } })).responseText,
  ) as Started;
  try {
    const done: { partNumber: number; etag: string }[] = [];
    let sent = 0;
    for (const part of started.parts) {
      const bytes = file.slice((part.partNumber - 1) * started.partSize, part.partNumber * started.partSize);
      // The part URL is signed: no authorization header, or S3 refuses it.
      const answer = await send('PUT', part.url, { body: bytes, onProgress: (loaded) => onProgress((sent + loaded) / file.size) });
      const etag = answer.getResponseHeader('etag');
      if (!etag) throw new ApiFailure(0, { message: 'The file store did not confirm a part; try again' });
      done.push({ partNumber: part.partNumber, etag });
      sent += bytes.size;
    }
    await send('POST', `${files}/uploads/${encodeURIComponent(started.uploadId)}/complete`, { token, json: { parts: done } });
  } catch (error) {
    await send('DELETE', `${files}/uploads/${encodeURIComponent(started.uploadId)}`, { token }).catch(() => undefined);
    throw error;
  }
}

export async function uploadProductFile(
  baseUrl: string,
  token: string | undefined,
  productId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const files = `${baseUrl}/products/${encodeURIComponent(productId)}/files`;
  if (file.size > FORM_LIMIT) return uploadInParts(files, token, file, onProgress);
  const form = new FormData();
  form.append('file', file);
  await send('POST', files, { token, body: form, onProgress: (loaded) => onProgress(loaded / file.size) });
}
