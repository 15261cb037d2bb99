import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolRequest,
  type ServerNotification,
  type ServerRequest,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
import { jsonShapeError, mcbError, schemaError, type Result } from "@mcb/blocks";
import { z } from "zod";
import { publishedSchema } from "./PublishedSchema.js";
import { errorResult } from "./ToolResult.js";
import { runAsTask, type ToolJob } from "./ToolTasks.js";
import { thrownError } from "../workspace/world/ThrownError.js";
import type { Toolset } from "../workspace/agent/Toolsets.js";

export interface ToolConfig<S extends z.ZodRawShape> {
  readonly title: string;
  readonly description: string;
  readonly inputSchema: S;
  readonly outputSchema: z.ZodObject;
  readonly annotations: ToolAnnotations;
  /** A long job's tool: listed with taskSupport "optional"; a task-augmented call runs as a task. */
  readonly job?: ToolJob;
}

interface Entry {
  readonly toolset: Toolset;
  readonly input: z.ZodObject;
  readonly output: z.ZodObject;
  readonly handler: (args: never, progress: ProgressSender) => Promise<CallToolResult>;
  readonly listing: () => Tool;
  readonly job?: ToolJob;
}

/** Sends the caller a progress notification (`done` only grows), or null when the call gave no progress token. */
export type ProgressSender = ((done: number, message: string) => Promise<void>) | null;

/**
 * The server's tools: published through the SDK (tools/list with JSON Schema from zod), called
 * through our own tools/call handler so that arguments failing the schema get the same structured
 * error as every other refusal — `{"error": {code: "invalid_request", details: {reason: "schema",
 * issues}}}` — instead of free text. Unknown argument names are refused (strict objects). A result
 * that does not match its output schema is a server bug: a JSON-RPC internal error, never sent.
 * Every tool, reads of the catalog and the local library included, acts within the caller's
 * authorized project scope (docs/PROTOCOL.md): a revoked caller gets permission_denied from all of them.
 */
export class ToolTable {
  private readonly tools = new Map<string, Entry>();
  private group: Toolset = "build";
  /**
   * `gate` runs before every call (after argument checks): the caller's project access, checked now.
   * `enabled`: the toolsets listed (and callable) from the start.
   */
  constructor(
    private readonly server: McpServer,
    private readonly gate: () => Result<unknown>,
    private readonly enabled: Set<Toolset>,
    /** The text beside structuredContent: the same JSON, or a short summary (`AnswerOptions.textCopy`). */
    private readonly textCopy: "full" | "summary" = "full",
  ) {}

  /** Registers the tools `add` registers as members of `toolset`. */
  in(toolset: Toolset, add: () => void): void {
    const before = this.group;
    this.group = toolset;
    try {
      add();
    } finally {
      this.group = before;
    }
  }

  /** Lists the tools of more toolsets and tells the client its tool list changed. */
  enable(toolsets: readonly Toolset[]): { enabled: string[]; added_tools: string[] } {
    const added = toolsets.filter((t) => !this.enabled.has(t));
    for (const t of added) this.enabled.add(t);
    const addedTools = [...this.tools].filter(([, e]) => added.includes(e.toolset)).map(([n]) => n);
    if (addedTools.length > 0 && this.server.isConnected()) void this.server.server.sendToolListChanged().catch(() => undefined);
    return { enabled: [...this.enabled], added_tools: addedTools };
  }

  /** True once every toolset is listed. */
  allEnabled(all: readonly Toolset[]): boolean {
    return all.every((t) => this.enabled.has(t));
  }

  register<S extends z.ZodRawShape>(
    name: string,
    config: ToolConfig<S>,
    handler: (args: z.infer<z.ZodObject<S>>, progress: ProgressSender) => Promise<CallToolResult>,
  ): void {
    this.server.registerTool(name, config, (async () => {
      throw new Error("invariant: tools/call is served by ToolTable");
    }) as never);
    const input = z.strictObject(config.inputSchema);
    let listing: Tool | undefined;
    const { title, description, annotations, job } = config;
    this.tools.set(name, {
      toolset: this.group,
      input,
      output: config.outputSchema,
      handler: handler as Entry["handler"],
      ...(job === undefined ? {} : { job }),
      listing: () =>
        (listing ??= {
          name,
          title,
          description,
          annotations,
          ...(job === undefined ? {} : { execution: { taskSupport: "optional" as const } }),
          inputSchema: publishedSchema(input, "input") as Tool["inputSchema"],
          outputSchema: publishedSchema(config.outputSchema, "output") as Tool["outputSchema"],
        }),
    });
  }

  /** The tools listed now (those of the enabled toolsets). */
  get names(): string[] {
    return [...this.tools].filter(([, e]) => this.enabled.has(e.toolset)).map(([n]) => n);
  }

