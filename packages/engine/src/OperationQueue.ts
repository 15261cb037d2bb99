import { runOperation, type ApplierDeps } from "./Applier.js";
import { isHostCrash } from "./WorldAdapter.js";

/**
 * Runs operations one at a time in the background, in submission order (one writer per world: no
 * hidden concurrency between our writes). Fail-stop: a journal that can no longer persist stops
 * the queue for good (the next engine recovers the operation from the journal); a host crash
 * stops it until the engine reconnected and recovered (`resume`).
 */
export class OperationQueue {
  private readonly queue: string[] = [];
  private readonly cancels = new Set<string>();
  private pump: Promise<void> | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly deps: Omit<ApplierDeps, "cancelRequested">,
    private readonly onFinished: (operationId: string) => void,
    private readonly log: (line: string) => void,
    private readonly onHostCrash: (error: Error) => void = () => {},
  ) {}

  /** After a host crash was recovered from: the queue runs again (a journal failure stays fatal). */
  resume(): void {
    if (this.failure !== null && isHostCrash(this.failure)) this.failure = null;
  }

  get stoppedBy(): Error | null {
    return this.failure;
  }

  submit(operationId: string): void {
    this.queue.push(operationId);
    if (this.pump === null) {
      this.pump = this.drain().finally(() => {
        this.pump = null;
      });
    }
  }

  /** Takes effect before the next slice; completed slices stay written. */
  cancel(operationId: string): void {
    this.cancels.add(operationId);
  }

  cancelRequested(operationId: string): boolean {
    return this.cancels.has(operationId);
  }

  async settle(): Promise<void> {
    while (this.pump !== null) await this.pump;
  }

  private async drain(): Promise<void> {
    const deps: ApplierDeps = { ...this.deps, cancelRequested: (id) => this.cancels.has(id) };
    while (this.queue.length > 0 && this.failure === null) {
      const id = this.queue.shift()!;
      try {
        await runOperation(deps, id);
        this.cancels.delete(id);
        this.onFinished(id);
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.queue.length = 0;
        if (!isHostCrash(error)) this.log(`mcb engine stopped: ${this.failure.message}`);
        else this.onHostCrash(this.failure);
      }
    }
  }
}
