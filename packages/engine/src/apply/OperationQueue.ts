import { setTimeout as sleep } from "node:timers/promises";
import { runOperation, type ApplierDeps } from "./Applier.js";
import { leaseNames, type BridgeClaims } from "../recovery/BridgeClaims.js";
import { boundsOf } from "@mcb/blocks";
import { isHostCrash } from "../world/WorldAdapter.js";

/**
 * Runs operations one at a time in the background, in submission order (one writer per world: no
 * hidden concurrency between our writes). Fail-stop: a journal that can no longer persist stops
 * the queue for good (the next engine recovers the operation from the journal); a host crash
 * stops it until the engine reconnected and recovered (`resume`). On a journal shared with other
 * bridges, an operation starts once this bridge holds the leases of every region its plan covers
 * (waiting while another bridge writes there), and gives its claims up when it ends; a bridge that
 * stops for good stops renewing them, so a live bridge recovers its operations.
 */
export class OperationQueue {
  private readonly queue: string[] = [];
  private readonly cancels = new Set<string>();
  private pump: Promise<void> | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly deps: Omit<ApplierDeps, "cancelRequested">,
    private readonly claims: BridgeClaims,
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

  /** Shared journals: waits until this bridge holds every region lease the operation's plan needs (or it is cancelled). */
  private async leaseRegions(operationId: string): Promise<void> {
    if (!this.claims.shared) return;
    const op = this.deps.journal.getOperation(operationId);
    const box = op === null ? null : boundsOf(this.deps.plans(op.planId).pos);
    if (box === null) return;
    const names = leaseNames(box.minX, box.minZ, box.maxX, box.maxZ);
    // A cancelled operation starts without leases: it stops before its first slice, writing nothing.
    while (!this.claims.lease(operationId, names) && !this.cancels.has(operationId)) await sleep(25 + Math.random() * 50);
  }

  private async drain(): Promise<void> {
    const deps: ApplierDeps = { ...this.deps, cancelRequested: (id) => this.cancels.has(id) };
    while (this.queue.length > 0 && this.failure === null) {
      const id = this.queue.shift()!;
      try {
        await this.leaseRegions(id);
        await runOperation(deps, id);
        this.cancels.delete(id);
        this.onFinished(id);
        this.claims.release(id);
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.queue.length = 0;
        if (!isHostCrash(error)) {
          this.claims.close(); // this bridge is done: what it held expires for the others to recover
          this.log(`mcb engine stopped: ${this.failure.message}`);
        } else this.onHostCrash(this.failure);
      }
    }
  }
}
