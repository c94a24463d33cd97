/**
 * `node-fetch` in the Lambda bundles: Node's own fetch. Only gaxios (under the Google clients)
 * imports it, as its fallback when a request names no `fetchImplementation`; the spreadsheet
 * adapter names Node's fetch on every client it makes, which gaxios supports
 * (shared/adapters/spreadsheet-google/index.ts). Bundling node-fetch 3 cost the sheets functions
 * 83 KiB with its web-streams polyfill.
 */
export default globalThis.fetch;
