import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest file first, across every project: with two workers, the run ends when the last long
 * file does, and the default order (project by project, larger files first on a clean clone with
 * no timing cache) left a two-minute file starting 15 minutes in while the other worker sat idle.
 * Durations come from a full run (test/support/file-durations.json, refreshed by
 * scripts/test-durations.mjs); a file not listed yet goes first, then by the base order.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  private durations?: Record<string, number>;

  private known(): Record<string, number> {
    if (!this.durations) {
      try {
        this.durations = JSON.parse(readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8')) as Record<string, number>;
      } catch {
        this.durations = {};
      }
    }
    return this.durations;
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const durations = this.known();
    const rank = new Map(base.map((spec, index) => [spec, index]));
    const duration = (spec: TestSpecification) => durations[relative(this.ctx.config.root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return base.sort((a, b) => duration(b) - duration(a) || rank.get(a)! - rank.get(b)!);
  }
}
