import type { Values } from "./Args.js";

/**
 * Whether a command line runs in the process that holds its world, when one serves it: `command`
 * (it ends), `session` (it reads stdin and lasts: mcb mcp, mcb chat), or null (it needs no world, or
 * it is the holder itself: recipe, schem info and build, terrain preview, serve, doctor, mcp --attach).
 */
export function forwardOf(name: string, args: readonly string[], values: Values): "command" | "session" | null {
  switch (name) {
    case "build":
    case "undo":
    case "status":
    case "inspect":
    case "recovery":
    case "edit":
    case "part":
    case "camera":
    case "preview":
      return "command";
    case "schem":
      return args[0] === "info" || args[0] === "build" ? null : "command";
    case "terrain":
      return args[0] === "batch" ? "command" : null;
    case "mcp":
      return values.attach === true ? null : "session";
    case "chat":
      return "session";
    default:
      return null;
  }
}
