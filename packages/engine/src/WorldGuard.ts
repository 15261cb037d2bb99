import { fail, mcbError, type Result } from "@mcb/blocks";
import { isHostCrash } from "./WorldAdapter.js";

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
      return fail(mcbError("busy", `the world's server is unavailable: ${message}`, { reason: "host_down", ...(retry === undefined ? {} : { retry_after_ms: retry }) }));
    }
    return fail(mcbError("busy", `the world is unavailable: ${message}`, { reason: "world_unavailable" }));
  }
}
