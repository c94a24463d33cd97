import { TEST_DEPLOY_SETTINGS } from '../support/deploy-settings';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../lib/app';
import logicalIds from './fixtures/logical-ids.json';

const newApp = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const env = { account: '123456789012', region: 'eu-west-1' };
type Resource = { Type: string; Properties: Record<string, any> };

let root: string;
let built: Template;
/** An API route stack of the same build: its functions carry the dashboard's address. */
let routes: Template;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dashboard-infra-'));
  await mkdir(join(root, 'dist', 'assets'), { recursive: true });
  await writeFile(join(root, 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(root, 'dist', 'assets', 'index-AbC12345.js'), 'console.log(1)');
  const stacks = buildStacks(newApp(), { stage: 'prod', settings: TEST_DEPLOY_SETTINGS, env, dashboardDist: join(root, 'dist') });
  built = Template.fromStack(stacks.api);
  routes = Template.fromStack(stacks.apiCommerce);
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('dashboard hosting', () => {
  it('keeps the app in a private, encrypted, TLS-only bucket that CloudFront reads through Origin Access Control', () => {
    built.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [Match.objectLike({ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } })] },
    });
    built.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    built.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' }),
    });
    const policies = Object.values(built.findResources('AWS::S3::BucketPolicy')) as Resource[];
    const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
    expect(
      statements.some(
        (s) => s.Principal?.Service === 'cloudfront.amazonaws.com' && s.Action === 's3:GetObject' && s.Condition?.StringEquals?.['AWS:SourceArn'],
      ),
    ).toBe(true);
    expect(statements.some((s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false')).toBe(true);
  });

  it('serves over HTTPS with strict security headers and a CSP without third-party origins', () => {
    built.resourceCountIs('AWS::CloudFront::Distribution', 1);
    built.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          ResponseHeadersPolicyId: Match.anyValue(),
          FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
          Compress: true,
        }),
      }),
    });
    const [policy] = Object.values(built.findResources('AWS::CloudFront::ResponseHeadersPolicy')) as Resource[];
    const security = policy!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(security.ReferrerPolicy).toEqual({ ReferrerPolicy: 'no-referrer', Override: true });
    expect(security.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31536000, IncludeSubdomains: true, Override: true });
    // The CSP is the local runtime's, with the API's own origin (a reference to the HTTP API) added to connect-src.
    const csp = JSON.stringify(security.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain('connect-src');
    expect(csp).toMatch(/ApiF70053CD|Api[0-9A-F]{8}/);
    expect(csp).not.toMatch(/https?:\/\/(?!\$)/);
  });

  it('sends client routes to index.html and deploys the build with config.json naming the API', () => {
    const [fn] = Object.values(built.findResources('AWS::CloudFront::Function')) as Resource[];
    expect(fn!.Properties.FunctionCode).toContain("'/dashboard/index.html'");
    const deployments = Object.values(built.findResources('Custom::CDKBucketDeployment')) as Resource[];
    expect(deployments).toHaveLength(3);
    for (const d of deployments) expect(d.Properties.DestinationBucketKeyPrefix).toBe('dashboard/');
    const entry = deployments.find((d) => d.Properties.DistributionPaths)!;
    expect(entry.Properties.DistributionPaths).toEqual(['/dashboard/index.html', '/dashboard/config.json']);
    // config.json is written at deploy time with the API's endpoint (a marker the deployment fills in).
    expect(JSON.stringify(entry.Properties.SourceMarkers)).toContain('"ApiEndpoint"');
    expect(entry.Properties.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    const assets = deployments.find((d) => JSON.stringify(d.Properties.Include ?? []).includes('assets/*'))!;
    expect(assets.Properties.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    // The API's sign-in links point at the distribution (imported from this stack by the route stacks).
    const functions = Object.values(routes.findResources('AWS::Lambda::Function')) as Resource[];
    expect(functions.some((f) => JSON.stringify(f.Properties.Environment?.Variables?.DASHBOARD_URL ?? '').includes('DomainName'))).toBe(true);
  });

  it('synthesises the same resources with a build as the pinned ids (made without one), so the stack never depends on the working tree', () => {
    // The architecture test synthesises without dashboard/dist (a page saying how to build it is
    // deployed instead) and pins the ids; cdk-nag runs on that build in stacks.test.ts.
    const types = Object.fromEntries(Object.entries(built.toJSON().Resources as Record<string, Resource>).map(([id, r]) => [id, r.Type]));
    expect(types).toEqual((logicalIds as Record<string, Record<string, string>>).api);
  });
});
