import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { boundEcho, clip, mcbError, type McbError, type Result } from "@mcb/blocks";

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
