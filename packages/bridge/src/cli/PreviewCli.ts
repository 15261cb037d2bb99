import { FRAME_SIDES, type FrameSide } from "@mcb/render";
import type { CaptureReport } from "../workspace/capture/CaptureFile.js";
import { formatOfFile } from "../workspace/capture/ImageFormat.js";
import { PREVIEW_OVERLAYS, type PreviewOverlay } from "../workspace/capture/PlanPreview.js";
import { previewPlan, type PreviewOptions } from "../workspace/jobs/PreviewJobs.js";
import { intOption } from "./Args.js";
import type { Command } from "./Command.js";
import type { Invocation } from "./Invocation.js";

export const previewCommand: Command = {
  name: "preview",
  usage: `  mcb preview <plan_id> -o <out.png> [--side north|south|east|west|top|iso] [--overlay none]
                                     a prepared plan (an agent's, a build's, an undo's) drawn as if
                                     applied, framed on what it writes; nothing is written. Placed
                                     blocks are tinted green, changed ones amber, removed ones red
                                     glass (--overlay none: the plain picture)`,
  async run(c) {
    if (c.args.length !== 1) return c.usage(c.args.length === 0 ? "missing the plan id" : `expected one plan id, got ${c.args.length} arguments`);
    const options = previewOptions(c);
    if (typeof options === "string") return c.usage(options);
    return c.withWorkspace(async (w) => c.emit(await previewPlan(w, c.args[0]!, options.output, options), previewLine));
  },
};

/** The preview's options of a command (-o, --side, --overlay, --quality, --width, --height), or the usage problem. */
export function previewOptions(c: Invocation): (PreviewOptions & { readonly output: string }) | string {
  const output = typeof c.values.output === "string" ? c.file(c.values.output) : undefined;
  if (typeof output !== "string") return "missing -o <out.png> for the preview";
  const format = formatOfFile(output);
  if (format === null) return "-o names a .png, .jpg, .jpeg or .webp file";
  const side = c.values.side;
  if (side !== undefined && (typeof side !== "string" || !(FRAME_SIDES as readonly string[]).includes(side)))
    return `--side is one of ${FRAME_SIDES.join(", ")}`;
  const overlay = c.values.overlay ?? "changes";
  if (typeof overlay !== "string" || !(PREVIEW_OVERLAYS as readonly string[]).includes(overlay)) return `--overlay is one of ${PREVIEW_OVERLAYS.join(", ")}`;
  const quality = intOption(c.values.quality);
  if (quality === null || (quality !== undefined && (format === "png" || quality > 100))) return "--quality takes 1..100, for a .jpg or .webp file";
  const sizes = [intOption(c.values.width), intOption(c.values.height)];
  if (sizes.includes(null)) return "--width and --height take positive integers";
  const [width, height] = sizes as (number | undefined)[];
  return {
    output,
    overlay: overlay as PreviewOverlay,
    frame: {
      ...(side !== undefined ? { side: side as FrameSide } : {}),
      ...(width !== undefined ? { width } : {}),
      ...(height !== undefined ? { height } : {}),
    },
    ...(quality !== undefined ? { quality } : {}),
  };
}

/** "preview written to out.png: 640×360 png, 12345 bytes; nothing was written to the world". */
export function previewLine(k: CaptureReport): string {
  return `preview written to ${k.output}: ${k.width}×${k.height} ${k.format}, ${k.bytes} bytes; nothing was written to the world`;
}
