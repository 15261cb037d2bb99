import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { boundEcho, clip, mcbError, type ErrorCode, type McbError, type Result } from "@mcb/blocks";
import { isHostCrash } from "@mcb/engine";

/** Ordinary text responses are limited to 64 KiB (docs/DESIGN.md "Limits and budgets"); larger ones fail. */
export const MAX_TEXT_BYTES = 64 * 1024;

export interface ToolImage {
  readonly data: Buffer;
  readonly mimeType: "image/png" | "image/jpeg" | "image/webp";
}

/**
 * A failed call: `isError` with the structured error as JSON text `{"error": {code, message,
 * retryable, details?}}`. No structuredContent: clients validate it against the tool's success schema.
 * Whatever the error echoes of the caller's input is bounded (`boundEcho`).
 */
export function errorResult(error: McbError): CallToolResult {
  const body = {
    error: { code: error.code, message: clip(error.message, 400), retryable: error.retryable, ...(error.details ? { details: boundEcho(error.details) } : {}) },
  };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

const CODES: ReadonlySet<string> = new Set<ErrorCode>([
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
]);

/**
 * An exception a tool did not turn into a result, as a structured error (never JSON-RPC -32603):
 * a world port's refusal keeps its code and details; a vanished host is busy (host_down); anything
 * else is busy (internal_error) with the exception's class only.
 */
export function thrownError(e: unknown): McbError {
  const o = (e ?? {}) as { code?: unknown; message?: unknown; details?: unknown };
  const message = typeof o.message === "string" ? o.message : String(e);
  if (isHostCrash(e)) return mcbError("busy", `the world's server is unavailable: ${message}`, { reason: "host_down" });
  if (typeof o.code === "string" && CODES.has(o.code)) {
    const details = typeof o.details === "object" && o.details !== null ? (o.details as Record<string, unknown>) : undefined;
    return mcbError(o.code as ErrorCode, message, details);
  }
  const name = e instanceof Error ? e.name : typeof e;
  return mcbError("busy", `the tool failed on this request (${name}): ${message}`, { reason: "internal_error" });
}

/**
 * A tool result: the value as structured content and as JSON text (for clients that read text
 * only), images as MCP image content (never base64 inside the text). A text over 64 KiB becomes a
 * `budget_exceeded` error asking for a smaller request.
 */
export function toolResult<T extends object>(r: Result<T>, images: readonly ToolImage[] = []): CallToolResult {
  if (!r.ok) return errorResult(r.error);
  const text = JSON.stringify(r.value);
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_TEXT_BYTES)
    return errorResult(
      mcbError("budget_exceeded", `the response would be ${bytes} bytes; the limit is ${MAX_TEXT_BYTES}: request a smaller region or a summary`, {
        reason: "response_size",
        limit: MAX_TEXT_BYTES,
      }),
    );
  return {
    content: [{ type: "text", text }, ...images.map((i) => ({ type: "image" as const, data: i.data.toString("base64"), mimeType: i.mimeType }))],
    structuredContent: r.value as Record<string, unknown>,
  };
}
