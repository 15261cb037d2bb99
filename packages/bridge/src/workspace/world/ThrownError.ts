import { ERROR_CODES, mcbError, type ErrorCode, type McbError } from "@mcb/blocks";
import { isHostCrash, isWorldRefusal } from "@mcb/engine";

const CODES: ReadonlySet<string> = new Set<ErrorCode>(ERROR_CODES);

/**
 * An exception no request turned into a result, as the structured error every front end answers
 * with (never a stack trace): a world's refusal (a save's damaged region, the game's lock, a failed
 * save) keeps its code and details; a vanished host is `busy` (`host_down`); an error carrying one
 * of our codes keeps it; anything else is `busy` (`internal_error`) with the exception's class and
 * message only. `what` names the failing thing for the last case ("the tool", "mcb build").
 */
export function thrownError(e: unknown, what: string): McbError {
  const o = (e ?? {}) as { code?: unknown; message?: unknown; details?: unknown };
  const message = typeof o.message === "string" ? o.message : String(e);
  if (isHostCrash(e)) return mcbError("busy", `the world's server is unavailable: ${message}`, { reason: "host_down" });
  if (isWorldRefusal(e)) return { ...mcbError(e.refusal.code, message, e.refusal.details), retryable: e.refusal.retryable };
  if (typeof o.code === "string" && CODES.has(o.code)) {
    const details = typeof o.details === "object" && o.details !== null ? (o.details as Record<string, unknown>) : undefined;
    return mcbError(o.code as ErrorCode, message, details);
  }
  const name = e instanceof Error ? e.name : typeof e;
  return mcbError("busy", `${what} failed on this request (${name}): ${message}`, { reason: "internal_error" });
}
