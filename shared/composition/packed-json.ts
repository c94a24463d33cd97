import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/**
 * JSON built at synth time and carried inside a bundle as a string literal (the docs contract, the
 * MCP tool catalog): Brotli at its best quality, base64. Brotli makes the docs contract 24 KB
 * where gzip -9 made it 33 KB, and bundle size is what a cold start pays for.
 */
export const packJson = (value: unknown): string => {
  const json = Buffer.from(JSON.stringify(value));
  return brotliCompressSync(json, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  }).toString('base64');
};

export const unpackJson = <T>(packed: string): T => JSON.parse(brotliDecompressSync(Buffer.from(packed, 'base64')).toString('utf8')) as T;
