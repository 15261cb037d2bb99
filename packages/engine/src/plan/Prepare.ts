import {
  blockEntityPredicate,
  blockIdOf,
  type BlockRegistry,
  type Box3,
  boxContains,
  fail,
  inBox,
  mcbError,
  type McbError,
  ok,
  posKey,
  type Result,
  type Vec3,
} from "@mcb/blocks";
import { forEachPlanBlock, planHash, type Plan, type RecipeCompiler, type SourceFilter } from "@mcb/recipe";
import { findPart } from "../parts/PartLookup.js";
import type { PartJournal } from "../store/Journal.js";
import type { PlanContent } from "../core/PreparedPlan.js";
import { outsideArea, type EngineLimits, type ProjectConfig } from "../core/Project.js";
import type { ConnectionRules } from "./ConnectionRules.js";
import { planConnections, type ConnectionMode, type NeighbourUpdate } from "./Connections.js";
import type { ManualEditsView } from "../merge/ManualEdits.js";
import { checkExpectedShape, readEditResolution, readPlanSource, SAMPLE, type BuildPrepareInput } from "./PrepareInput.js";
import { PrepareMerge, type MergeTarget } from "./PrepareMerge.js";
import type { StandingIndex } from "../merge/StandingIndex.js";
import { WriteSetBuilder } from "./WriteSet.js";
import type { WorldAdapter, WorldInfo, WriteRefusal } from "../world/WorldAdapter.js";
import { readPositions, type PositionsRead, type RefusalSink } from "../world/WorldReader.js";

export type { BuildPrepareInput, ExpectedBlock } from "./PrepareInput.js";

