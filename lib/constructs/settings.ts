import { CfnOutput, Validations } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { App } from '../../shared/composition/assemble';
import { allSettings, secretsOf, valuesOf } from '../../shared/composition/function-settings';
import { secretArnVariable, type Setting, type ValueSetting } from '../../shared/platform/settings';

/** A setting's construct id and output name: `sessionSecret` -> `SessionSecret`. */
const idOf = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;

/**
 * The deploy settings a value setting takes from (`-c <context>=...`), checked: a missing or
 * malformed one stops synth with what to pass, before anything is built.
 */
export function requireDeployValues(app: App, given: Record<string, string | undefined>): Record<string, string> {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const setting of valuesOf(allSettings(app))) {
    const value = given[setting.context]?.trim();
    if (!value) {
      problems.push(`-c ${setting.context}=... is required: ${setting.summary} (e.g. npx cdk deploy --all -c ${setting.context}=${example(setting)})`);
      continue;
    }
    const problem = setting.check?.(value);
    if (problem) problems.push(problem);
    else values[setting.name] = value;
  }
  if (problems.length) throw new Error(`Missing deploy settings:\n  ${problems.join('\n  ')}`);
  return values;
}

const example = (setting: ValueSetting) => (setting.context === 'senderEmail' ? 'no-reply@yourdomain.com' : '<value>');

/**
 * Every setting of the app, made once per deployment: each secret a Secrets Manager secret whose
 * value CloudFormation generates at deploy time (it is in no template, no environment and no
 * repository), encrypted with the stack's key; each value as the deploy gave it. `give` hands a
 * function exactly the settings it declares: a secret's ARN as `<variable>_ARN` and read access to
 * that secret alone, a value as its environment variable.
 */
export class DeploySettings extends Construct {
  readonly secrets = new Map<string, Secret>();

  constructor(
    scope: Construct,
    id: string,
    private readonly props: { app: App; values: Record<string, string>; key: IKey; stage: string },
  ) {
    super(scope, id);
    for (const setting of secretsOf(allSettings(props.app))) {
      const secret = new Secret(this, idOf(setting.name), {
        description: `creator-commerce ${props.stage}: ${setting.summary}`,
        encryptionKey: props.key,
        generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      });
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'A generated HMAC key with no external party to coordinate with: it is rotated by putting a new random value (README, Secrets), which functions read within their cache time; no rotation Lambda is needed.',
      });
      this.secrets.set(setting.name, secret);
      new CfnOutput(scope, `${idOf(setting.name)}Arn`, {
        value: secret.secretArn,
        description: `ARN of the ${setting.name} secret (${setting.summary}); rotate it with put-secret-value (README, Secrets)`,
      });
    }
  }

  /** Gives the function these settings (and nothing else of them). */
  give(fn: LambdaFunction, settings: Setting[]): void {
    for (const setting of settings) {
      if (setting.kind === 'secret') {
        const secret = this.secrets.get(setting.name);
        if (!secret) throw new Error(`No secret made for the setting ${setting.name}`);
        fn.addEnvironment(secretArnVariable(setting), secret.secretArn);
        secret.grantRead(fn);
      } else {
        const value = this.props.values[setting.name];
        if (value === undefined) throw new Error(`No deploy value for the setting ${setting.name} (-c ${setting.context}=...)`);
        fn.addEnvironment(setting.variable, value);
      }
    }
  }
}
