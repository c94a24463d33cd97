import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { PROJECT_ROOT } from '../../shared/composition/function-entries';
import { cacheControl, contentSecurityPolicy, dashboardConfig, securityHeaders } from '../../shared/dashboard/hosting';

export interface DashboardHostingProps {
  /** The API's base address (API Gateway), written into config.json and allowed by connect-src. */
  apiUrl: string;
  /** The built app; default dashboard/dist. When absent, a page saying how to build it is deployed. */
  distDir?: string;
}

/** What a browser sees when the stack was deployed before `npm run dashboard:build`. */
const NOT_BUILT_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Dashboard not built</title>' +
  '<p>The dashboard was not built when this stack was deployed: run <code>npm run dashboard:build</code>, then deploy again.</p></html>';

/**
 * Client routes (`/dashboard/products/new`: no file extension) get the app's index.html, the way the
 * local runtime answers them; `/` goes to the app. A viewer-request function, so a missing asset is
 * still a 404 and never an HTML page typed as a script.
 */
const ROUTER_CODE = `function handler(event) {
  var uri = event.request.uri;
  if (uri === '/' || uri === '/dashboard') return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: '/dashboard/' } } };
  if (uri.indexOf('/dashboard/') === 0) {
    var last = uri.substring(uri.lastIndexOf('/') + 1);
    if (last.indexOf('.') === -1) event.request.uri = '/dashboard/index.html';
  }
  return event.request;
}`;

/**
 * The seller dashboard in AWS: a private bucket that only this distribution reads (Origin Access
 * Control), CloudFront with strict security headers (the same CSP as the local runtime, allowing
 * only the API's origin beyond its own), the app under /dashboard/ and config.json naming the API.
 */
export class DashboardHosting extends Construct {
  readonly distribution: Distribution;
  readonly bucket: Bucket;
  /** Where the app is reached (sign-in links point at `${url}/sign-in`). */
  readonly url: string;

  constructor(scope: Construct, id: string, props: DashboardHostingProps) {
    super(scope, id);
    const dist = props.distDir ?? join(PROJECT_ROOT, 'dashboard', 'dist');
    const built = existsSync(join(dist, 'index.html'));

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Kept on stack deletion like the other buckets (no extra custom resource to empty it).
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const apiOrigin = props.apiUrl;
    const headers = securityHeaders(apiOrigin);
    const headersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Seller dashboard: strict CSP (own origin and the API only), no framing, no referrer',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy(apiOrigin), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Cross-Origin-Opener-Policy', value: headers['cross-origin-opener-policy']!, override: true },
          { header: 'Permissions-Policy', value: headers['permissions-policy']!, override: true },
        ],
      },
    });

    const router = new CloudFrontFunction(this, 'Router', {
      code: FunctionCode.fromInline(ROUTER_CODE),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Dashboard client routes to index.html',
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Seller dashboard',
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headersPolicy,
        compress: true,
        functionAssociations: [{ function: router, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}/dashboard`;

    // Three deployments, each with the cache rule of its files (hosting.ts), none pruning the others'
    // (old hashed assets stay for pages still open). The same resources exist with or without a
    // build, so the stack's shape never depends on the working tree.
    const app: ISource[] = built ? [Source.asset(dist)] : [Source.data('index.html', NOT_BUILT_PAGE)];
    const deploy = (name: string, sources: ISource[], filter: { include?: string[]; exclude?: string[] }, cache: string, invalidate?: string[]) =>
      new BucketDeployment(this, name, {
        sources,
        destinationBucket: this.bucket,
        destinationKeyPrefix: 'dashboard/',
        prune: false,
        ...filter,
        cacheControl: [CacheControl.fromString(cache)],
        ...(invalidate ? { distribution: this.distribution, distributionPaths: invalidate } : {}),
        memoryLimit: 512,
      });
    deploy('DeployAssets', app, { exclude: ['*'], include: ['assets/*'] }, cacheControl('/dashboard/assets/index-0123456789.js'));
    deploy('DeployFiles', app, { exclude: ['assets/*', 'index.html', 'config.json'] }, cacheControl('/dashboard/favicon.svg'));
    deploy(
      'DeployEntry',
      [...app, Source.jsonData('config.json', dashboardConfig(props.apiUrl))],
      { exclude: ['*'], include: ['index.html', 'config.json'] },
      cacheControl('/dashboard/index.html'),
      ['/dashboard/index.html', '/dashboard/config.json'],
    );

    new CfnOutput(this, 'Url', { value: this.url, description: 'The seller dashboard' });

    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-S1',
        reason: 'The dashboard bucket holds only the public build of the app, read by CloudFront alone; object access logs would record nothing of value.',
      },
      { id: 'AwsSolutions-CFR1', reason: 'Sellers and their teams sign in from anywhere; no geographic restriction applies.' },
      { id: 'AwsSolutions-CFR2', reason: 'The distribution serves static files only; the API it talks to has its own throttling and per-account limits.' },
      { id: 'AwsSolutions-CFR3', reason: 'Static files only; standard logging would need an ACL-enabled bucket for little value (the API keeps access logs).' },
      {
        id: 'AwsSolutions-CFR4',
        reason: 'The default CloudFront certificate is used until a custom domain is configured; the minimum protocol is set to TLSv1.2_2021 for when one is.',
      },
    );
  }
}
