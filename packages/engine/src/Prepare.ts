import { createHash } from "node:crypto";
import { blockEntityPredicate, blockIdOf, type BlockRegistry, boxContains, fail, inBox, mcbError, type McbError, ok, posKey, type Result, type Vec3 } from "@mcb/blocks";
import { forEachPlanBlock, planHash, type Plan, type RecipeCompiler, type SourceFilter } from "@mcb/recipe";
import type { Journal } from "./Journal.js";
import type { PlanContent } from "./PreparedPlan.js";
import type { EngineLimits, ProjectConfig } from "./Project.js";
import { ConnectionRules } from "./ConnectionRules.js";
import { planConnections, type ConnectionMode } from "./Connections.js";
import { ManualEditTally, mergeOutcome, type ManualEditPolicy, type ManualEditsView } from "./ManualEdits.js";
import { TOUCHED, type StandingIndex } from "./StandingIndex.js";
import { WriteSetBuilder } from "./WriteSet.js";
import type { WorldAdapter, WorldInfo } from "./WorldAdapter.js";
import { readPositions } from "./WorldReader.js";

export interface ExpectedBlock {
  readonly pos: Vec3;
  readonly state: string;
  readonly snapshot_id?: string;
}

export interface BuildPrepareInput {
  /** A recipe JSON value (version 1). Exactly one of `recipe` and `plan`. */
  readonly recipe?: unknown;
  /** A plan compiled by `@mcb/recipe` (library callers); its hash is re-verified. */
  readonly plan?: Plan;
  readonly dependencies?: readonly Vec3[];
  readonly part_id?: string;
  readonly expected_blocks?: readonly ExpectedBlock[];
  /**
   * Connection states of fences, panes, walls and stairs: "auto" computes them from neighbours
   * (and existing neighbours join back), "pinned" keeps them as written. Default: the recipe's
   * own `connections` ("auto" when absent); "pinned" for a compiled plan (schematics, terrain).
   */
  readonly connections?: ConnectionMode;
  /**
   * Where a person changed a block since we wrote it (or placed it where we never built) and the
   * new design differs: "refuse" (default) refuses the plan with the exact positions; "keep"
   * leaves those blocks as the person made them and prepares the rest.
   */
  readonly on_manual_edit?: ManualEditPolicy;
  /**
   * Positions of people's edits to write over anyway, after an explicit owner decision: each must
   * be a person's edit this plan meets, conflicting or kept (others are refused), at most
   * `maxExpectedBlocks`.
   */
  readonly replace?: readonly Vec3[];
}

export interface PrepareDeps {
  readonly registry: BlockRegistry;
  readonly compiler: RecipeCompiler;
  readonly adapter: WorldAdapter;
  readonly journal: Journal;
  readonly limits: EngineLimits;
  readonly connections: ConnectionRules;
  /** Our standing writes (G0), caught up with the journal by the caller. */
  readonly index: StandingIndex;
}

export interface PreparedContent {
  readonly content: PlanContent;
  /** Notes for the caller (connection decisions), shown with the plan's warnings. */
  readonly notes: readonly string[];
  /** What the three-way merge kept or replaced of people's edits. */
  readonly manualEdits: ManualEditsView;
}

function filterMatches(f: SourceFilter, state: string): boolean {
  return f.states.includes(state) || f.ids.includes(blockIdOf(state));
}

const SAMPLE = 8;
const DIGEST = /^[0-9a-f]{64}$/;

/**
 * Compiles (or verifies) the plan, checks area, part mask, expected blocks and block-entity
 * policy against the live world, and returns the checked content (base "before" = current state).
 * Changes nothing. Errors: invalid_request, unsupported_block, out_of_bounds, budget_exceeded,
 * stale_snapshot, version_mismatch, not_found.
 */
