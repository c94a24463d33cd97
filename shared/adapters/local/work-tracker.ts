/**
 * Counts work in flight in the local runtime, so `POST /_local/settle` can wait for quiet. Each
 * piece of work carries a label (the queue and job, the event and consumer), so a settle that
 * cannot finish can say what it is waiting for.
 */
export class WorkTracker {
  private active = 0;
  private waiters: (() => void)[] = [];
  private readonly labels = new Map<string, number>();

  async run<T>(label: string, fn: () => Promise<T>): Promise<T> {
    const done = this.begin(label);
    try {
      return await fn();
    } finally {
      done();
    }
  }

  begin(label: string): () => void {
    this.active++;
    this.labels.set(label, (this.labels.get(label) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.active--;
      const left = (this.labels.get(label) ?? 1) - 1;
      if (left > 0) this.labels.set(label, left);
      else this.labels.delete(label);
      if (this.active === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  get busy() {
    return this.active > 0;
  }

  /** What is in flight now, for a settle's timeout message: `label ×count`, the most frequent first. */
  describe(limit = 8): string {
    const entries = [...this.labels].sort((a, b) => b[1] - a[1]);
    const shown = entries.slice(0, limit).map(([label, n]) => (n > 1 ? `${label} ×${n}` : label));
    return entries.length > limit ? `${shown.join(', ')} and ${entries.length - limit} more` : shown.join(', ') || 'nothing';
  }

  idle(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
