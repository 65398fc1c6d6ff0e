/** Wall time of each pipeline step, for the one-line summaries the worker logs. */
export class StepTimer {
  private readonly started = performance.now();
  private last = this.started;
  private readonly steps: string[] = [];

  mark(step: string): void {
    const now = performance.now();
    this.steps.push(`${step} ${seconds(now - this.last)}`);
    this.last = now;
  }

  /** e.g. `4.20 s (download 1.10 s, probe 0.05 s, …)`; the steps so far, then they start over. */
  summary(): string {
    const text = `${seconds(performance.now() - this.started)} (${this.steps.join(', ')})`;
    this.steps.length = 0;
    return text;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
