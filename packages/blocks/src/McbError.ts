/**
 * Structured errors shared by every mcb package (docs/DESIGN.md "Errors"). Expected failures are returned,
 * never thrown; `retryable` tells a caller whether repeating the same request can succeed.
 */
export const ERROR_CODES = [
  "permission_denied",
  "out_of_bounds",
  "unsupported_block",
  "stale_snapshot",
  "conflict",
  "budget_exceeded",
  "busy",
  "resync_required",
  "camera_unavailable",
  "capture_not_ready",
  "version_mismatch",
  "recovery_required",
  "invalid_request",
  "not_found",
  /** A world's own data is damaged (a save's region file or chunk): `details.reason` `corrupt_region` | `corrupt_chunk`. */
  "world_damaged",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface McbError<C extends ErrorCode = ErrorCode> {
  readonly code: C;
  readonly message: string;
  readonly retryable: boolean;
  readonly details?: Readonly<Record<string, unknown>>;
}

export type Result<T, E extends McbError = McbError> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

const RETRYABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["busy", "capture_not_ready", "camera_unavailable", "resync_required"]);

export function mcbError<C extends ErrorCode>(code: C, message: string, details?: Readonly<Record<string, unknown>>): McbError<C> {
  return details === undefined ? { code, message, retryable: RETRYABLE.has(code) } : { code, message, retryable: RETRYABLE.has(code), details };
}

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function fail<E extends McbError>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