  /** Replaces the SDK's tools/list and tools/call handlers (a documented replacement: setRequestHandler overrides). */
  install(): void {
    this.server.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [...this.tools.values()].filter((t) => this.enabled.has(t.toolset)).map((t) => t.listing()),
    }));
    this.server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const task = request.params.task;
      if (task === undefined) return this.call(request, extra);
      const job = this.tools.get(request.params.name)?.job;
      if (job === undefined || extra.taskStore === undefined)
        throw new McpError(ErrorCode.MethodNotFound, `${request.params.name.slice(0, 64)} does not run as a task: call it without one`);
      return runAsTask(extra.taskStore, task.ttl, () => this.call({ ...request, params: { ...request.params, _meta: {} } }, extra), job);
    });
  }

  /** One tools/call: checks, the handler, the output checked against its schema. */
  private async call(request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<CallToolResult> {
    const tool = this.tools.get(request.params.name);
    if (tool === undefined)
      return errorResult(mcbError("not_found", `unknown tool ${JSON.stringify(request.params.name.slice(0, 64))}`, { tools: this.names }));
    if (!this.enabled.has(tool.toolset)) {
      return errorResult(
        mcbError("not_found", `${request.params.name} belongs to the ${tool.toolset} toolset: call toolsets_enable with ["${tool.toolset}"] first`, {
          reason: "toolset_not_enabled",
          toolset: tool.toolset,
        }),
      );
    }
    const tooLarge = jsonShapeError(request.params.arguments ?? {}, "arguments");
    if (tooLarge !== null) return errorResult(tooLarge);
    const args = tool.input.safeParse(request.params.arguments ?? {});
    if (!args.success) {
      const unknown = args.error.issues.flatMap((i) => (i.code === "unrecognized_keys" && i.path.length === 0 ? i.keys : []));
      const error = schemaError(
        `arguments for ${request.params.name}`,
        args.error.issues,
        [],
        unknown.length > 0 ? { arguments: Object.keys(tool.input.shape) } : {},
      );
      const homes = nestedHomes(tool.input, unknown);
      if (homes.length === 0) return errorResult(error);
      // A key given at the top that belongs to a nested argument (take_over under apply): say where it goes.
      return errorResult({
        ...error,
        message: `${error.message}; ${homes.map((h) => `${h.key} belongs under ${h.under} (${h.under}.${h.key})`).join("; ")}`,
        details: { ...error.details, belongs_under: Object.fromEntries(homes.map((h) => [h.key, h.under])) },
      });
    }
    const allowed = this.gate();
    if (!allowed.ok) return errorResult(allowed.error);
    let result: CallToolResult;
    try {
      // A client that sent a progress token gets notifications/progress while a long call waits.
      const token = request.params._meta?.progressToken;
      const progress: ProgressSender =
        token === undefined
          ? null
          : (done, message) => extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: done, message } });
      result = await tool.handler(args.data as never, progress);
    } catch (e) {
      return errorResult(thrownError(e, "the tool")); // a world refusal or a crash is a structured error, never -32603
    }
    if (!result.isError) {
      const out = tool.output.safeParse(result.structuredContent);
      if (!out.success) throw new McpError(ErrorCode.InternalError, `${request.params.name} produced a result outside its output schema`);
      if (this.textCopy === "summary")
        return {
          ...result,
          content: result.content.map((c) => (c.type === "text" ? { type: "text" as const, text: answerSummary(result.structuredContent!) } : c)),
        };
    }
    return result;
  }
}

/** For keys unknown at the top of a tool's arguments: the top-level object arguments that have them. */
function nestedHomes(input: z.ZodObject, keys: readonly string[]): { key: string; under: string }[] {
  const homes: { key: string; under: string }[] = [];
  for (const key of keys)
    for (const [under, field] of Object.entries(input.shape)) {
      let inner: unknown = field;
      while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) inner = (inner as z.ZodOptional).unwrap();
      if (inner instanceof z.ZodObject && key in inner.shape) {
        homes.push({ key, under });
        break;
      }
    }
  return homes;
}

/**
 * A short text beside structuredContent (the spec allows a summary in place of the JSON copy): the
 * answer's top-level numbers, booleans and short strings, at most 300 characters.
 */
export function answerSummary(value: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "number" || typeof v === "boolean" || (typeof v === "string" && v.length <= 80)) parts.push(`${k}: ${String(v)}`);
    else if (Array.isArray(v)) parts.push(`${k}: ${v.length} items`);
  }
  const line = `${parts.join("; ")} (the whole answer is in structuredContent)`;
  return line.length <= 300 ? line : `${line.slice(0, 240)}… (the whole answer is in structuredContent)`;
}
