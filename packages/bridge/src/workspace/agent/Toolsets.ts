import { ok, mcbError, fail, type Result } from "@mcb/blocks";

/**
 * Groups of tools. `build` (context, materials, regions, builds, operations, parts, camera) is
 * always listed; `terrain` and `schematic` are listed once enabled: from the start
 * (`mcb mcp --toolsets all`) or by the agent with toolsets_enable. Every tool's description and
 * input schema reach the model with every request, so tools an agent does not use cost it context
 * on every turn; enabling a group is one call.
 */
export const TOOLSETS = {
  build: "context, materials, regions, builds, operations, parts, camera",
  terrain: "height-field terrain (preview, tiles, one-call apply) and surface brushes",
  schematic: "the local schematic library: list, export, paste",
} as const;
export type Toolset = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as Toolset[];

/** The toolsets a `--toolsets` value names ("all", or a comma-separated list; build is always in). */
export function parseToolsets(text: string): Result<Toolset[]> {
  if (text === "all") return ok([...TOOLSET_NAMES]);
  const names = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = names.filter((n) => !(n in TOOLSETS));
  if (unknown.length > 0)
    return fail(
      mcbError("invalid_request", `unknown toolset ${JSON.stringify(unknown[0])}: choose from ${TOOLSET_NAMES.join(", ")} or all`, {
        reason: "unknown_toolset",
        allowed: [...TOOLSET_NAMES, "all"],
      }),
    );
  return ok([...new Set<Toolset>(["build", ...(names as Toolset[])])]);
}
