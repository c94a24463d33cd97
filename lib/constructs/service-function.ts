import { Duration } from 'aws-cdk-lib';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

export interface ServiceFunctionProps extends Partial<NodejsFunctionProps> {
  /** The entry below functions/, without extension: `api`, `consumer`, `queue`, `jobs`, `stream-dispatcher`. */
  entryName: string;
  /** Which API group, consumer or queue of the app this function runs (its APP_FUNCTION). */
  appFunction?: string;
  environment?: Record<string, string>;
}

/**
 * Every Lambda of the service is built the same way: Node.js 22 on ARM64, an ESM bundle made by
 * esbuild (minified, AWS SDK v3 bundled so only the clients used ship), JSON logs, X-Ray tracing,
 * and a log group with a retention.
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const { entryName, appFunction, environment, bundling, ...rest } = props;
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
    super(scope, id, {
      entry: join(PROJECT_ROOT, 'functions', `${entryName}.ts`),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(15),
      tracing: Tracing.ACTIVE,
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'creator-commerce',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...environment,
        ...(appFunction ? { APP_FUNCTION: appFunction } : {}),
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        externalModules: [],
        // ESM bundles of CommonJS dependencies still call require(); give them one.
        banner: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
        ...bundling,
      },
      ...rest,
    });
  }
}
