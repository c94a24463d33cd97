import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SecretsPort } from '../../platform/ports';
import type { SecretSetting } from '../../platform/settings';

/** Where the local runtime keeps the secrets it generated, in its data folder. */
export const SECRETS_FILE = 'secrets.json';

/**
 * Secrets Manager stand-in. A secret's value is, in order: the environment's value (its
 * `variable`), the setting's fixed local value (the sandbox's documented signing secret), or one
 * generated on first need and kept in the data folder (`secrets.json`, mode 0600), or for the
 * process when there is none (--memory). So `npm start` needs no environment at all, and sessions
 * stay valid across restarts of a data folder.
 */
export class LocalSecrets implements SecretsPort {
  private values?: Promise<Record<string, string>>;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly environment: Record<string, string | undefined>,
    private readonly file?: string,
  ) {}

  private load(): Promise<Record<string, string>> {
    this.values ??= this.file
      ? readFile(this.file, 'utf8').then(
          (text) => JSON.parse(text) as Record<string, string>,
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') return {};
            throw new Error(`Could not read ${this.file}: ${error.message}`);
          },
        )
      : Promise.resolve({});
    return this.values;
  }

  async get(setting: SecretSetting): Promise<string> {
    const given = this.environment[setting.variable];
    if (given) return given;
    if (setting.localValue) return setting.localValue;
    const values = await this.load();
    const kept = values[setting.name];
    if (kept) return kept;
    // Generated once: concurrent first needs share the write, and the first value wins.
    this.writing = this.writing.then(async () => {
      if (values[setting.name]) return;
      values[setting.name] = randomBytes(32).toString('base64url');
      if (!this.file) return;
      await mkdir(dirname(this.file), { recursive: true });
      await writeFile(`${this.file}.tmp`, JSON.stringify(values, null, 2), { mode: 0o600 });
      await rename(`${this.file}.tmp`, this.file);
    });
    await this.writing;
    return values[setting.name]!;
  }
}