export interface PrepareDeps {
  readonly registry: BlockRegistry;
  readonly compiler: RecipeCompiler;
  readonly adapter: WorldAdapter;
  readonly journal: PartJournal;
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

/** The plan's positions, desired palette indices and filter numbers, in plan order. */
interface Positions {
  readonly n: number;
  readonly pos: Int32Array;
  readonly desired: Uint32Array;
  readonly filterOf: Uint16Array;
}

/** What the design wants where, after filters and connections, against the world now. */
interface Targets {
  readonly current: PositionsRead;
  /** Per position; undefined where a replace filter leaves the world as it is. */
  readonly desiredOf: (string | undefined)[];
  readonly neighbours: readonly NeighbourUpdate[];
  readonly notes: string[];
}

/**
 * Compiles (or verifies) the plan, checks area, part mask, expected blocks and block-entity
 * policy against the live world, merges each position three ways with people's edits, and
 * returns the checked content (base "before" = current state). Changes nothing. The steps, in
 * order (each refusal names the first problem found): the plan source, the plan, the area, the
 * part mask, the expected blocks and edit resolution, the block data, the targets, the merge,
 * the dependencies. Errors: invalid_request, unsupported_block, out_of_bounds, budget_exceeded,
 * stale_snapshot, version_mismatch, not_found, conflict (people's edits).
 */
export async function prepareContent(deps: PrepareDeps, project: ProjectConfig, world: WorldInfo, input: BuildPrepareInput): Promise<Result<PreparedContent>> {
  const { limits } = deps;
  const source = readPlanSource(input, limits);
  if (!source.ok) return source;
  const resolved = resolvePlan(deps, input, source.value.dependencies, world);
  if (!resolved.ok) return resolved;
  const plan = resolved.value;
  const area = writableArea(project, world);
  const placed = checkArea(plan, area, project);
  if (!placed.ok) return placed;
  const at = planPositions(plan);
  const mask = partMask(deps.journal, project, input.part_id, at);
  if (!mask.ok) return mask;
  const expected = checkExpectedShape(deps.registry, input.expected_blocks, at.pos, at.n, limits.maxExpectedBlocks);
  if (!expected.ok) return expected;
  const resolution = readEditResolution(input, limits);
  if (!resolution.ok) return resolution;
  const blockData = blockDataOf(deps.registry, plan);
  if (blockData !== null && !blockData.ok) return blockData;

  const unwritable: RefusalSink = new Map();
  const targets = await decideTargets(
    deps,
    plan,
    at,
    source.value.mode,
    (x, y, z) =>
      !inBox(area, x, y, z) ? "outside the project area" : mask.value !== null && !mask.value.mask.has(posKey(x, y, z)) ? "outside the part" : null,
    unwritable,
  );
  const out = new WriteSetBuilder();
  const merge = new PrepareMerge(deps.index, resolution.value, targets.neighbours, targets.notes, out, limits.conflictSampleSize);
  const entries = deps.index.entries(at.pos);
  const data = blockData?.ok ? blockData.value : null;
  const t: MergeTarget = { x: 0, y: 0, z: 0, current: "", digest: null, desired: undefined, data: null, entry: 0, expected: undefined };
  for (let i = 0; i < at.n; i++) {
    ((t.x = at.pos[i * 3]!), (t.y = at.pos[i * 3 + 1]!), (t.z = at.pos[i * 3 + 2]!));
    ((t.current = targets.current.states[i]!), (t.digest = targets.current.digests[i]!));
    t.desired = targets.desiredOf[i];
    t.data = t.desired === undefined ? null : (data?.get(posKey(t.x, t.y, t.z)) ?? null);
    t.entry = entries[i]!;
    t.expected = expected.value?.[i];
    merge.position(t);
  }
  merge.finish();
  const refused = merge.refusal(limits.maxPlanBlocks);
  if (refused !== null) return fail(refused);
  const blocked = refusedChunk(out.positions(), unwritable);
  if (blocked !== null) return fail(blocked);
  if (mask.value !== null) {
    const inside = outsidePart(mask.value.partId, mask.value.mask, out.positions()); // what a replace writes, now that it met the world
    if (!inside.ok) return inside;
  }

  await addDependencies(deps.adapter, plan, out);
  return ok({
    notes: merge.notes,
    manualEdits: merge.manualEdits(),
    content: out.build({
      projectId: project.projectId,
      kind: "build",
      undoOf: null,
      partId: mask.value?.partId ?? null,
      worldId: world.worldId,
      epoch: world.epoch,
      sourceHash: plan.planHash,
      unchanged: merge.unchanged,
      filtered: merge.filtered,
    }),
  });
}

/** The plan: a compiled one verified against its hash, or the recipe compiled; for this world's version and within the budgets. */
function resolvePlan(deps: PrepareDeps, input: BuildPrepareInput, dependencies: readonly Vec3[], world: WorldInfo): Result<Plan> {
  const { limits } = deps;
  let plan: Plan;
  if (input.plan !== undefined) {
    plan = input.plan;
    if (planHash(plan) !== plan.planHash) return fail(mcbError("invalid_request", "plan content does not match its hash", { reason: "plan_hash" }));
    if (dependencies.length > 0) return fail(mcbError("invalid_request", "a compiled plan carries its dependencies; do not pass them again"));
  } else {
    const compiled = deps.compiler.compile(input.recipe, { dependencies, limits: { maxDependencies: limits.maxDependencies } });
    if (!compiled.ok) return compiled;
    plan = compiled.value;
  }
  if (plan.dataVersion !== world.dataVersion || plan.minecraftVersion !== world.minecraftVersion)
    return fail(
      mcbError(
        "version_mismatch",
        `plan targets ${plan.minecraftVersion} (DataVersion ${plan.dataVersion}); the world is ${world.minecraftVersion} (${world.dataVersion})`,
      ),
    );
  if (plan.count > limits.maxPlanBlocks)
    return fail(
      mcbError(
        "budget_exceeded",
        `plan has ${plan.count} positions; at most ${limits.maxPlanBlocks} per plan: split it into parts, one prepare each (a schematic pastes in tiles: tile_index 0, 1, …)`,
        {
          ways_out: ["split_into_parts", "paste_in_tiles"],
          limit: limits.maxPlanBlocks,
          count: plan.count,
        },
      ),
    );
  const reads = plan.reads.length / 3;
  if (plan.count + reads > limits.maxPreparePositions)
    return fail(
      mcbError(
        "budget_exceeded",
        `preparation would inspect ${plan.count + reads} positions (at most ${limits.maxPreparePositions}): split it into parts, or depend on fewer positions`,
        {
          ways_out: ["split_into_parts", "fewer_dependencies"],
          limit: limits.maxPreparePositions,
        },
      ),
    );
  return ok(plan);
}

/** The project area cut to the world's height. */
function writableArea(project: ProjectConfig, world: WorldInfo): Box3 {
  return { ...project.area, minY: Math.max(project.area.minY, world.minY), maxY: Math.min(project.area.maxY, world.maxY) };
}

/** Every write and every dependency inside the area (errors name the project's own area). */
function checkArea(plan: Plan, area: Box3, project: ProjectConfig): Result<null> {
  if (plan.bounds !== null && !boxContains(area, plan.bounds)) return fail(outsideArea("the plan writes", project, { plan_bounds: plan.bounds }));
  for (let i = 0; i < plan.reads.length; i += 3) {
    if (!inBox(area, plan.reads[i]!, plan.reads[i + 1]!, plan.reads[i + 2]!)) return fail(outsideArea("a dependency lies", project));
  }
  return ok(null);
}

function planPositions(plan: Plan): Positions {
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
  return { n, pos, desired, filterOf };
}

/** A `part_id` rebuild (a part's id or name): the part and its exact mask, which every position must lie in; null without one. */
function partMask(
  journal: PartJournal,
  project: ProjectConfig,
  idOrName: string | undefined,
  at: Positions,
): Result<{ partId: string; mask: Set<string> } | null> {
  if (idOrName === undefined) return ok(null);
  const found = findPart(journal, project.projectId, idOrName);
  if (!found.ok) return found;
  const part = found.value;
  const partId = part.partId;
  const mask = new Set<string>();
  for (let i = 0; i < part.mask.length; i += 3) mask.add(posKey(part.mask[i]!, part.mask[i + 1]!, part.mask[i + 2]!));
  // A replace's positions count only where it writes (checked once its filter met the world: `outsidePart`).
  const outside = outsidePart(partId, mask, at.pos, (i) => at.filterOf[i] === 0);
  if (!outside.ok) return outside;
  return ok({ partId, mask });
}

/** Refused when positions (those `counted`) of a `part_id` rebuild lie outside the part's exact mask. */
function outsidePart(partId: string, mask: ReadonlySet<string>, pos: ArrayLike<number>, counted: (i: number) => boolean = () => true): Result<void> {
  const sample: Vec3[] = [];
  let count = 0;
  for (let i = 0; i < pos.length / 3; i++) {
    if (!counted(i) || mask.has(posKey(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!))) continue;
    count++;
    if (sample.length < SAMPLE) sample.push({ x: pos[i * 3]!, y: pos[i * 3 + 1]!, z: pos[i * 3 + 2]! });
  }
  if (count === 0) return ok(undefined);
  return fail(mcbError("out_of_bounds", `${count} positions lie outside the exact mask of part ${partId}`, { part_id: partId, outside: count, sample }));
}

/**
 * Reads the world at every position, keeps the positions the plan decides (a replace filter that
 * does not match leaves the world as it is) and computes their connection states against their
 * neighbours (`mayWrite` says where a neighbour may not be joined).
 */
async function decideTargets(
  deps: PrepareDeps,
  plan: Plan,
  at: Positions,
  mode: ConnectionMode,
  mayWrite: (x: number, y: number, z: number) => string | null,
  sink: RefusalSink,
): Promise<Targets> {
  const current = await readPositions(deps.adapter, at.pos, 0, at.n, sink);
  const kept: number[] = [];
  for (let i = 0; i < at.n; i++) {
    const f = at.filterOf[i]!;
    if (f === 0 || filterMatches(plan.filters[f - 1]!, current.states[i]!)) kept.push(i);
  }
  const keptPos = new Int32Array(kept.length * 3);
  kept.forEach((i, k) => keptPos.set(at.pos.subarray(i * 3, i * 3 + 3), k * 3));
  // A neighbour in a chunk the world will not write is left as it is (and named), like one outside the area.
  const writable = (x: number, y: number, z: number): string | null =>
    mayWrite(x, y, z) ?? (sink.has(`${x >> 4},${z >> 4}`) ? "in a chunk the world does not write" : null);
  const joined = await planConnections(
    deps.connections,
    deps.adapter,
    keptPos,
    kept.map((i) => plan.palette[at.desired[i]!]!),
    mode,
    writable,
    sink,
  );
  const desiredOf = new Array<string | undefined>(at.n);
  kept.forEach((i, k) => (desiredOf[i] = joined.desired[k]!));
  return { current, desiredOf, neighbours: joined.neighbours, notes: [...joined.notes] };
}

/** The world's refusal for the first write into a chunk it does not write, or null (the check before any operation starts). */
function refusedChunk(writes: readonly number[], unwritable: RefusalSink): McbError | null {
  if (unwritable.size === 0) return null;
  let count = 0;
  let first: WriteRefusal | undefined;
  for (let i = 0; i < writes.length; i += 3) {
    const u = unwritable.get(`${writes[i]! >> 4},${writes[i + 2]! >> 4}`);
    if (u === undefined) continue;
    first ??= u;
    count++;
  }
  if (first === undefined) return null;
  const where = first.code === "world_damaged" ? "a damaged part of the world" : "chunks the world does not write";
  return mcbError(first.code, `${count} of the plan's writes fall in ${where}; ${first.message}`, {
    reason: "chunk_not_writable",
    // A damaged world names the damage (reason corrupt_region, the file, every damaged chunk).
    ...(first.code === "world_damaged" ? first.details : {}),
    chunk: first.chunk,
    writes: count,
  });
}

function filterMatches(f: SourceFilter, state: string): boolean {
  return f.states.includes(state) || f.ids.includes(blockIdOf(state));
}

/** Reads the plan's dependencies into the write set; those also written are covered by the write's own compare-and-set. */
async function addDependencies(adapter: WorldAdapter, plan: Plan, out: WriteSetBuilder): Promise<void> {
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
  const depRead = await readPositions(adapter, depPos);
  out.setDependencies(depPos, depRead.states, depRead.digests);
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
      return fail(
        mcbError("invalid_request", `block data at ${d.x} ${d.y} ${d.z} for ${state ?? "a position the plan does not write"}, which has no block entity`, {
          reason: "block_data",
          pos: { x: d.x, y: d.y, z: d.z },
        }),
      );
    out.set(key, d.data);
  }
  return ok(out);
}

export type { McbError };
