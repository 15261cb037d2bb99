import type { Engine } from "@mcb/engine";

/** Where the signals come from: this process's, or a caller's forwarded through the holder. */
export interface SignalScope {
  /** Subscribes to SIGINT/SIGTERM; returns the unsubscribe. Default: this process's signals. */
  readonly signals?: (handler: (signal: NodeJS.Signals) => void) => () => void;
  /** Only the operations this front end applied are stopped (`Principal.client`); default: all. */
  readonly client?: string | (() => string);
}

/** This process's SIGINT and SIGTERM to `handler`; returns the unsubscribe. */
export function processSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}

/**
 * Ctrl-C (SIGINT) and SIGTERM while a command writes are not crashes: the first signal asks every
 * running operation to stop after its current slice (it ends `cancelled` with exact counts and
 * stays undoable) and tells loops of tiles to start no more; the command then finishes normally and
 * exits 130 (SIGINT) or 143 (SIGTERM). A repeated signal only says that it is still stopping. Only
 * a real crash (kill -9, power loss) leaves an operation to recovery.
 */
export class Interrupt {
  private received: NodeJS.Signals | null = null;
  private readonly cancelled = new Set<string>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly log: (line: string) => void,
    private readonly scope: SignalScope = {},
  ) {}

  /** Takes over SIGINT and SIGTERM until `dispose`; `onSignal` runs once, after the operations were asked to stop. */
  install(onSignal?: () => void): void {
    if (this.unsubscribe !== null) return;
    const handler = (signal: NodeJS.Signals): void => {
      if (this.received !== null) {
        this.log(`mcb: still stopping after the current slice (${signal} again)`);
        return;
      }
      this.received = signal;
      for (const id of this.engine.cancelAll(typeof this.scope.client === "function" ? this.scope.client() : this.scope.client)) this.cancelled.add(id);
      this.log(`mcb: ${signal}: stopping after the current slice`);
      onSignal?.();
    };
    this.unsubscribe = (this.scope.signals ?? processSignals)(handler);
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** True once a signal came: start nothing new. */
  get requested(): boolean {
    return this.received !== null;
  }

  /** Records an operation stopped on account of the signal after it came (a race with its start). */
  add(operationId: string): void {
    this.cancelled.add(operationId);
  }

  /** The operations the signal stopped. */
  get operations(): readonly string[] {
    return [...this.cancelled];
  }

  /** 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM. */
  get exitCode(): number {
    return this.received === "SIGTERM" ? 143 : 130;
  }
}
