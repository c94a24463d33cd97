import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { exportName } from './constructs/shared-resources';
import { AttributeType, Billing, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { TABLE } from '../shared/store/table';

/**
 * The stateful resources, apart from everything stateless so those can be replaced freely:
 * the single table (from the same definition the local runtime uses), the uploads bucket and the
 * key for secrets at rest.
 */
export class DataStack extends Stack {
  readonly table: TableV2;
  readonly bucket: Bucket;
  readonly key: Key;

  constructor(scope: Construct, id: string, props: StackProps & { stage: string }) {
    super(scope, id, props);
    const retain = props.stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.key = new Key(this, 'SecretsKey', {
      description: 'Creator Commerce: webhook secrets, third-party tokens, uploads',
      enableKeyRotation: true,
      removalPolicy: retain,
    });

    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      timeToLiveAttribute: TABLE.ttlAttribute,
      dynamoStream: StreamViewType.NEW_IMAGE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.stage === 'prod',
      removalPolicy: retain,
      globalSecondaryIndexes: TABLE.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      })),
    });

    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      removalPolicy: retain,
      autoDeleteObjects: retain === RemovalPolicy.DESTROY,
    });

    this.bucket = new Bucket(this, 'Uploads', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.KMS,
      encryptionKey: this.key,
      bucketKeyEnabled: true,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'uploads/',
      // Sellers' browsers PUT large product files' parts to presigned URLs (the signature is the
      // authority, so any origin) and read each part's ETag to complete the upload.
      cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['*'], exposedHeaders: ['ETag'], maxAge: 3000 }],
      lifecycleRules: [
        // Parts of an upload never completed would be stored (and billed) for ever.
        { id: 'abort-unfinished-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // A buyer's data export (shared/privacy) is read through a link valid 15 minutes: it goes
        // the next day, old versions too.
        { id: 'buyer-exports', prefix: 'exports/', expiration: Duration.days(1), noncurrentVersionExpiration: Duration.days(1) },
      ],
      removalPolicy: retain,
      autoDeleteObjects: retain === RemovalPolicy.DESTROY,
    });

    // Named exports: the stateless stacks import these by name, so the stateful stack never has to
    // change when they do, and their IAM policies name stable resources.
    const exported = {
      TableArn: this.table.tableArn,
      TableStreamArn: this.table.tableStreamArn!,
      BucketArn: this.bucket.bucketArn,
      BucketName: this.bucket.bucketName,
      KeyArn: this.key.keyArn,
    };
    for (const [name, value] of Object.entries(exported)) new CfnOutput(this, name, { value, exportName: exportName(props.stage, name) });
    // What the README's deploy steps ask for (npm run admin -- --table <TableName> --region <Region>).
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single table (admin CLI --table)' });
    new CfnOutput(this, 'Region', { value: this.region, description: 'Region of the stage (admin CLI --region)' });
  }
}
