import { Fn } from 'aws-cdk-lib';
import { TableV2, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key, type IKey } from 'aws-cdk-lib/aws-kms';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export const exportName = (stage: string, name: string) => `CreatorCommerce-${stage}-${name}`;

export interface StatefulResources {
  table: ITableV2;
  bucket: IBucket;
  secretsKey: IKey;
}

/** The data stack's resources, imported by their export names. */
export function importStateful(scope: Construct, stage: string): StatefulResources {
  const value = (name: string) => Fn.importValue(exportName(stage, name));
  return {
    table: TableV2.fromTableAttributes(scope, 'ImportedTable', {
      tableArn: value('TableArn'),
      tableStreamArn: value('TableStreamArn'),
      grantIndexPermissions: true,
    }),
    bucket: Bucket.fromBucketAttributes(scope, 'ImportedUploads', { bucketArn: value('BucketArn'), bucketName: value('BucketName') }),
    secretsKey: Key.fromKeyArn(scope, 'ImportedKey', value('KeyArn')),
  };
}
