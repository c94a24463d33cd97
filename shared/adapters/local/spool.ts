import { mkdirSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomHex } from '../../platform/ids';
import { logger } from '../../platform/logger';

/**
 * Pending messages of the local queue and bus, one JSON file each under the data folder, so a
 * crash (even SIGKILL) never forgets accepted work: a message is on disk before `send`/`publish`
 * returns and leaves only once its handler succeeded. A file is written to a temporary name and
 * renamed, so a kill mid-write leaves the old copy or none, never half of one. Without a folder
 * (`--memory`) nothing is kept, as nothing else is.
 */
export class Spool<T> {
  private readonly dir?: string;
  private readonly deadDir?: string;

  constructor(root: string | undefined, name: string) {
    if (!root) return;
    this.dir = join(root, 'spool', name);
    this.deadDir = join(root, 'spool', `${name}-dead`);
    mkdirSync(this.dir, { recursive: true });
    mkdirSync(this.deadDir, { recursive: true });
  }

  get durable() {
    return !!this.dir;
  }

  /** Writes (or replaces) the entry of `id`; an id of the same work twice keeps one entry. */
  async put(id: string, entry: T): Promise<void> {
    if (!this.dir) return;
    const file = join(this.dir, `${safe(id)}.json`);
    const temp = `${file}.${randomHex(4)}.tmp`;
    await writeFile(temp, JSON.stringify(entry));
    await rename(temp, file);
  }

  async remove(id: string): Promise<void> {
    if (!this.dir) return;
    await rm(join(this.dir, `${safe(id)}.json`), { force: true });
  }

  /** Keeps a message that failed every attempt, as a dead-letter queue would, for inspection. */
  async bury(id: string, entry: T): Promise<void> {
    if (!this.dir || !this.deadDir) return;
    await writeFile(join(this.deadDir, `${safe(id)}.json`), JSON.stringify(entry));
    await this.remove(id);
  }

  /** Every buried entry (a previous run's dead letters), oldest name first. */
  async buried(): Promise<{ id: string; entry: T }[]> {
    if (!this.deadDir) return [];
    const out: { id: string; entry: T }[] = [];
    for (const name of (await readdir(this.deadDir)).sort()) {
      if (!name.endsWith('.json')) continue;
      try {
        out.push({ id: unsafe(name.slice(0, -'.json'.length)), entry: JSON.parse(await readFile(join(this.deadDir, name), 'utf8')) as T });
      } catch {
        // An unreadable file stays where it is, for a person to look at.
      }
    }
    return out;
  }

  /** Brings a dead letter back as pending work: written as pending first, so a crash between keeps it. */
  async unbury(id: string, entry: T): Promise<void> {
    if (!this.deadDir) return;
    await this.put(id, entry);
    await rm(join(this.deadDir, `${safe(id)}.json`), { force: true });
  }

  /** Every pending entry, to resume after a start. Unreadable leftovers of a killed write are dropped. */
  async pending(): Promise<{ id: string; entry: T }[]> {
    if (!this.dir) return [];
    const out: { id: string; entry: T }[] = [];
    for (const name of (await readdir(this.dir)).sort()) {
      const file = join(this.dir, name);
      if (!name.endsWith('.json')) {
        await rm(file, { force: true });
        continue;
      }
      try {
        out.push({ id: unsafe(name.slice(0, -'.json'.length)), entry: JSON.parse(await readFile(file, 'utf8')) as T });
      } catch (error) {
        logger.error('unreadable spooled message set aside', { file, error: error as Error });
        await rename(file, join(this.deadDir!, name)).catch(() => undefined);
      }
    }
    return out;
  }
}

// Ids become file names: keep them portable and reversible.
const safe = (id: string) => encodeURIComponent(id).replace(/\*/g, '%2A').replace(/\./g, '%2E');
const unsafe = (name: string) => decodeURIComponent(name);
