import { Duration } from 'aws-cdk-lib';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import type { App } from '../../shared/composition/assemble';
import { ESBUILD_OPTIONS } from '../../shared/composition/esbuild-options';
import { writeFunctionEntry, type FunctionKind } from '../../shared/composition/function-entries';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

export interface ServiceFunctionProps extends Partial<NodejsFunctionProps> {
  /** The kind of function: `api`, `consumer`, `queue`, `jobs`, `stream-dispatcher`. */
  entryName: FunctionKind;
  /** The app whose manifests the function's entry is generated from. */
  app: App;
  /** Which API group, consumer or queue of the app this function runs (its APP_FUNCTION). */
  appFunction?: string;
  environment?: Record<string, string>;
}

/**
 * Every Lambda of the service is built the same way: Node.js 22 on ARM64, an ESM bundle made by
 * esbuild from an entry generated for this one function (shared/composition/function-entries.ts:
 * only its capability, the AWS clients its needs name), JSON logs, X-Ray tracing, and a log group
 * with a retention. `-c tracing=off` deploys without X-Ray, and then no bundle carries the tracer.
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const { entryName, appFunction, app, environment, bundling, ...rest } = props;
    const tracing = scope.node.tryGetContext('tracing') !== 'off';
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
    super(scope, id, {
      entry: writeFunctionEntry(app, { kind: entryName, appFunction }, { tracing }),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(15),
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
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
        target: ESBUILD_OPTIONS.target,
        minify: ESBUILD_OPTIONS.minify,
        sourceMap: true,
        mainFields: ESBUILD_OPTIONS.mainFields,
        externalModules: [],
        banner: ESBUILD_OPTIONS.banner.js,
        esbuildArgs: Object.fromEntries(Object.entries(ESBUILD_OPTIONS.alias).map(([from, to]) => [`--alias:${from}`, to])),
        ...bundling,
      },
      ...rest,
    });
  }
}
