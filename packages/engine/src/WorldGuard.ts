import { fail, mcbError, type Result } from "@mcb/blocks";
import { isHostCrash } from "./WorldAdapter.js";

/**
 * Runs a request that talks to the world and turns a failing world call (host down, network
 * error) into a retryable `busy` result instead of an exception. Nothing is written by such a
 * request before its world reads succeed, so a retry is safe.
 */
export async function guardWorld<T>(run: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail(mcbError("busy", `the world is unavailable: ${message}`, { reason: isHostCrash(error) ? "host_down" : "world_unavailable" }));
  }
}
