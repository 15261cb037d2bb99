import type { Result } from "@mcb/blocks";
import type { EngineLimits } from "@mcb/engine";
import { locationOf, openEmbeddedWorld, type EmbeddedWorld, type WorldLocation } from "./EmbeddedWorld.js";

export type Out = { json: boolean };

/** Prints a result: the value (JSON with --json, else text) on stdout, or the error as JSON on stderr (exit 1). */
export function emit<T>(r: Result<T>, o: Out, text: (v: T) => string): number {
  if (!r.ok) {
    process.stderr.write(`${JSON.stringify({ error: r.error })}\n`);
    return 1;
  }
  process.stdout.write(o.json ? `${JSON.stringify(r.value)}\n` : `${text(r.value)}\n`);
  return 0;
}

export interface WorldOptions {
  /** Commands that write: Ctrl-C and SIGTERM stop the operations after their current slice (see `Interrupt`). */
  readonly writes?: boolean;
  readonly limits?: Partial<EngineLimits>;
}

/**
 * Opens the world for one command and closes it after. For a writing command interrupted by a
 * signal, the exit status is 130 (SIGINT) or 143 (SIGTERM) and stderr says what was stopped.
 */
export async function withWorld(state: string | WorldLocation, run: (w: EmbeddedWorld) => Promise<number>, options: WorldOptions = {}): Promise<number> {
  const where = locationOf(state);
  const opened = await openEmbeddedWorld(where.dir, where.target, options.limits);
  if (!opened.ok) return emit(opened, { json: true }, () => "");
  const w = opened.value;
  if (options.writes === true) w.interrupt.install();
  try {
    const code = await run(w);
    if (!w.interrupt.requested) return code;
    const stopped: string[] = [];
    for (const id of w.interrupt.operations) {
      const st = await w.engine.operationStatus(w.ctx, { operation_id: id });
      if (st.ok) stopped.push(`operation ${id} ${st.value.status}: ${st.value.counters.written} of ${st.value.counters.total} blocks written${st.value.counters.written > 0 ? `; undo with: mcb undo ${id}` : ""}`);
    }
    process.stderr.write(`mcb: interrupted: ${stopped.length === 0 ? "stopped before writing anything" : stopped.join("; ")}\n`);
    return w.interrupt.exitCode;
  } finally {
    await w.close();
  }
}

/** undefined when absent, null when not "x,y,z" integers. */
export function vec(v: string | undefined): { x: number; y: number; z: number } | undefined | null {
  if (v === undefined) return undefined;
  const n = v.split(",").map(Number);
  return n.length === 3 && n.every(Number.isSafeInteger) ? { x: n[0]!, y: n[1]!, z: n[2]! } : null;
}

/** undefined when absent, null when not a positive integer. */
export function intOption(v: string | undefined): number | undefined | null {
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
