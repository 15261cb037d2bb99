import type * as acp from "@agentclientprotocol/sdk";
import type { Box3 } from "@mcb/blocks";
import type { ProjectConfig, RequestContext } from "@mcb/engine";
import type { PortGhosts } from "@mcb/adapter-port";
import type { SchematicLimits } from "@mcb/schematic";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { join } from "node:path";
import type { Workspace } from "../workspace/world/Workspace.js";
import { CameraStore } from "../workspace/capture/CameraStore.js";
import { CaptureCache } from "../workspace/capture/CaptureCache.js";
import { MCP_SERVER_NAME, mcpContextFor, type McpContext } from "../workspace/agent/McpContext.js";
import { TerrainCache } from "../workspace/jobs/TerrainCache.js";
import { agentEnvironment, type AgentConfig } from "./AgentConfig.js";
import { ChatAreas, type AreaPolicy } from "./ChatAreas.js";
import { PlanGhosts } from "../workspace/ghost/PlanGhosts.js";
import { CHAT_HELP, PREVIEW_REQUEST, parseChatCommand, type ChatCommand } from "./ChatCommands.js";
import { ChatProjects, type ChatProject } from "./ChatProjects.js";
import { ChatSender } from "./ChatSender.js";
import type { ChatMessage, ChatSource } from "./ChatSource.js";
import { McpRelay } from "./McpRelay.js";
import { ProgressLines } from "./ProgressLines.js";
import type { JobProgress } from "../workspace/jobs/JobProgress.js";
import { ProjectTurns, projectWorkDir } from "./ProjectTurns.js";
import { SessionStore } from "./SessionStore.js";
import { activeOperations, stopProject, undoForPlayer } from "./WorldActions.js";

export interface ChatBridgeOptions {
  readonly world: Workspace;
  readonly source: ChatSource;
  /** Null: no agent configured (requests are answered with what is missing). */
  readonly agent: AgentConfig | null;
  readonly area: AreaPolicy;
  /** The console player, who starts in the embedded default project. */
  readonly consolePlayer?: { readonly playerId: string; readonly projectId: string };
  readonly log?: (line: string) => void;
  /** The MCP server the relay serves each project's agent (the composition root passes the tools' server). */
  readonly mcpServer: (context: McpContext) => McpServer;
  /** The limits policy of the schematic library, as `mcb mcp` applies it. */
  readonly schematicLimits: SchematicLimits;
  /** The command line an agent runs to reach the relay: `node <bin> mcp --attach`. */
  readonly attachCommand: { readonly command: string; readonly args: readonly string[] };
  /** How long `/ai stop` waits for an agent to end its turn before terminating it (default `CANCEL_GRACE_MS`). */
  readonly cancelGraceMs?: number;
  /** The server's ghost previews (players in game); absent on the console and on saves. */
  readonly ghosts?: PortGhosts;
  /** How often the owner is told how an agent's long job goes (default `PROGRESS_EVERY_MS`). */
  readonly progressEveryMs?: number;
}

/**
 * `mcb chat`: reads `/ai` messages (game or console), runs chat commands, and forwards requests to
 * one ACP agent per project whose MCP tools act, through the relay, with the project and player
 * the server reported — never ones named in the text. Replies go to the initiating player only.
 */
export class ChatBridge {
  private readonly turns = new Map<string, ProjectTurns>();
  private readonly sender: ChatSender;
  private readonly sessions: SessionStore;
  private readonly areas: ChatAreas;
  private readonly cameras: CameraStore;
  private readonly pending = new Set<Promise<void>>();
  private readonly log: (line: string) => void;
  private readonly previews: PlanGhosts;

  private constructor(
    private readonly o: ChatBridgeOptions,
    private readonly projects: ChatProjects,
    private readonly relay: McpRelay,
  ) {
    this.sender = new ChatSender((p, t) => o.source.reply(p, t));
    this.sessions = new SessionStore(o.world.dir);
    this.areas = new ChatAreas(o.area, projects);
    this.cameras = new CameraStore(o.world.dir);
    this.previews = new PlanGhosts(o.world.engine, o.ghosts ?? null);
    this.log = o.log ?? ((l) => process.stderr.write(`mcb chat: ${l}\n`));
  }

