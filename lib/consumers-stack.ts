import { Stack, type StackProps } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { App } from '../shared/composition/assemble';
import type { AccessNeed } from '../shared/platform/capability';
import { grantNeeds } from './constructs/access';
import { watchFunction } from './constructs/monitoring';
import { consumerFunctionName } from './layout';
import { ServiceFunction } from './constructs/service-function';
import type { WorkersStack } from './workers-stack';

export interface ConsumersStackProps extends StackProps {
  stage: string;
  app: App;
  workers: WorkersStack;
}

/**
 * The bus consumers' functions, one each from the manifests. Their rules and dead-letter queues
 * stay in the workers stack (the queues hold events, and a rule moved between stacks would miss
 * events during the deploy), targeting each function by its name; this stack holds nothing
 * stateful and can grow (lib/layout.ts).
 */
export class ConsumersStack extends Stack {
  readonly functions: ServiceFunction[] = [];

  constructor(scope: Construct, id: string, props: ConsumersStackProps) {
    super(scope, id, props);
    const { app, workers } = props;
    const consumers = [
      ...app.consumers.map((c) => ({ name: c.name, kind: 'consumer' as const, needs: c.needs })),
      ...app.externalConsumers.map((c) => ({ name: c.name, kind: 'external-consumer' as const, needs: c.needs })),
    ];
    for (const consumer of consumers) {
      const fn = new ServiceFunction(this, `Consumer-${consumer.name}`, {
        entryName: consumer.kind,
        appFunction: consumer.name,
        app,
        environment: workers.serviceEnvironment,
        settings: workers.settings,
        functionName: consumerFunctionName(props.stage, consumer.name),
      });
      grantNeeds(fn, (consumer.needs ?? ['table']) as AccessNeed[], workers.resources);
      watchFunction(fn, workers.alarmTopic);
      // Invoked by its rule in the workers stack (any rule of this account and region by ARN: the
      // rule's own ARN is in the other stack, which may not depend on this one).
      fn.addPermission('InvokedByRule', {
        principal: new ServicePrincipal('events.amazonaws.com'),
        sourceArn: this.formatArn({ service: 'events', resource: 'rule', resourceName: '*' }),
      });
      this.functions.push(fn);
    }
  }
}
