/** A synthesized CloudFormation template, as far as resolving values goes. */
export interface CfnTemplate {
  Resources: Record<string, { Type: string; Properties: Record<string, any>; Metadata?: Record<string, unknown> }>;
  Outputs?: Record<string, { Value: unknown; Export?: { Name: string } }>;
}

export interface ResolveContext {
  /** Every stack of the app: a cross-stack import is resolved in the template that exports it. */
  templates: CfnTemplate[];
  /** Export values given outright (the data stack's table, bucket and key, pinned to test resources). */
  exports: Record<string, string>;
  region: string;
  account: string;
  /** The template the value is in (its Refs and GetAtts name its resources). */
  stackOf: CfnTemplate;
}

const serviceOf: Record<string, string> = {
  'AWS::SQS::Queue': 'sqs',
  'AWS::SNS::Topic': 'sns',
  'AWS::Events::EventBus': 'events',
  'AWS::Lambda::Function': 'lambda',
  'AWS::DynamoDB::GlobalTable': 'dynamodb',
  'AWS::KMS::Key': 'kms',
};

/**
 * Resolves a template value's intrinsic functions as CloudFormation would at deploy time, with
 * physical names made from logical ids (a queue's URL, a secret's ARN, a role's ARN): what a
 * function's environment holds once deployed, for a test that runs the function with it.
 */
export function resolveIntrinsics(value: unknown, context: ResolveContext): unknown {
  const { region, account } = context;
  const resolve = (v: unknown, stack: CfnTemplate): unknown => {
    if (Array.isArray(v)) return v.map((x) => resolve(x, stack));
    if (!v || typeof v !== 'object') return v;
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length !== 1) return Object.fromEntries(entries.map(([k, x]) => [k, resolve(x, stack)]));
    const [fn, arg] = entries[0]!;
    switch (fn) {
      case 'Ref':
        return ref(arg as string, stack);
      case 'Fn::GetAtt': {
        const [id, attribute] = arg as [string, string];
        return getAtt(id, attribute, stack);
      }
      case 'Fn::Join': {
        const [separator, parts] = arg as [string, unknown[]];
        return (resolve(parts, stack) as unknown[]).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = arg as [number | string, unknown];
        return (resolve(list, stack) as unknown[])[Number(resolve(index, stack))];
      }
      case 'Fn::Split': {
        const [separator, text] = arg as [string, unknown];
        return String(resolve(text, stack)).split(separator);
      }
      case 'Fn::Sub':
        return String(typeof arg === 'string' ? arg : (arg as [string])[0]).replace(/\$\{([^}]+)\}/g, (_, name: string) =>
          String(name.includes('.') ? getAtt(name.split('.')[0]!, name.split('.')[1]!, stack) : ref(name, stack)),
        );
      case 'Fn::ImportValue': {
        const name = resolve(arg, stack) as string;
        if (name in context.exports) return context.exports[name];
        for (const template of context.templates) {
          const output = Object.values(template.Outputs ?? {}).find((o) => o.Export?.Name === name);
          if (output) return resolve(output.Value, template);
        }
        throw new Error(`No stack exports ${name}`);
      }
      default:
        return Object.fromEntries(entries.map(([k, x]) => [k, resolve(x, stack)]));
    }
  };
  const ref = (id: string, stack: CfnTemplate): string => {
    const pseudo: Record<string, string> = {
      'AWS::Region': region,
      'AWS::AccountId': account,
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::Partition': 'aws',
      'AWS::StackName': 'stack',
    };
    if (pseudo[id]) return pseudo[id]!;
    const resource = stack.Resources[id];
    if (!resource) throw new Error(`Ref to ${id}, which the template does not have`);
    switch (resource.Type) {
      case 'AWS::SQS::Queue':
        return `https://sqs.${region}.amazonaws.com/${account}/${resource.Properties.QueueName ?? id}`;
      case 'AWS::SecretsManager::Secret':
        return `arn:aws:secretsmanager:${region}:${account}:secret:${id}-AbCdEf`;
      case 'AWS::SNS::Topic':
        return `arn:aws:sns:${region}:${account}:${id}`;
      default:
        return String(resource.Properties?.Name ?? resource.Properties?.FunctionName ?? resource.Properties?.RoleName ?? id);
    }
  };
  const getAtt = (id: string, attribute: string, stack: CfnTemplate): string => {
    const resource = stack.Resources[id];
    if (!resource) throw new Error(`GetAtt of ${id}, which the template does not have`);
    if (attribute === 'Arn') {
      if (resource.Type === 'AWS::IAM::Role') return `arn:aws:iam::${account}:role/${id}`;
      return `arn:aws:${serviceOf[resource.Type] ?? resource.Type.split('::')[1]!.toLowerCase()}:${region}:${account}:${ref(id, stack).replace(/^https:\/\/.*\//, '')}`;
    }
    if (attribute === 'QueueUrl') return ref(id, stack);
    if (attribute === 'ApiEndpoint') return `https://${id.toLowerCase()}.execute-api.${region}.amazonaws.com`;
    if (attribute === 'DomainName') return `${id.toLowerCase()}.cloudfront.net`;
    return `${id}.${attribute}`;
  };
  return resolve(value, context.stackOf);
}
