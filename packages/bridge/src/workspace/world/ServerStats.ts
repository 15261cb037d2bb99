import { PortWorld } from "@mcb/adapter-port";
import type { Workspace } from "./Workspace.js";

/** A live server's figures for `mcb status` (snake_case, as every JSON answer). */
export interface ServerStatsView {
  /** Ticks the figures cover (the newest, at most a minute's worth). */
  readonly ticks: number;
  readonly tick_ms_max: number;
  readonly tick_ms_p99: number;
  readonly tick_ms_mean: number;
  /** Port jobs waiting for the game thread, and the most the port queues. */
  readonly queue_depth: number;
  readonly max_queue: number;
  /** The port's work per tick. */
  readonly budget_ms: number;
}

/**
 * The figures of the server behind a port world over its last minute of ticks; null for a save (no
 * server), or when the server did not answer (status still reports the rest).
 */
export async function serverStats(w: Workspace): Promise<ServerStatsView | null> {
  if (!(w.world instanceof PortWorld)) return null;
  const s = await w.world.stats(1200).catch(() => null);
  if (s === null) return null;
  return {
    ticks: s.ticks,
    tick_ms_max: s.tickMsMax,
    tick_ms_p99: s.tickMsP99,
    tick_ms_mean: s.tickMsMean,
    queue_depth: s.queueDepth,
    max_queue: s.maxQueue,
    budget_ms: s.budgetMs,
  };
}

export function serverStatsLine(s: ServerStatsView): string {
  const r = (x: number) => x.toFixed(1);
  return `server ticks (last ${s.ticks}): max ${r(s.tick_ms_max)} ms, p99 ${r(s.tick_ms_p99)} ms, mean ${r(s.tick_ms_mean)} ms; port queue ${s.queue_depth} of ${s.max_queue}, budget ${r(s.budget_ms)} ms per tick`;
}
