import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { boundEcho, clip, describeIssues } from "@mcb/blocks";

export type RequestId = string | number;

/** A JSON-RPC error response this side sends without involving the server. */
export interface FrameError {
  readonly jsonrpc: "2.0";
  readonly id: RequestId | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** Request methods whose params are checked here, so a bad shape is -32602 with our structured error. */
const PARAMS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
  ["resources/list", ListResourcesRequestSchema],
  ["resources/templates/list", ListResourceTemplatesRequestSchema],
  ["resources/read", ReadResourceRequestSchema],
  ["prompts/list", ListPromptsRequestSchema],
  ["prompts/get", GetPromptRequestSchema],
]);

export function frameError(id: RequestId | null, code: number, message: string, data?: unknown): FrameError {
  return { jsonrpc: "2.0", id, error: { code, message: clip(message, 400), ...(data === undefined ? {} : { data: boundEcho(data) }) } };
}

function idOf(v: unknown): RequestId | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const id = (v as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/**
 * Classifies one complete line from the client (JSON-RPC 2.0 over newline-delimited stdio):
 * a message for the server, nothing (blank line), or the error response to send instead —
 * -32700 for text that is not JSON, -32600 for JSON that is not a JSON-RPC 2.0 message (with the
 * request's id when it has a usable one, else null; batches are not part of MCP), -32602 with our
 * structured `invalid_request` error as `data` when a known request's params have the wrong shape.
 */
export function classifyLine(line: string): { kind: "message"; message: JSONRPCMessage } | { kind: "blank" } | { kind: "error"; response: FrameError } {
  if (line.trim() === "") return { kind: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { kind: "error", response: frameError(null, ErrorCode.ParseError, `Parse error: ${(e as Error).message}`) };
  }
  if (Array.isArray(value))
    return {
      kind: "error",
      response: frameError(null, ErrorCode.InvalidRequest, "Invalid Request: batches are not supported by MCP; send one message per line"),
    };
  const msg = JSONRPCMessageSchema.safeParse(value);
  if (!msg.success) {
    const why =
      typeof value !== "object" || value === null
        ? "a JSON-RPC message is an object"
        : (value as { jsonrpc?: unknown }).jsonrpc !== "2.0"
          ? 'jsonrpc must be "2.0"'
          : "not a request, notification or response";
    return { kind: "error", response: frameError(idOf(value), ErrorCode.InvalidRequest, `Invalid Request: ${why}`) };
  }
  const message = msg.data;
  if ("method" in message && "id" in message) {
    const schema = PARAMS.get(message.method);
    const checked = schema?.safeParse(message);
    if (checked !== undefined && !checked.success) {
      const issues = describeIssues(checked.error.issues);
      const first = issues[0];
      const text = `invalid params for ${clip(message.method, 64)}${first ? ` at ${first.path || "(root)"}: ${first.message}` : ""}`;
      const data = { code: "invalid_request", message: text, retryable: false, details: { reason: "schema", issues } };
      return { kind: "error", response: frameError(message.id, ErrorCode.InvalidParams, `Invalid params: ${text}`, data) };
    }
  }
  return { kind: "message", message };
}
