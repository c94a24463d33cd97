import busboy from 'busboy';
import { badRequest } from '../errors';
import type { UploadedFile } from '../operation';

const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Splits a multipart/form-data body into fields and files (busboy, the parser middy uses). An
 * operation that takes multipart bodies names it (`multipart: parseMultipart`), so only the
 * functions serving such an operation bundle busboy.
 */
export function parseMultipart(body: Buffer, contentType: string): Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile[]> }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Record<string, UploadedFile[]> = {};
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { fileSize: MAX_FILE_BYTES, files: 10, fields: 100 } });
    } catch {
      reject(badRequest('Invalid multipart/form-data body'));
      return;
    }
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      let truncated = false;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        truncated = true;
      });
      stream.on('end', () => {
        if (truncated) {
          reject(badRequest(`File ${name} is larger than ${MAX_FILE_BYTES} bytes`, { field: name }));
          return;
        }
        files[name] ??= [];
        files[name].push({ filename: info.filename ?? name, mimetype: info.mimeType, content: Buffer.concat(chunks) });
      });
    });
    parser.on('error', () => reject(badRequest('Invalid multipart/form-data body')));
    parser.on('close', () => resolve({ fields, files }));
    parser.end(body);
  });
}
