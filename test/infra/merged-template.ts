import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

/**
 * One template holding the resources of several stacks (the API's core and route stacks, the
 * workers and consumers), for assertions about a whole part whatever stack lib/layout.ts put each
 * piece in. A reference across stacks shows as an import there, as CloudFormation sees it.
 */
export function mergedTemplate(...stacks: Stack[]): Template {
  const Resources: Record<string, unknown> = {};
  const Outputs: Record<string, unknown> = {};
  for (const stack of stacks) {
    const json = Template.fromStack(stack).toJSON();
    for (const [id, resource] of Object.entries(json.Resources ?? {})) {
      if (id in Resources) throw new Error(`${id} is in two stacks`);
      Resources[id] = resource;
    }
    // Cross-stack exports are plumbing, not the outputs a person reads.
    for (const [id, output] of Object.entries(json.Outputs ?? {})) if (!id.startsWith('ExportsOutput')) Outputs[id] = output;
  }
  return Template.fromJSON({ Resources, Outputs }, { skipCyclicalDependenciesCheck: true });
}
