import { Aspects, Validations, type IAspect, type Stack } from 'aws-cdk-lib';
import { CfnPolicy } from 'aws-cdk-lib/aws-iam';
import { rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * Findings of cdk-nag's AwsSolutions pack that are accepted on purpose, each with its reason.
 * Anything not acknowledged here fails synthesis and the infrastructure test.
 */
export const ACKNOWLEDGED: { id: string; reason: string }[] = [
  {
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason: 'Lambda functions use the AWS managed AWSLambdaBasicExecutionRole for CloudWatch Logs, the documented minimum for writing logs.',
  },
  {
    id: 'AwsSolutions-L1',
    reason: 'The service targets the Node.js 22 Lambda runtime on purpose (the LTS it is built and tested for).',
  },
  {
    id: 'AwsSolutions-APIG4',
    reason:
      'Key routes authenticate inside their function (Bearer API key or session token) because an HTTP API authorizer cannot answer the 401 the contract requires; docs, portal, processor ingress and signup embeds are public by design.',
  },
];

// With no environment (offline synth) the region and account are the tokens cdk-nag prints as
// `<AWS::Region>` and `<AWS::AccountId>`; with one they are literals. Either, never anything else.
const REGION = '(?:[a-z0-9-]+|<AWS::Region>)';
const ACCOUNT = '(?:\\d{12}|<AWS::AccountId>)';

/**
 * The wildcard permissions CDK grants produce, and why each is acceptable. A wildcard that matches
 * none of these is still reported, so a careless grant cannot slip through.
 */
export const EXPECTED_WILDCARDS: { pattern: RegExp; reason: string }[] = [
  { pattern: /^Resource::\*$/, reason: 'X-Ray trace writes (xray:PutTraceSegments, PutTelemetryRecords) only accept Resource *.' },
  { pattern: /^Resource::CreatorCommerce-[^-]+-TableArn\/index\/\*$/, reason: "Queries on the single table's own global secondary indexes." },
  { pattern: /^Resource::CreatorCommerce-[^-]+-BucketArn\/\*$/, reason: 'Objects of the uploads bucket, and only that bucket.' },
  {
    pattern: /^Action::s3:(GetObject|GetBucket|List|DeleteObject|Abort)\*$/,
    reason: 'Object action families of grantReadWrite, scoped to the uploads bucket.',
  },
  { pattern: /^Action::kms:(GenerateDataKey|ReEncrypt)\*$/, reason: 'Data-key actions of grantEncryptDecrypt, scoped to the one secrets key.' },
  {
    pattern: new RegExp(`^Resource::arn:<AWS::Partition>:scheduler:${REGION}:${ACCOUNT}:schedule/creator-commerce-[^/]+/\\*$`),
    reason: "One-time timers inside this stage's schedule group only.",
  },
  {
    pattern: /^Resource::<SellerDashboardBucket[0-9A-F]{8}\.Arn>\/\*$/,
    reason: "The dashboard deployment writes the app's files into its own bucket, and only that bucket.",
  },
  {
    pattern: new RegExp(`^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-${ACCOUNT}-${REGION}/\\*$`),
    reason: 'The dashboard deployment reads the built app from the CDK bootstrap assets bucket.',
  },
  {
    pattern: new RegExp(`^Resource::arn:<AWS::Partition>:ses:${REGION}:${ACCOUNT}:identity/\\*$`),
    reason: 'Sending mail from any verified SES identity of this account (the creator chooses the sender).',
  },
];

class AcknowledgeExpectedWildcards implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnPolicy)) return;
    const findings = rules.iam.IAMNoWildcardPermissions(node);
    if (!Array.isArray(findings)) return;
    for (const finding of findings) {
      const expected = EXPECTED_WILDCARDS.find((w) => w.pattern.test(finding));
      if (expected) Validations.of(node).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason: expected.reason });
    }
  }
}

export function applyNagSuppressions(stack: Stack): void {
  for (const entry of ACKNOWLEDGED) Validations.of(stack).acknowledge(entry);
  Aspects.of(stack).add(new AcknowledgeExpectedWildcards());
}
