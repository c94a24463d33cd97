/** Counts work in flight in the local runtime, so `POST /_local/settle` can wait for quiet. */
export class WorkTracker {
  private active = 0;
  private waiters: (() => void)[] = [];

  async run<T>(fn: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      if (this.active === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  begin(): () => void {
    this.active++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.active--;
      if (this.active === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  get busy() {
    return this.active > 0;
  }

  idle(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
