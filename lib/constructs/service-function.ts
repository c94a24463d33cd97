import { Duration } from 'aws-cdk-lib';
import { Architecture, Function as LambdaFunction, LoggingFormat, Runtime, Tracing, type FunctionProps } from 'aws-cdk-lib/aws-lambda';
import type { App } from '../../shared/composition/assemble';
import { functionSettings, writeFunctionEntry, type FunctionKind } from '../../shared/composition/function-entries';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { join } from 'node:path';
import { bundledCode, type PackagedFile } from './function-code';
import type { DeploySettings } from './settings';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

export interface ServiceFunctionProps extends Partial<Omit<FunctionProps, 'code' | 'handler' | 'runtime'>> {
  /** The kind of function: `api`, `consumer`, `queue`, `jobs`, `stream-dispatcher`, `render`. */
  entryName: FunctionKind;
  /** The app whose manifests the function's entry is generated from. */
  app: App;
  /** Which API group, consumer or queue of the app this function runs (its APP_FUNCTION). */
  appFunction?: string;
  environment?: Record<string, string>;
  /** Files the function serves from its package, beside the bundle. */
  packagedFiles?: PackagedFile[];
  /** The deployment's settings: the function is given exactly those its manifests declare. */
  settings?: DeploySettings;
}

/**
 * Every Lambda of the service is built the same way: Node.js 22 on ARM64, an ESM bundle made by
 * esbuild (function-code.ts) from an entry generated for this one function (shared/composition/function-entries.ts:
 * only its capability, the AWS clients its needs name), JSON logs, X-Ray tracing, and a log group
 * with a retention. `-c tracing=off` deploys without X-Ray, and then no bundle carries the tracer.
 */
export class ServiceFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const { entryName, appFunction, app, environment, packagedFiles, settings, ...rest } = props;
    const tracing = scope.node.tryGetContext('tracing') !== 'off';
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
    super(scope, id, {
      code: bundledCode(PROJECT_ROOT, writeFunctionEntry(app, { kind: entryName, appFunction }, { tracing }), packagedFiles),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(15),
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      environment: {
        POWERTOOLS_SERVICE_NAME: 'creator-commerce',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...environment,
        ...(appFunction ? { APP_FUNCTION: appFunction } : {}),
      },
      ...rest,
    });
    const declared = functionSettings(app, { kind: entryName, appFunction });
    if (declared.length && !settings)
      throw new Error(`${id} needs the settings ${declared.map((s) => s.name).join(', ')}, and was built without the deployment's settings`);
    settings?.give(this, declared);
  }
}