export async function prepareContent(
  deps: PrepareDeps,
  project: ProjectConfig,
  world: WorldInfo,
  input: BuildPrepareInput,
): Promise<Result<PreparedContent>> {
  const { limits } = deps;
  if ((input.recipe === undefined) === (input.plan === undefined))
    return fail(mcbError("invalid_request", "give exactly one of recipe and plan", { reason: "recipe_or_plan" }));
  const recipeMode = input.recipe !== undefined && typeof input.recipe === "object" && input.recipe !== null ? (input.recipe as { connections?: unknown }).connections : undefined;
  const mode = input.connections ?? recipeMode ?? (input.plan !== undefined ? "pinned" : "auto");
  if (mode !== "auto" && mode !== "pinned") return fail(mcbError("invalid_request", 'connections must be "auto" or "pinned"', { reason: "connections", allowed: ["auto", "pinned"] }));
  const depList = input.dependencies ?? [];
  if (!Array.isArray(depList)) return fail(mcbError("invalid_request", "dependencies must be an array of {x,y,z}"));
  if (depList.length > limits.maxDependencies)
    return fail(mcbError("budget_exceeded", `more than ${limits.maxDependencies} dependencies`, { limit: limits.maxDependencies }));

  let plan: Plan;
  if (input.plan !== undefined) {
    plan = input.plan;
    if (planHash(plan) !== plan.hash) return fail(mcbError("invalid_request", "plan content does not match its hash", { reason: "plan_hash" }));
    if (depList.length > 0) return fail(mcbError("invalid_request", "a compiled plan carries its dependencies; do not pass them again"));
  } else {
    const compiled = deps.compiler.compile(input.recipe, { dependencies: depList, limits: { maxDependencies: limits.maxDependencies } });
    if (!compiled.ok) return compiled;
    plan = compiled.value;
  }
  if (plan.dataVersion !== world.dataVersion || plan.minecraftVersion !== world.minecraftVersion)
    return fail(mcbError("version_mismatch", `plan targets ${plan.minecraftVersion} (DataVersion ${plan.dataVersion}); the world is ${world.minecraftVersion} (${world.dataVersion})`));
  if (plan.count > limits.maxPlanBlocks)
    return fail(mcbError("budget_exceeded", `plan has ${plan.count} positions; at most ${limits.maxPlanBlocks} per plan, split it into parts`, { limit: limits.maxPlanBlocks, count: plan.count }));
  const reads = plan.reads.length / 3;
  if (plan.count + reads > limits.maxPreparePositions)
    return fail(mcbError("budget_exceeded", `preparation would inspect ${plan.count + reads} positions`, { limit: limits.maxPreparePositions }));

  const area = { ...project.area, minY: Math.max(project.area.minY, world.minY), maxY: Math.min(project.area.maxY, world.maxY) };
  if (plan.bounds !== null && !boxContains(area, plan.bounds))
    return fail(mcbError("out_of_bounds", "plan writes outside the project area", { area: project.area, plan_bounds: plan.bounds }));
  for (let i = 0; i < plan.reads.length; i += 3) {
    if (!inBox(area, plan.reads[i]!, plan.reads[i + 1]!, plan.reads[i + 2]!))
      return fail(mcbError("out_of_bounds", "a dependency lies outside the project area", { area: project.area }));
  }

  const n = plan.count;
  const pos = new Int32Array(n * 3);
  const desired = new Uint32Array(n);
  const filterOf = new Uint16Array(n);
  let k = 0;
  forEachPlanBlock(plan, (x, y, z, s, f) => {
    pos[k * 3] = x;
    pos[k * 3 + 1] = y;
    pos[k * 3 + 2] = z;
    desired[k] = s;
    filterOf[k++] = f;
  });

  let mask: Set<string> | null = null;
  if (input.part_id !== undefined) {
    const part = deps.journal.getPart(input.part_id);
    if (part === null || part.projectId !== project.projectId) return fail(mcbError("not_found", `no part ${JSON.stringify(input.part_id)} in this project`));
    mask = new Set<string>();
    for (let i = 0; i < part.mask.length; i += 3) mask.add(posKey(part.mask[i]!, part.mask[i + 1]!, part.mask[i + 2]!));
    const outside: Vec3[] = [];
    let outsideCount = 0;
    for (let i = 0; i < n; i++) {
      if (!mask.has(posKey(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!))) {
        outsideCount++;
        if (outside.length < SAMPLE) outside.push({ x: pos[i * 3]!, y: pos[i * 3 + 1]!, z: pos[i * 3 + 2]! });
      }
    }
    if (outsideCount > 0)
      return fail(mcbError("out_of_bounds", `${outsideCount} positions lie outside the exact mask of part ${input.part_id}`, { part_id: input.part_id, outside: outsideCount, sample: outside }));
  }

  const expected = checkExpectedShape(deps.registry, input.expected_blocks, pos, n, limits.maxExpectedBlocks);
  if (!expected.ok) return expected;
  const policy = input.on_manual_edit ?? "refuse";
  if (policy !== "refuse" && policy !== "keep") return fail(mcbError("invalid_request", 'on_manual_edit must be "refuse" or "keep"', { reason: "on_manual_edit", allowed: ["refuse", "keep"] }));
  const replace = replaceSet(input.replace, limits.maxExpectedBlocks);
  if (!replace.ok) return replace;

  const blockData = blockDataOf(deps.registry, plan);
  if (blockData !== null && !blockData.ok) return blockData;
  const current = await readPositions(deps.adapter, pos);
  // The positions the plan decides (a replace filter that does not match leaves the world as is),
  // with connection states computed against their neighbours.
  const kept: number[] = [];
  for (let i = 0; i < n; i++) {
    const f = filterOf[i]!;
    if (f === 0 || filterMatches(plan.filters[f - 1]!, current.states[i]!)) kept.push(i);
  }
  const keptPos = new Int32Array(kept.length * 3);
  kept.forEach((i, k) => keptPos.set(pos.subarray(i * 3, i * 3 + 3), k * 3));
  const mayWrite = (x: number, y: number, z: number): string | null =>
    !inBox(area, x, y, z) ? "outside the project area" : mask !== null && !mask.has(posKey(x, y, z)) ? "outside the part" : null;
  const joined = await planConnections(deps.connections, deps.adapter, keptPos, kept.map((i) => plan.palette[desired[i]!]!), mode, mayWrite);
  const entries = deps.index.entries(pos);
  const tally = new ManualEditTally(limits.conflictSampleSize);
  const replaced = new Set<string>();
  const notes = [...joined.notes];
  const desiredOf = new Array<string | undefined>(n);
  kept.forEach((i, k) => (desiredOf[i] = joined.desired[k]!));
  const neighbours = joined.neighbours;
  let nb = 0;
  const out = new WriteSetBuilder();
  /** Adds the existing neighbours that sort before position i (plan order is kept). */
  // A neighbour joining back is our side effect: never written where a person edited the block.
  const addNeighboursBefore = (x: number, y: number, z: number): void => {
    for (; nb < neighbours.length; nb++) {
      const u = neighbours[nb]!;
      if ((u.y - y || u.z - z || u.x - x) >= 0) return;
      const e = deps.index.entryAt(u.x, u.y, u.z);
      if (mergeOutcome(deps.index.standing(e), (e & TOUCHED) !== 0, { state: u.before, digest: u.digest }, { state: u.after, dataDigest: null }) === "write")
        out.add(u.x, u.y, u.z, u.before, u.digest, u.after);
      else notes.push(`${u.before} at ${u.x} ${u.y} ${u.z} was placed or changed by hand: it keeps its connections (not joined to the build)`);
    }
  };
  let unchanged = 0;
  let filtered = 0;
  const stale: unknown[] = [];
  let staleCount = 0;
  const missingDigest: Vec3[] = [];
  const entityLoss: unknown[] = [];
  let entityLossCount = 0;
  for (let i = 0; i < n; i++) {
    const x = pos[i * 3]!, y = pos[i * 3 + 1]!, z = pos[i * 3 + 2]!;
    const c = current.states[i]!;
    const dc = current.digests[i]!;
    const want = expected.value?.[i];
    if (want !== undefined) {
      if (dc !== null && want.snapshot_id === undefined) {
        if (missingDigest.length < SAMPLE) missingDigest.push({ x, y, z });
      } else if (want.state !== c || (want.snapshot_id ?? null) !== dc) {
        staleCount++;
        if (stale.length < SAMPLE) stale.push({ pos: { x, y, z }, expected: want.state, actual: c, data_changed: want.state === c });
      }
    }
    const d = desiredOf[i];
    if (d === undefined) {
      filtered++;
      continue;
    }
    const data = blockData?.ok ? (blockData.value.get(posKey(x, y, z)) ?? null) : null;
    const g0 = deps.index.standing(entries[i]!);
    const outcome = mergeOutcome(g0, (entries[i]! & TOUCHED) !== 0, { state: c, digest: dc }, { state: d, dataDigest: data === null ? null : sha256(data) });
    if (outcome === "unchanged") {
      unchanged++;
      continue;
    }
    if (outcome !== "write") {
      // A person's edit: kept (the design there is unchanged, or on_manual_edit "keep"), refused,
      // or written over because the owner named it in replace.
      const edit = { pos: { x, y, z }, expected: g0?.state ?? null, actual: c, new: d };
      const key = posKey(x, y, z);
      if (replace.value?.has(key) === true) {
        replaced.add(key);
        tally.replace(edit, outcome === "conflict");
      } else {
        if (outcome === "kept" || policy === "keep") tally.keep(edit, outcome === "conflict");
        else tally.refuse(edit);
        continue;
      }
    }
    // Existing block-entity data is never destroyed: not by another block, not by other data (undo
    // could not bring it back: the journal keeps its digest, not the data).
    if (dc !== null && (blockIdOf(c) !== blockIdOf(d) || data !== null)) {
      entityLossCount++;
      if (entityLoss.length < SAMPLE) entityLoss.push({ pos: { x, y, z }, current: c, desired: d, ...(data === null ? {} : { replaces_data: true }) });
      continue;
    }
    addNeighboursBefore(x, y, z);
    out.add(x, y, z, c, dc, d, data);
  }
  addNeighboursBefore(Infinity, Infinity, Infinity);
  if (out.positions().length / 3 > limits.maxPlanBlocks)
    return fail(mcbError("budget_exceeded", `with ${neighbours.length} existing neighbours joining it the plan changes more than ${limits.maxPlanBlocks} blocks; split it`, { limit: limits.maxPlanBlocks }));
  if (missingDigest.length > 0)
    return fail(mcbError("invalid_request", "expected_blocks omits the snapshot_id of a block entity; copy it from region_inspect", { reason: "missing_snapshot_id", sample: missingDigest }));
  if (staleCount > 0)
    return fail(mcbError("stale_snapshot", `${staleCount} expected blocks changed since they were inspected`, { count: staleCount, sample: stale }));
  if (entityLossCount > 0)
    return fail(mcbError("unsupported_block", `${entityLossCount} positions hold block-entity data that the plan would destroy`, { reason: "block_entity_data", count: entityLossCount, sample: entityLoss }));
  if (replace.value !== null && replaced.size < replace.value.size) {
    const extra = [...replace.value.keys()].filter((k) => !replaced.has(k));
    return fail(
      mcbError("invalid_request", `replace names ${extra.length} positions where this plan meets no person's edit; name only positions a conflict or manual_edits listed`, {
        reason: "replace_not_manual_edit",
        count: extra.length,
        sample: extra.slice(0, SAMPLE).map((k) => replace.value!.get(k)!),
      }),
    );
  }
  if (tally.refusedCount > 0)
    return fail(
      mcbError(
        "conflict",
        `${tally.refusedCount === 1 ? "1 block" : `${tally.refusedCount} blocks`} of this plan ${tally.refusedCount === 1 ? "was" : "were"} changed by hand (after we built there, or where we never built) and the new design differs; nothing was prepared. Keep them (on_manual_edit: "keep"), change the design, or, only if the owner says so, name them in replace`,
        tally.refusal(),
      ),
    );

  // Dependencies that are also written are covered by the write's own compare-and-set.
  let depPos = new Int32Array(0);
  if (plan.reads.length > 0) {
    const written = new Set<string>();
    const wp = out.positions();
    for (let i = 0; i < wp.length; i += 3) written.add(posKey(wp[i]!, wp[i + 1]!, wp[i + 2]!));
    const depTriples: number[] = [];
    for (let i = 0; i < plan.reads.length; i += 3) {
      if (!written.has(posKey(plan.reads[i]!, plan.reads[i + 1]!, plan.reads[i + 2]!))) depTriples.push(plan.reads[i]!, plan.reads[i + 1]!, plan.reads[i + 2]!);
    }
    depPos = Int32Array.from(depTriples);
  }
  const depRead = await readPositions(deps.adapter, depPos);
  out.setDependencies(depPos, depRead.states, depRead.digests);
  return ok({
    notes,
    manualEdits: tally.view(),
    content: out.build({
      projectId: project.projectId,
      kind: "build",
      undoOf: null,
      partId: input.part_id ?? null,
      worldId: world.worldId,
      epoch: world.epoch,
      sourceHash: plan.hash,
      unchanged,
      filtered,
    }),
  });
}