  static async open(o: ChatBridgeOptions): Promise<ChatBridge> {
    const projects = ChatProjects.open(o.world.dir);
    if (!projects.ok) throw Object.assign(new Error(projects.error.message), { mcb: projects.error });
    for (const p of projects.value.all()) {
      const r = o.world.engine.defineProject(engineProject(p));
      if (!r.ok) throw new Error(`stored project ${p.projectId}: ${r.error.message}`);
    }
    const c = o.consolePlayer;
    if (c !== undefined && projects.value.get(c.projectId) === undefined) {
      const scope = o.world.engine.projectScope({ principal: { playerId: c.playerId, role: "agent" }, projectId: c.projectId });
      if (!scope.ok) throw new Error(`the console player has no access to project ${c.projectId}`);
      projects.value.put({
        projectId: c.projectId,
        ownerId: c.playerId,
        ownerName: "console",
        area: scope.value.area,
        protectedParts: [],
        createdAt: new Date().toISOString(),
      });
    }
    if (c !== undefined && projects.value.activeOf(c.playerId) === undefined) projects.value.select(c.playerId, c.projectId);
    return new ChatBridge(o, projects.value, await McpRelay.start());
  }

  /** Serves until the source ends (console input closed) or `signal` aborts; then drains and closes. */
  async run(signal?: AbortSignal): Promise<void> {
    while (!this.o.source.ended && signal?.aborted !== true) {
      let messages: readonly ChatMessage[];
      try {
        messages = await this.o.source.poll();
      } catch (e) {
        this.log(`chat poll failed: ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      for (const m of messages) this.track(this.handle(m));
    }
    if (signal?.aborted === true)
      // shutting down: running turns are cancelled (an agent that ignores it is terminated), queues dropped
      await Promise.all([...this.turns.values()].map((t) => (t.clearQueue(), t.cancel())));
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    await Promise.all([...this.turns.values()].map((t) => t.idle()));
    await this.sender.idleAll();
    await this.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.turns.values()].map((t) => t.stopAgent()));
    await this.relay.close();
  }

  private track(p: Promise<void>): void {
    const q = p.catch((e: unknown) => this.log(`message failed: ${e instanceof Error ? e.message : String(e)}`)).finally(() => this.pending.delete(q));
    this.pending.add(q);
  }

  private say(playerId: string, text: string): void {
    this.sender.send(playerId, text);
  }

  private projectOf(m: ChatMessage): ChatProject | null {
    const id = this.projects.activeOf(m.playerId);
    const p = id === undefined ? undefined : this.projects.get(id);
    return p !== undefined && p.ownerId === m.playerId ? p : null;
  }

  /** The owner's agent acting in the project; its operations say they came through the chat. */
  private ctxOf(p: ChatProject): RequestContext {
    return { principal: { playerId: p.ownerId, role: "agent", client: "mcb chat" }, projectId: p.projectId };
  }

  private async handle(m: ChatMessage): Promise<void> {
    const cmd = parseChatCommand(m.text);
    const who = m.playerId;
    switch (cmd.kind) {
      case "usage":
        return this.say(who, cmd.message);
      case "help":
        for (const line of CHAT_HELP) this.say(who, line);
        return;
      case "project_create": {
        const r = this.areas.create(cmd.name, m, (p) => this.o.world.engine.defineProject(engineProject(p)));
        return this.say(who, r.ok ? `Project ${cmd.name} created and selected: ${areaText(r.value.area)}.` : r.error.message);
      }
      case "project_use": {
        const p = this.projects.get(cmd.name);
        if (p === undefined || p.ownerId !== who) return this.say(who, `You have no project named ${cmd.name}.`);
        this.projects.select(who, p.projectId);
        return this.say(who, `Using project ${p.projectId}: ${areaText(p.area)}.`);
      }
      default:
        break;
    }
    const project = this.projectOf(m);
    if (project === null) return this.say(who, "You have no project selected: /ai project create <name> (an area around you), or /ai project use <name>.");
    return this.inProject(m, cmd, project);
  }

  /** A command or request in the player's selected project. */
  private async inProject(m: ChatMessage, cmd: ProjectCommand, project: ChatProject): Promise<void> {
    const who = m.playerId;
    const ctx = this.ctxOf(project);
    const engine = this.o.world.engine;
    // After /ai stop, writing stays paused until the owner's next request (docs/CHAT.md); these are requests.
    if (cmd.kind === "undo" || cmd.kind === "protect" || cmd.kind === "area_set" || cmd.kind === "apply")
      engine.setAccess(project.projectId, project.ownerId, true);
    switch (cmd.kind) {
      case "area_set": {
        if (this.turnsOf(project).running !== null) return this.say(who, "A request is running; /ai stop it before changing the area.");
        const r = this.areas.setArea(project, cmd.box, (p) => engine.defineProject(engineProject(p)));
        return this.say(who, r.ok ? `Area of ${project.projectId} set: ${areaText(cmd.box)}.` : r.error.message);
      }
      case "status":
        return this.status(who, project);
      case "stop": {
        const turns = this.turnsOf(project);
        const dropped = turns.clearQueue();
        const report = await stopProject(engine, project, turns);
        for (const line of report) this.say(who, line);
        if (dropped > 0) this.say(who, `${dropped} queued request${dropped === 1 ? "" : "s"} dropped.`);
        return;
      }
      case "undo":
        return this.say(who, await undoForPlayer(engine, ctx, cmd.operationId));
      case "camera_save": {
        if (m.position === undefined || m.look === undefined)
          return this.say(who, "Your position and view are unknown here; on the console use mcb camera save <name> -- x y z yaw pitch.");
        const saved = this.cameras.save(cmd.name, {
          x: m.position.x + 0.5,
          y: m.position.y,
          z: m.position.z + 0.5,
          yaw: m.look.yaw,
          pitch: Math.max(-90, Math.min(90, m.look.pitch)),
        });
        return this.say(who, saved.ok ? `Camera ${cmd.name} saved at your position and view.` : saved.error.message);
      }
      case "protect": {
        const r = engine.protectPart(ctx, cmd.partId, cmd.on);
        if (!r.ok) return this.say(who, r.error.message);
        this.projects.put({ ...project, protectedParts: engine.protectedParts(project.projectId) });
        return this.say(
          who,
          `Part ${r.value.name} (${r.value.part_id}, ${r.value.count} blocks) ${cmd.on ? "is protected from agent changes" : "is no longer protected"}.`,
        );
      }
      case "preview_again": {
        const pending = this.previews.pendingOf(who);
        if (pending === undefined) return this.say(who, "Nothing is previewed: /ai preview <request> first.");
        const shown = await this.previews.show(who, this.ctxOf(this.projects.get(pending.projectId) ?? project), pending.planId);
        return this.say(who, shown.ok ? shown.value.note : `Cannot show the preview again: ${shown.error.message}`);
      }
      case "apply":
        return this.say(who, await this.previews.apply(who, ctx));
      case "discard":
        return this.say(who, await this.previews.discard(who));
      case "preview":
        return this.submit(m, project, PREVIEW_REQUEST + cmd.text);
      case "prompt":
        return this.submit(m, project, cmd.text);
    }
  }

  /** A request to the project's agent: run now or queued behind the running one. */
  private submit(m: ChatMessage, project: ChatProject, text: string): void {
    const who = m.playerId;
    if (this.o.agent === null) return this.say(who, "No agent is configured: install the optional codex-acp or set MCB_ACP_COMMAND (see mcb doctor).");
    const turns = this.turnsOf(project);
    const busy = turns.running !== null;
    if (!turns.submit({ ...m, text })) return this.say(who, "The queue of this project is full (8 requests); try again later.");
    if (busy) this.say(who, `Queued (${turns.queued} waiting): one request runs at a time in a project.`);
  }

  private turnsOf(project: ChatProject): ProjectTurns {
    let t = this.turns.get(project.projectId);
    if (t !== undefined) return t;
    const agent = this.o.agent!;
    const engine = this.o.world.engine;
    const world = this.o.world;
    const ctx = this.ctxOf(project);
    const owner = project.ownerId;
    const lines = new ProgressLines((text) => this.say(owner, text), this.o.progressEveryMs);
    const shared = {
      terrain: new TerrainCache(),
      captures: new CaptureCache(),
      cameras: this.cameras,
      // An agent's preview goes to the project's owner, the only player whose requests it answers.
      showPlan: async (planId: string): Promise<string> => {
        const shown = await this.previews.show(owner, ctx, planId);
        if (shown.ok) this.say(owner, shown.value.note);
        return shown.ok ? shown.value.note : `not shown in game: ${shown.error.message}`;
      },
      // A one-call paste, terrain job or batch undo: the owner sees it move while the agent waits.
      jobProgress: (p: JobProgress) => lines.report(p),
    };
    const token = this.relay.grant(() => this.o.mcpServer(mcpContextFor(world, ctx, this.o.schematicLimits, shared)));
    const mcp: acp.McpServerStdio = {
      name: MCP_SERVER_NAME,
      command: this.o.attachCommand.command,
      args: [...this.o.attachCommand.args],
      env: [
        { name: "MCB_CHAT_MCP", value: this.relay.address },
        { name: "MCB_CHAT_MCP_TOKEN", value: token },
      ],
    };
    const cwd = projectWorkDir(world.dir, project.projectId);
    t = new ProjectTurns(
      {
        projectId: project.projectId,
        cwd,
        area: () => this.projects.get(project.projectId)?.area ?? project.area,
        launch: () => ({ command: agent.command, args: agent.args, cwd, env: agentEnvironment(agent, process.env, join(world.dir, "chat", "agent-home")) }),
        mcpServer: () => mcp,
        model: agent.model,
        say: (p, text) => this.say(p, text),
        log: (l) => this.log(`[${project.projectId}] ${l}`),
        beforeTurn: () => engine.setAccess(project.projectId, project.ownerId, true),
        ...(this.o.cancelGraceMs === undefined ? {} : { cancelGraceMs: this.o.cancelGraceMs }),
      },
      this.sessions,
    );
    this.turns.set(project.projectId, t);
    return t;
  }

  private async status(who: string, project: ChatProject): Promise<void> {
    const turns = this.turns.get(project.projectId);
    const running = turns?.running;
    this.say(who, `Project ${project.projectId}: ${areaText(project.area)}; ${project.protectedParts.length} protected part(s).`);
    this.say(who, running ? `Request running: ${JSON.stringify(running.message.text.slice(0, 80))}; ${turns!.queued} queued.` : "No request running.");
    const active = await activeOperations(this.o.world.engine, project.projectId);
    this.say(
      who,
      active.length === 0 ? "No world change running." : active.map((op) => `${op.operation_id} ${op.status} ${op.written}/${op.total}`).join("; "),
    );
    this.say(
      who,
      this.o.agent === null
        ? "Agent: none is configured (the person running mcb chat: see mcb doctor)."
        : (turns?.agentState ?? "Agent: starts with the next request."),
    );
    const pending = this.previews.pendingOf(who);
    if (pending !== undefined)
      this.say(who, `Preview of ${pending.blocks.toLocaleString("en-US")} blocks waiting (${pending.planId}): /ai apply builds it, /ai discard drops it.`);
    this.say(who, `Camera: captures render from the world's blocks (no live client); ${this.cameras.list().length} saved viewpoint(s).`);
  }
}

/** The commands that act in the player's selected project. */
type ProjectCommand = Exclude<ChatCommand, { kind: "usage" | "help" | "project_create" | "project_use" }>;

/** The engine's definition of a chat project. */
function engineProject(p: ChatProject): ProjectConfig {
  return { projectId: p.projectId, ownerId: p.ownerId, area: p.area, protectedParts: p.protectedParts };
}

export function areaText(a: Box3): string {
  return `x ${a.minX}..${a.maxX}, y ${a.minY}..${a.maxY}, z ${a.minZ}..${a.maxZ}`;
}
