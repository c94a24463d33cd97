import { fromEnv } from '@aws-sdk/credential-provider-env';
import type { AwsCredentialIdentityProvider } from '@smithy/types';

/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles (an esbuild alias in
 * esbuild-options.ts). Lambda always hands a function its role's credentials in the environment
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), valid for the container's life,
 * so the rest of the default chain (SSO, STS web identity, INI files, IMDS, the login flow) never
 * runs there; bundling it costs ~100 KiB per function (`@aws-sdk/nested-clients` and the
 * providers). The local runtime and tests are not bundled and keep the full chain.
 */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}): AwsCredentialIdentityProvider => fromEnv(init);

export const credentialsWillNeedRefresh = (credentials?: { expiration?: Date }) => credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials?: { expiration?: Date }) =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
