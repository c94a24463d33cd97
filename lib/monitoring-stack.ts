import { Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { OperationsDashboard } from './constructs/dashboard';
import type { JobsStack } from './jobs-stack';
import type { WorkersStack } from './workers-stack';

export interface MonitoringStackProps extends StackProps {
  stage: string;
  api: HttpApi;
  apiFunctions: { name: string; fn: IFunction }[];
  consumerFunctions: IFunction[];
  workers: WorkersStack;
  jobs: JobsStack;
}

/** The stage's operations dashboard: it graphs every other stack, so it comes after them all. */
export class MonitoringStack extends Stack {
  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    const { workers, jobs } = props;
    new OperationsDashboard(this, 'Operations', {
      stage: props.stage,
      api: props.api,
      apiFunctions: props.apiFunctions,
      workerFunctions: [...workers.functions, ...props.consumerFunctions, ...jobs.functions].map((fn) => ({ name: fn.node.id, fn })),
      streamDispatcher: workers.streamDispatcher,
      queues: [
        ...[...workers.queues].map(([name, queue]) => ({ name, queue })),
        { name: 'jobs', queue: workers.jobsQueue },
        ...[...jobs.queues].map(([name, queue]) => ({ name: `jobs:${name}`, queue })),
      ],
      deadLetterQueues: [...workers.deadLetterQueues, ...jobs.deadLetterQueues],
      tableName: workers.tableName,
    });
  }
}
