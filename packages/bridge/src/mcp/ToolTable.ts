import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { jsonShapeError, mcbError, schemaError, type Result } from "@mcb/blocks";
import { z } from "zod";
import { errorResult, thrownError } from "./ToolResult.js";

export interface ToolConfig<S extends z.ZodRawShape> {
  readonly title: string;
  readonly description: string;
  readonly inputSchema: S;
  readonly outputSchema: z.ZodObject;
  readonly annotations: ToolAnnotations;
}

interface Entry {
  readonly input: z.ZodObject;
  readonly output: z.ZodObject;
  readonly handler: (args: never) => Promise<CallToolResult>;
  readonly listing: () => Tool;
}

/**
 * JSON Schema of a zod schema as tools/list publishes it (draft 7): the exact object the server
 * checks, so strict objects say `additionalProperties: false`, and integer-valued enums (rotations)
 * are `{"type": "integer", "enum": [...]}`.
 */
export function publishedSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    target: "draft-7",
    io,
    override: ({ jsonSchema }) => {
      const e = jsonSchema.enum;
      if (jsonSchema.type === "number" && Array.isArray(e) && e.every((v) => Number.isSafeInteger(v))) jsonSchema.type = "integer";
    },
  }) as Record<string, unknown>;
}

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
  /** `gate` runs before every call (after argument checks): the caller's project access, checked now. */
  constructor(
    private readonly server: McpServer,
    private readonly gate: () => Result<unknown>,
  ) {}

  register<S extends z.ZodRawShape>(name: string, config: ToolConfig<S>, handler: (args: z.infer<z.ZodObject<S>>) => Promise<CallToolResult>): void {
    this.server.registerTool(name, config, (async () => {
      throw new Error("invariant: tools/call is served by ToolTable");
    }) as never);
    const input = z.strictObject(config.inputSchema);
    let listing: Tool | undefined;
    const { title, description, annotations } = config;
    this.tools.set(name, {
      input,
      output: config.outputSchema,
      handler: handler as Entry["handler"],
      listing: () => (listing ??= { name, title, description, annotations, inputSchema: publishedSchema(input, "input") as Tool["inputSchema"], outputSchema: publishedSchema(config.outputSchema, "output") as Tool["outputSchema"] }),
    });
  }

  get names(): string[] {
    return [...this.tools.keys()];
  }

  /** Replaces the SDK's tools/list and tools/call handlers (a documented replacement: setRequestHandler overrides). */
  install(): void {
    this.server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...this.tools.values()].map((t) => t.listing()) }));
    this.server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = this.tools.get(request.params.name);
      if (tool === undefined) return errorResult(mcbError("not_found", `unknown tool ${JSON.stringify(request.params.name.slice(0, 64))}`, { tools: this.names }));
      const tooLarge = jsonShapeError(request.params.arguments ?? {}, "arguments");
      if (tooLarge !== null) return errorResult(tooLarge);
      const args = tool.input.safeParse(request.params.arguments ?? {});
      if (!args.success) {
        const unknown = args.error.issues.some((i) => i.code === "unrecognized_keys" && i.path.length === 0);
        return errorResult(schemaError(`arguments for ${request.params.name}`, args.error.issues, [], unknown ? { arguments: Object.keys(tool.input.shape) } : {}));
      }
      const allowed = this.gate();
      if (!allowed.ok) return errorResult(allowed.error);
      let result: CallToolResult;
      try {
        result = await tool.handler(args.data as never);
      } catch (e) {
        return errorResult(thrownError(e)); // a world refusal or a crash is a structured error, never -32603
      }
      if (!result.isError) {
        const out = tool.output.safeParse(result.structuredContent);
        if (!out.success) throw new McpError(ErrorCode.InternalError, `${request.params.name} produced a result outside its output schema`);
      }
      return result;
    });
  }
}
