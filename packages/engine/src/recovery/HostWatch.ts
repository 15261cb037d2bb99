import { mcbError, type McbError } from "@mcb/blocks";
import { HostCrash, isHostCrash, type WorldAdapter, type WorldInfo } from "../world/WorldAdapter.js";

/** Waits between reconnection attempts: 250 ms, doubling, at most 5 s. */
export const RECONNECT_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000, 5_000] as const;

export interface HostWatchDeps {
  readonly adapter: WorldAdapter;
  /**
   * Runs once the host answers again as the same world: the engine's restart steps (unfinished
   * operations to recovery, events, the saved-writes check) and resuming its queue.
   */
  restarted(info: WorldInfo): Promise<void>;
  readonly log: (line: string) => void;
  readonly delaysMs?: readonly number[];
}

interface Down {
  readonly since: number;
  attempt: number;
  nextAt: number;
  /** Set when the host came back holding another world: mcb does not carry on. */
  otherWorld: string | null;
}

/**
 * Whether the world's host (a server behind the world port) is the one the engine knows: the same
 * world and epoch and the same host session. A host that vanished, or came back as a new session
 * (a restart the engine did not see), puts the engine in "host down": every request answers a
 * retryable `busy` (`reason: "host_down"`, `retry_after_ms`) while it reconnects with bounded
 * backoff; once the host answers as the same world, `restarted` runs (docs/DESIGN.md "One host per world, reconnecting")
 * and requests carry on. A host holding another world is refused for good (`version_mismatch`).
 */
export class HostWatch {
  private world: { worldId: string; epoch: number } | null = null;
  private session: string | null = null;
  private down: Down | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  private readonly delays: readonly number[];

  constructor(private readonly d: HostWatchDeps) {
    this.delays = d.delaysMs !== undefined && d.delaysMs.length > 0 ? d.delaysMs : RECONNECT_DELAYS_MS;
  }

  /** At engine open: the world and host session requests must keep seeing. */
  known(info: WorldInfo): void {
    this.world = { worldId: info.worldId, epoch: info.epoch };
    this.session = info.saved?.session ?? null;
  }

  /** The refusal every request gets while the host is down; null when it is up. */
  refusal(): McbError | null {
    const down = this.down;
    if (down === null) return null;
    if (down.otherWorld !== null)
      return mcbError(
        "version_mismatch",
        `the world's server came back with another world (${down.otherWorld}); restart mcb with the state directory of that world`,
        { reason: "world_changed" },
      );
    return mcbError("busy", "the world's server is down; mcb reconnects and checks what it saved, then carries on", {
      reason: "host_down",
      retry_after_ms: Math.max(0, down.nextAt - Date.now()),
      down_since: new Date(down.since).toISOString(),
    });
  }

  get isDown(): boolean {
    return this.down !== null;
  }

  /** Before world work: throws `HostCrash` when the host is down, unreachable, or another session than ours. */
  async check(): Promise<WorldInfo> {
    if (this.down !== null) throw new HostCrash(this.refusal()!.message);
    let info: WorldInfo;
    try {
      info = await this.d.adapter.info();
    } catch (error) {
      if (isHostCrash(error)) this.lost(error);
      throw error;
    }
    if (this.session !== null && info.saved?.session !== this.session) {
      const e = new HostCrash("the world's server restarted since mcb last saw it; mcb is checking what it saved");
      this.lost(e);
      throw e;
    }
    return info;
  }

  /** A world call found the host gone: starts reconnecting (once). Returns the suggested retry delay in ms. */
  lost(error: Error): number {
    if (this.stopped) return this.delays[0]!;
    if (this.down === null) {
      const now = Date.now();
      this.down = { since: now, attempt: 0, nextAt: now + this.delays[0]!, otherWorld: null };
      this.d.log(`mcb: the world's server is unavailable (${error.message}); reconnecting`);
      this.schedule();
    }
    return Math.max(0, this.down.nextAt - Date.now());
  }

  /** No more reconnection attempts (the engine closes). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    const down = this.down!;
    const delay = this.delays[Math.min(down.attempt, this.delays.length - 1)]!;
    down.nextAt = Date.now() + delay;
    this.timer = setTimeout(() => void this.attempt(), delay);
    this.timer.unref(); // a command that is done never waits for the server
  }

  private async attempt(): Promise<void> {
    this.timer = null;
    const down = this.down;
    if (down === null || this.stopped) return;
    down.attempt++;
    try {
      const info = await this.d.adapter.info();
      if (this.world !== null && (info.worldId !== this.world.worldId || info.epoch !== this.world.epoch)) {
        down.otherWorld = `${info.worldId}, epoch ${info.epoch}`;
        this.d.log(`mcb: the world's server came back with another world (${down.otherWorld}); not carrying on`);
        return;
      }
      await this.d.restarted(info);
      this.session = info.saved?.session ?? null;
      this.down = null;
      this.d.log(`mcb: the world's server is back after ${((Date.now() - down.since) / 1000).toFixed(1)} s`);
    } catch (error) {
      if (!this.stopped) this.schedule();
      if (!isHostCrash(error)) this.d.log(`mcb: reconnecting to the world's server failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
