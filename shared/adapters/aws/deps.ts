import { loadConfig } from '../../platform/config';
import type { Deps } from '../../platform/context';
import { awsDeps } from './index';

let deps: Deps | undefined;

/** Dependencies of a Lambda function, built once per container on first use. */
export const lambdaDeps = (): Deps => (deps ??= awsDeps(loadConfig()));
