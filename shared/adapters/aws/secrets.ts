import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SecretsPort } from '../../platform/ports';
import { secretArnVariable, type SecretSetting } from '../../platform/settings';
import { lazily, type AwsPortEnv } from './env';

/**
 * How long a container keeps a secret it read. The first need reads it; later ones take it from
 * Powertools' cache, so a warm container makes no Secrets Manager call. A rotated value (README,
 * "Secrets") is in use everywhere once this much time has passed.
 */
export const SECRET_CACHE_SECONDS = 15 * 60;

/**
 * Secrets Manager through Powertools Parameters. The function's environment holds each secret's
 * ARN (`<variable>_ARN`), never its value; the CDK grants read access only to the functions whose
 * capabilities declare the setting, so a function that was not given one fails here, saying so.
 */
export function awsSecretsPort(env: AwsPortEnv): SecretsPort {
  const provider = lazily(() => new SecretsProvider({ awsSdkV3Client: new SecretsManagerClient({ region: env.config.AWS_REGION }) }));
  const environment = env.environment ?? process.env;
  return {
    async get(setting: SecretSetting) {
      const arn = environment[secretArnVariable(setting)];
      if (!arn)
        throw new Error(
          `This function was not given the ${setting.name} secret (${secretArnVariable(setting)} is unset): its capability manifest must declare it in \`settings\``,
        );
      const value = await provider().get(arn, { maxAge: SECRET_CACHE_SECONDS });
      if (typeof value !== 'string' || !value) throw new Error(`The ${setting.name} secret (${arn}) has no string value`);
      return value;
    },
  };
}