/** `replace` as a map from position key to position; null when absent. */
function replaceSet(list: readonly Vec3[] | undefined, max: number): Result<Map<string, Vec3> | null> {
  if (list === undefined) return ok(null);
  if (!Array.isArray(list)) return fail(mcbError("invalid_request", "replace must be an array of {x, y, z}", { reason: "replace" }));
  if (list.length > max) return fail(mcbError("budget_exceeded", `replace has ${list.length} positions; at most ${max}`, { reason: "replace", limit: max }));
  const out = new Map<string, Vec3>();
  for (const [i, p] of list.entries()) {
    if (typeof p !== "object" || p === null || ![p.x, p.y, p.z].every(Number.isSafeInteger))
      return fail(mcbError("invalid_request", `replace entry ${i} must be an integer position {x, y, z}`, { reason: "replace", index: i }));
    const key = posKey(p.x, p.y, p.z);
    if (out.has(key)) return fail(mcbError("invalid_request", `replace names ${key} twice`, { reason: "replace", index: i }));
    out.set(key, { x: p.x, y: p.y, z: p.z });
  }
  return ok(out);
}

/** The plan's block data by position; each must be at a block that has a block entity. */
function blockDataOf(registry: BlockRegistry, plan: Plan): Result<Map<string, Uint8Array>> | null {
  if (plan.blockData.length === 0) return null;
  const isEntity = blockEntityPredicate(registry);
  const states = new Map<string, string>();
  forEachPlanBlock(plan, (x, y, z, s) => states.set(posKey(x, y, z), plan.palette[s]!));
  const out = new Map<string, Uint8Array>();
  for (const d of plan.blockData) {
    const key = posKey(d.x, d.y, d.z);
    const state = states.get(key);
    if (state === undefined || !isEntity(state))
      return fail(mcbError("invalid_request", `block data at ${d.x} ${d.y} ${d.z} for ${state ?? "a position the plan does not write"}, which has no block entity`, { reason: "block_data", pos: { x: d.x, y: d.y, z: d.z } }));
    out.set(key, d.data);
  }
  return ok(out);
}

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Validates expected_blocks: every desired position exactly once, canonical states, digests. */
function checkExpectedShape(
  registry: BlockRegistry,
  list: readonly ExpectedBlock[] | undefined,
  pos: Int32Array,
  n: number,
  max: number,
): Result<(ExpectedBlock | undefined)[] | null> {
  if (list === undefined) return ok(null);
  const bad = (message: string, details?: Record<string, unknown>): Result<never> =>
    fail(mcbError("invalid_request", `expected_blocks: ${message}`, { reason: "expected_blocks", ...details }));
  if (!Array.isArray(list)) return bad("must be an array");
  if (list.length > max) return fail(mcbError("budget_exceeded", `expected_blocks has ${list.length} entries; at most ${max}`, { limit: max }));
  const byKey = new Map<string, ExpectedBlock>();
  for (const [i, e] of list.entries()) {
    const p = e?.pos;
    if (p === undefined || ![p.x, p.y, p.z].every(Number.isSafeInteger)) return bad(`entry ${i} needs integer pos {x,y,z}`);
    if (typeof e.state !== "string") return bad(`entry ${i} needs a state string`);
    if (e.snapshot_id !== undefined && (typeof e.snapshot_id !== "string" || !DIGEST.test(e.snapshot_id)))
      return bad(`entry ${i}: snapshot_id must be 64 lowercase hex characters`);
    const state = registry.resolveState(e.state);
    if (!state.ok) return fail(mcbError(state.error.code, `expected_blocks entry ${i}: ${state.error.message}`, state.error.details));
    const key = posKey(p.x, p.y, p.z);
    if (byKey.has(key)) return bad(`position ${key} appears twice`);
    byKey.set(key, { pos: p, state: state.value.canonical, ...(e.snapshot_id === undefined ? {} : { snapshot_id: e.snapshot_id }) });
  }
  const ordered = new Array<ExpectedBlock | undefined>(n);
  for (let i = 0; i < n; i++) {
    const key = posKey(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!);
    const e = byKey.get(key);
    if (e === undefined) return bad(`must cover every desired position; missing ${key}`, { missing: key });
    ordered[i] = e;
    byKey.delete(key);
  }
  if (byKey.size > 0) return bad(`${byKey.size} entries are not desired positions of the plan`, { extra: [...byKey.keys()].slice(0, SAMPLE) });
  return ok(ordered);
}

export type { McbError };
