import { boxesIntersect, fail, mcbError, ok, type Box3, type Result } from "@mcb/blocks";
import type { ChatProject, ChatProjects } from "./ChatProjects.js";
import type { ChatMessage } from "./ChatSource.js";

/** Where chat projects may build, and how big an area may be (server-side limits). */
export interface AreaPolicy {
  /** Every project area lies inside this box (the world's build height; the embedded world's extent). */
  readonly zone: Box3;
  /** Longest horizontal side of an area, in blocks. */
  readonly maxSide: number;
  /** Side of the area a new project gets around its creator (clamped to the zone). */
  readonly defaultSide: number;
}

export const DEFAULT_AREA_POLICY: Omit<AreaPolicy, "zone"> = { maxSide: 512, defaultSide: 64 };

/**
 * `/ai project create` and `/ai area set`: an area must lie inside the zone, have horizontal
 * sides of at most `maxSide`, and not overlap a project of another player (areas are permissions,
 * docs/DESIGN.md "Permissions and secrets"). The engine is updated first; the file only after it accepted.
 */
export class ChatAreas {
  constructor(
    private readonly policy: AreaPolicy,
    private readonly projects: ChatProjects,
  ) {}

  check(area: Box3, ownerId: string, except: string | null): Result<void> {
    const z = this.policy.zone;
    if (area.minX < z.minX || area.minY < z.minY || area.minZ < z.minZ || area.maxX > z.maxX || area.maxY > z.maxY || area.maxZ > z.maxZ)
      return fail(
        mcbError("out_of_bounds", `The area must lie inside x ${z.minX}..${z.maxX}, y ${z.minY}..${z.maxY}, z ${z.minZ}..${z.maxZ}.`, { reason: "zone" }),
      );
    const side = Math.max(area.maxX - area.minX + 1, area.maxZ - area.minZ + 1);
    if (side > this.policy.maxSide)
      return fail(
        mcbError("budget_exceeded", `Areas are at most ${this.policy.maxSide} blocks on a side (this one is ${side}).`, {
          reason: "area_size",
          limit: this.policy.maxSide,
        }),
      );
    const other = this.projects.all().find((p) => p.projectId !== except && p.ownerId !== ownerId && boxesIntersect(p.area, area));
    if (other !== undefined)
      return fail(mcbError("permission_denied", `The area overlaps project ${other.projectId} of another player.`, { reason: "area_taken" }));
    return ok(undefined);
  }

  create(name: string, m: ChatMessage, define: (p: ChatProject) => Result<void>): Result<ChatProject> {
    if (this.projects.get(name) !== undefined || name === "default")
      return fail(mcbError("invalid_request", `A project named ${name} exists.`, { reason: "duplicate_name" }));
    const z = this.policy.zone;
    const half = Math.floor(this.policy.defaultSide / 2);
    const cx = m.position?.x ?? 0,
      cz = m.position?.z ?? 0;
    const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));
    const area: Box3 = {
      minX: clamp(cx - half, z.minX, z.maxX),
      minY: z.minY,
      minZ: clamp(cz - half, z.minZ, z.maxZ),
      maxX: clamp(cx - half + this.policy.defaultSide - 1, z.minX, z.maxX),
      maxY: z.maxY,
      maxZ: clamp(cz - half + this.policy.defaultSide - 1, z.minZ, z.maxZ),
    };
    const checked = this.check(area, m.playerId, null);
    if (!checked.ok) return fail({ ...checked.error, message: `${checked.error.message} Stand elsewhere, or create it and use /ai area set.` });
    const project: ChatProject = {
      projectId: name,
      ownerId: m.playerId,
      ownerName: m.playerName,
      area,
      protectedParts: [],
      createdAt: new Date().toISOString(),
    };
    const defined = define(project);
    if (!defined.ok) return defined;
    this.projects.put(project);
    this.projects.select(m.playerId, name);
    return ok(project);
  }

  setArea(project: ChatProject, area: Box3, define: (p: ChatProject) => Result<void>): Result<ChatProject> {
    const checked = this.check(area, project.ownerId, project.projectId);
    if (!checked.ok) return checked;
    const next = { ...project, area };
    const defined = define(next);
    if (!defined.ok) return defined;
    this.projects.put(next);
    return ok(next);
  }
}
