import { fail, mcbError, type ErrorCode, type Result } from "@mcb/blocks";
import { isChunkNotLoaded, isHostCrash } from "./WorldAdapter.js";

/**
 * An adapter's error that is not a passing failure but a fact about the world's data (a save's
 * damaged chunk, a chunk from a newer game): it carries the structured error to answer with.
 */
export interface WorldRefusal {
  readonly refusal: { readonly code: ErrorCode; readonly retryable: boolean; readonly details: Readonly<Record<string, unknown>> };
}

export function isWorldRefusal(error: unknown): error is Error & WorldRefusal {
  const r = (error as { refusal?: { code?: unknown } } | null)?.refusal;
  return error instanceof Error && typeof r?.code === "string";
}

/**
 * Runs a request that talks to the world and turns a failing world call (host down, network
 * error) into a retryable `busy` result instead of an exception. Nothing is written by such a
 * request before its world reads succeed, so a retry is safe. `hostLost` hears of a host that
 * vanished (the engine then reconnects, see `HostWatch`), and `retryAfterMs` is suggested.
 */
export async function guardWorld<T>(run: () => Promise<Result<T>>, hostLost?: (error: Error) => number): Promise<Result<T>> {
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isHostCrash(error)) {
      const retry = hostLost?.(error);
      return fail(
        mcbError("busy", `the world's server is unavailable: ${message}`, { reason: "host_down", ...(retry === undefined ? {} : { retry_after_ms: retry }) }),
      );
    }
    if (isWorldRefusal(error)) {
      const e = mcbError(error.refusal.code, message, error.refusal.details);
      return fail({ ...e, retryable: error.refusal.retryable });
    }
    if (isChunkNotLoaded(error) && !error.retryable)
      return fail(mcbError("out_of_bounds", message, { reason: "chunk_not_generated", ...(error.chunk === null ? {} : { chunk: error.chunk }) }));
    return fail(
      mcbError("busy", `the world is unavailable: ${message}`, {
        reason: error !== null && isChunkNotLoaded(error) ? "chunk_not_loaded" : "world_unavailable",
      }),
    );
  }
}
