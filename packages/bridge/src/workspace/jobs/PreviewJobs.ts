import { ok, type Result } from "@mcb/blocks";
import type { PrepareView } from "@mcb/engine";
import { captureToFile, type CaptureReport } from "../capture/CaptureFile.js";
import type { FrameRequest } from "../capture/FramedCapture.js";
import type { PreviewOverlay } from "../capture/PlanPreview.js";
import type { Workspace } from "../world/Workspace.js";
import { readRecipeFile } from "./RecipeFiles.js";
import type { EditResolution } from "./BuildJobs.js";

/** How a preview is drawn: the sides of the plan's box to look from, the overlay, the image's quality. */
export interface PreviewOptions {
  readonly frame: Omit<FrameRequest, "box">;
  readonly overlay: PreviewOverlay;
  readonly quality?: number;
}

/**
 * `mcb build --preview`: the recipe prepared and the plan drawn as if applied, into `output`;
 * nothing is written to the world. A plan that changes nothing has no picture (`preview` null).
 */
export async function previewRecipeFile(
  w: Workspace,
  path: string,
  resolution: EditResolution,
  output: string,
  options: PreviewOptions,
): Promise<Result<{ readonly plan: PrepareView; readonly preview: CaptureReport | null }>> {
  const recipe = await readRecipeFile(path);
  if (!recipe.ok) return recipe;
  const plan = await w.engine.buildPrepare(w.ctx, { recipe: recipe.value, ...resolution });
  if (!plan.ok) return plan;
  if (plan.value.changed_blocks === 0) return ok({ plan: plan.value, preview: null });
  const preview = await previewPlan(w, plan.value.plan_id, output, options);
  return preview.ok ? ok({ plan: plan.value, preview: preview.value }) : preview;
}

/** `mcb preview <plan_id>`: a prepared plan (an agent's, a build's, an undo's) drawn as if applied, into `output`. */
export function previewPlan(w: Workspace, planId: string, output: string, options: PreviewOptions): Promise<Result<CaptureReport>> {
  return captureToFile(w, { frame: options.frame }, output, undefined, options.quality, { planId, overlay: options.overlay });
}
