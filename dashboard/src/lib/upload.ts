import { ApiFailure } from '../api/client';

/**
 * Uploads one product file with progress. This is the dashboard's only upload path for product
 * files: today one multipart POST /products/{id}/files sent with XMLHttpRequest (fetch cannot
 * report upload progress); when the API offers presigned multipart uploads for large files, the
 * switch happens here and the pages keep calling this function.
 * The API's own reason comes back on a refusal (413 names the plan's limit, 400 the type).
 */
export function uploadProductFile(baseUrl: string, token: string | undefined, productId: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${baseUrl}/products/${encodeURIComponent(productId)}/files`);
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () => {
      if (xhr.status === 201) return resolve();
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the text itself is the reason */
      }
      reject(new ApiFailure(xhr.status, typeof body === 'object' && body ? (body as ApiFailure['body']) : { message: String(body) }));
    };
    xhr.onerror = () => reject(new ApiFailure(0, { message: 'The upload was interrupted; check the connection and try again' }));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
