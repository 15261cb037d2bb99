import { ok } from "@mcb/blocks";
import { z } from "zod";
import { TOOLSETS, TOOLSET_NAMES, type Toolset } from "../workspace/agent/Toolsets.js";
import type { ToolTable } from "./ToolTable.js";
import { toolResult } from "./ToolResult.js";

/** toolsets_enable: lists more tools (the client is told the list changed). Not listed once all are on. */
export function registerToolsetTool(tools: ToolTable): void {
  const optional = TOOLSET_NAMES.filter((t) => t !== "build") as [Toolset, ...Toolset[]];
  tools.register(
    "toolsets_enable",
    {
      title: "Enable tool groups",
      description: `List more tools: ${optional.map((t) => `${t} (${TOOLSETS[t]})`).join("; ")}.`,
      inputSchema: { toolsets: z.array(z.enum(optional)).min(1).max(optional.length).describe("groups to add") },
      outputSchema: z.strictObject({ enabled: z.array(z.string()), added_tools: z.array(z.string()) }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ toolsets }) => toolResult(ok(tools.enable(toolsets))),
  );
}
