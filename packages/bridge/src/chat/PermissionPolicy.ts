import type * as acp from "@agentclientprotocol/sdk";
import { MCP_SERVER_NAME } from "../workspace/agent/McpContext.js";
import type { Box3 } from "@mcb/blocks";

/** What a permission decision is checked against: the turn in progress, if any. */
export interface PermissionScope {
  /** The project's area, while one of its turns runs; null between turns. */
  readonly area: Box3 | null;
}

export type PermissionVerdict = { readonly allow: true } | { readonly allow: false; readonly why: string };

function mentionsOurServer(call: acp.ToolCallUpdate): boolean {
  const texts = [call.title, call.name, JSON.stringify(call._meta ?? null)].filter((t): t is string => typeof t === "string");
  const re = new RegExp(`(^|[^A-Za-z0-9_-])${MCP_SERVER_NAME}([^A-Za-z0-9_-]|$)`);
  return texts.some((t) => re.test(t));
}

/** Every {x, y, z} point in the arguments, to at most depth 8. */
function points(v: unknown, depth = 0, out: { x: number; y: number; z: number }[] = []): { x: number; y: number; z: number }[] {
  if (depth > 8 || v === null || typeof v !== "object") return out;
  const o = v as Record<string, unknown>;
  if (typeof o.x === "number" && typeof o.y === "number" && typeof o.z === "number") out.push({ x: o.x, y: o.y, z: o.z });
  for (const child of Array.isArray(v) ? v : Object.values(o)) points(child, depth + 1, out);
  return out;
}

/**
 * The bridge's answer to `session/request_permission` (docs/DESIGN.md "Permissions and secrets"): during a turn, a call to a tool
 * of our own MCP server whose coordinates (if any) lie inside the project's area is allowed once;
 * everything else — shell, files, other servers, out-of-area coordinates, requests between turns —
 * is rejected. The world engine checks area, ownership and protections again on its side.
 */
export function decidePermission(request: acp.RequestPermissionRequest, scope: PermissionScope): PermissionVerdict {
  if (scope.area === null) return { allow: false, why: "no turn is running" };
  if (!mentionsOurServer(request.toolCall)) return { allow: false, why: `only ${MCP_SERVER_NAME} tools are allowed` };
  const a = scope.area;
  const outside = points(request.toolCall.rawInput).find((p) => p.x < a.minX || p.y < a.minY || p.z < a.minZ || p.x > a.maxX || p.y > a.maxY || p.z > a.maxZ);
  if (outside !== undefined) return { allow: false, why: `(${outside.x}, ${outside.y}, ${outside.z}) is outside the project area` };
  return { allow: true };
}

/** The ACP response for a verdict: the first allow_once / reject_once option, else cancelled. */
export function permissionResponse(request: acp.RequestPermissionRequest, verdict: PermissionVerdict): acp.RequestPermissionResponse {
  const kind = verdict.allow ? "allow_once" : "reject_once";
  const option = request.options.find((o) => o.kind === kind);
  return option === undefined ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId: option.optionId } };
}
