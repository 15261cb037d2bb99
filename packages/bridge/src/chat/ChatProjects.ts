import { join } from "node:path";
import { type Box3, fail, mcbError, ok, type Result } from "@mcb/blocks";
import { readJson, writeJsonAtomic } from "../workspace/world/JsonFile.js";

/** A chat project: its owner (the server's player UUID), area and protected parts. */
export interface ChatProject {
  readonly projectId: string;
  readonly ownerId: string;
  readonly ownerName: string;
  readonly area: Box3;
  readonly protectedParts: readonly string[];
  readonly createdAt: string;
}

interface State {
  readonly format: "mcb-chat-projects/1";
  readonly projects: Record<string, ChatProject>;
  /** Each player's selected project. */
  readonly active: Record<string, string>;
}

function isBox(b: unknown): b is Box3 {
  const o = b as Record<string, unknown> | null;
  return o !== null && typeof o === "object" && ["minX", "minY", "minZ", "maxX", "maxY", "maxZ"].every((k) => Number.isSafeInteger(o[k]));
}

/**
 * `chat/projects.json` in the state directory: the projects players created through chat and each
 * player's selected project, replaced atomically (0600). A malformed file is an error at start-up,
 * never silently reset.
 */
export class ChatProjects {
  private state: State;
  private readonly file: string;

  private constructor(file: string, state: State) {
    this.file = file;
    this.state = state;
  }

  static open(stateDir: string): Result<ChatProjects> {
    const file = join(stateDir, "chat", "projects.json");
    let raw: unknown;
    try {
      raw = readJson(file);
    } catch (e) {
      return fail(mcbError("invalid_request", `cannot read ${file}: ${(e as Error).message}; fix or move it away`, { reason: "chat_state" }));
    }
    if (raw === null) return ok(new ChatProjects(file, { format: "mcb-chat-projects/1", projects: {}, active: {} }));
    const s = raw as Partial<State>;
    const projects = s.projects ?? {};
    const valid =
      s.format === "mcb-chat-projects/1" &&
      typeof projects === "object" &&
      typeof s.active === "object" &&
      Object.values(projects).every(
        (p) => typeof p?.projectId === "string" && typeof p.ownerId === "string" && isBox(p.area) && Array.isArray(p.protectedParts),
      );
    if (!valid) return fail(mcbError("invalid_request", `${file} is not an mcb chat project file; fix or move it away`, { reason: "chat_state" }));
    return ok(new ChatProjects(file, s as State));
  }

  get(projectId: string): ChatProject | undefined {
    return Object.hasOwn(this.state.projects, projectId) ? this.state.projects[projectId] : undefined;
  }

  all(): readonly ChatProject[] {
    return Object.values(this.state.projects);
  }

  activeOf(playerId: string): string | undefined {
    return Object.hasOwn(this.state.active, playerId) ? this.state.active[playerId] : undefined;
  }

  put(project: ChatProject): void {
    this.save({ ...this.state, projects: { ...this.state.projects, [project.projectId]: project } });
  }

  select(playerId: string, projectId: string): void {
    this.save({ ...this.state, active: { ...this.state.active, [playerId]: projectId } });
  }

  private save(next: State): void {
    writeJsonAtomic(this.file, next);
    this.state = next;
  }
}
