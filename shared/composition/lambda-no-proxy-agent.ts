/**
 * Stands in for `https-proxy-agent` in the Lambda bundles (an esbuild alias in
 * esbuild-options.ts). gaxios, under the Google OAuth client, builds one from HTTPS_PROXY and
 * hands it to fetch as `agent`; in the bundles fetch is always Node's own (the spreadsheet adapter
 * passes it, and node-fetch is aliased to it), which takes no `agent` and ignores it. The real
 * agent has no effect there, so this one is the same no-op without agent-base and debug (~15 KiB
 * of the sheets functions). Sending Google calls through a proxy would need a fetch dispatcher.
 */
export class HttpsProxyAgent {
  constructor(
    readonly proxy: string | URL,
    readonly options?: unknown,
  ) {}
}
