import { type Box3, boxFromCorners } from "@mcb/blocks";

/** One `/ai …` line, parsed. Anything that is not exactly a command is a request to the agent. */
export type ChatCommand =
  | { readonly kind: "prompt"; readonly text: string }
  | { readonly kind: "project_create"; readonly name: string }
  | { readonly kind: "project_use"; readonly name: string }
  | { readonly kind: "area_set"; readonly box: Box3 }
  | { readonly kind: "status" }
  | { readonly kind: "stop" }
  | { readonly kind: "undo"; readonly operationId: string }
  | { readonly kind: "camera_save"; readonly name: string }
  | { readonly kind: "protect"; readonly partId: string; readonly on: boolean }
  | { readonly kind: "preview"; readonly text: string }
  | { readonly kind: "preview_again" }
  | { readonly kind: "apply" }
  | { readonly kind: "discard" }
  | { readonly kind: "help" }
  | { readonly kind: "usage"; readonly message: string };

export const CHAT_HELP = [
  "/ai <request> — ask the agent (one turn at a time per project, others queue)",
  "/ai project create <name> | /ai project use <name>",
  "/ai area set x1 y1 z1 x2 y2 z2 — the project's build area",
  "/ai preview <request> — the agent prepares it and you alone see it in game; /ai apply builds it, /ai discard drops it, /ai preview shows it again",
  "/ai status | /ai stop | /ai undo <operation> | /ai camera save <name> | /ai protect <part> | /ai unprotect <part>",
];

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const ID = /^[A-Za-z0-9_-]{1,128}$/;
const INT = /^-?\d{1,9}$/;
/** Longest request forwarded to the agent (the port cuts at 1,024 too). */
export const MAX_REQUEST_CHARS = 1024;

/**
 * Parses the text after `/ai` (a leading `/ai` is accepted too, for the console). Commands must
 * match their exact shape; `project …` and `area …` lines of another shape get a usage message
 * instead of reaching the agent; every other line is a request.
 */
export function parseChatCommand(line: string): ChatCommand {
  const text = line
    .trim()
    .replace(/^\/ai(\s+|$)/i, "")
    .trim();
  if (text.length === 0) return { kind: "usage", message: "say what to build: /ai <request> (or /ai help)" };
  if (text.length > MAX_REQUEST_CHARS) return { kind: "usage", message: `requests are at most ${MAX_REQUEST_CHARS} characters` };
  const t = text.split(/\s+/);
  const head = t[0]!.toLowerCase();
  const n = t.length;
  if (n === 1 && (head === "status" || head === "stop" || head === "help" || head === "apply" || head === "discard")) return { kind: head };
  if (head === "preview") return n === 1 ? { kind: "preview_again" } : { kind: "preview", text: text.slice(t[0]!.length).trim() };
  if (head === "project") {
    const action = t[1]?.toLowerCase();
    if (n === 3 && (action === "create" || action === "use")) {
      if (!NAME.test(t[2]!)) return { kind: "usage", message: "project names are 1–64 letters, digits, _ or -" };
      return { kind: action === "create" ? "project_create" : "project_use", name: t[2]! };
    }
    return { kind: "usage", message: "usage: /ai project create <name> | /ai project use <name>" };
  }
  if (head === "area") {
    if (n === 8 && t[1]!.toLowerCase() === "set" && t.slice(2).every((v) => INT.test(v))) {
      const [x1, y1, z1, x2, y2, z2] = t.slice(2).map(Number) as [number, number, number, number, number, number];
      return { kind: "area_set", box: boxFromCorners({ x: x1, y: y1, z: z1 }, { x: x2, y: y2, z: z2 }) };
    }
    return { kind: "usage", message: "usage: /ai area set x1 y1 z1 x2 y2 z2 (integers, two opposite corners)" };
  }
  if (n === 2 && head === "undo" && /^op_/.test(t[1]!) && ID.test(t[1]!)) return { kind: "undo", operationId: t[1]! };
  if (n === 3 && head === "camera" && t[1]!.toLowerCase() === "save") {
    if (!NAME.test(t[2]!)) return { kind: "usage", message: "camera names are 1–64 letters, digits, _ or -" };
    return { kind: "camera_save", name: t[2]! };
  }
  if (n === 2 && (head === "protect" || head === "unprotect") && /^part_/.test(t[1]!) && ID.test(t[1]!))
    return { kind: "protect", partId: t[1]!, on: head === "protect" };
  return { kind: "prompt", text };
}

/**
 * What a `/ai preview <request>` turn asks of the agent before the player's words: prepare with a
 * preview, and leave the applying to the player.
 */
export const PREVIEW_REQUEST =
  "Preview only: prepare this with preview (build_prepare or schematic_import_prepare with preview: {}) and do not apply it; the player sees it in game and applies it with /ai apply. The request: ";
