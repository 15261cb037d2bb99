#!/usr/bin/env node
/**
 * A scripted ACP agent for tests: real ACP over stdio (`@agentclientprotocol/sdk` agent API) and
 * real MCP calls to the server named in `session/new`'s mcpServers entry. No model: the request
 * text picks a script. Sessions are persisted in `scripted-sessions.json` of the working directory
 * so `session/load` works across restarts (history is replayed as updates, as real agents do).
 *
 *   "tower"          project_context, build_prepare a 5×5×8 tower next to the player, build_apply,
 *                    wait with progress, camera_capture, part_define, report
 *   "wall"           prepare and apply a large build, report its operation, wait (for /ai stop)
 *   "slow"           ~1.5 s of progress messages (queue tests)
 *   "stubborn"       ignores session/cancel for 30 s
 *   "crash"          exits in the middle of the turn
 *   "identity"       reports project_context's project and area (forged-identity tests)
 *   "chatter"        streams a long text in small chunks (sentence assembly, length and rate limits)
 *   "permission"     asks the client for permission twice: a shell command and one of our tools
 *   "history"        reports whether the guidance and the project summary reached it
 *
 * The chat stage's acceptance ("keep my windows"), on a tower next to the player:
 *   "tower with a roof"      walls (hollow 5×5×8) and a stepped roof, parts "tower walls" and "tower roof"
 *   "copper roof"            rebuilds the roof inside its part (part_id), in cut copper
 *   "two floors"             part_diff of the walls (the person's edits), the old roof cleared inside
 *                            its part and the part deleted, the walls 8 levels taller (people's
 *                            edits kept), a new roof on top as "tower roof"
 *   "stairs"                 stairs across the wall row of the window: refused, and the exact
 *                            intersection reported
 */
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import * as acp from "@agentclientprotocol/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const MODELS = ["scripted-small", "scripted-large"];

interface Session {
  readonly id: string;
  model: string;
  mcp: Client | null;
  cancelled: boolean;
  history: { role: "user" | "agent"; text: string }[];
}

const sessions = new Map<string, Session>();
const store = join(process.cwd(), "scripted-sessions.json");

function persisted(): Record<string, Session["history"]> {
  try {
    return JSON.parse(readFileSync(store, "utf8")) as Record<string, Session["history"]>;
  } catch {
    return {};
  }
}

function persist(s: Session): void {
  writeFileSync(store, JSON.stringify({ ...persisted(), [s.id]: s.history }));
}

async function connectMcp(servers: acp.McpServer[]): Promise<Client> {
  const entry = servers[0];
  if (entry === undefined || !("command" in entry)) throw new Error("no stdio MCP server was given");
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: Object.fromEntries(entry.env.map((e) => [e.name, e.value])),
    stderr: "inherit",
  });
  const client = new Client({ name: "scripted-agent", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool's structured refusal: `{code, message, details}` as the server sent it. */
class ToolError extends Error {
  constructor(
    name: string,
    readonly error: { code?: string; details?: Record<string, unknown> },
    text: string,
  ) {
    super(`${name}: ${text.slice(0, 300)}`);
  }
}

async function tool(s: Session, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await s.mcp!.callTool({ name, arguments: args });
  const structured = r.structuredContent as Record<string, unknown> | undefined;
  if (r.isError === true) {
    const text = ((r.content as { type: string; text?: string }[])[0]?.text ?? "").toString();
    let error: ToolError["error"] = {};
    try {
      error = (JSON.parse(text) as { error: ToolError["error"] }).error ?? {};
    } catch {
      // not our JSON error: keep the text only
    }
    throw new ToolError(name, error, JSON.stringify(structured ?? r.content));
  }
  return structured ?? {};
}

function promptText(p: acp.PromptRequest): { request: string; all: string } {
  const texts = p.prompt.flatMap((b) => (b.type === "text" ? [b.text] : []));
  return { request: texts[texts.length - 1] ?? "", all: texts.join("\n") };
}

function playerPos(all: string): { x: number; y: number; z: number } {
  const m = /player at (-?\d+) (-?\d+) (-?\d+)/.exec(all);
  return m ? { x: Number(m[1]), y: Number(m[2]), z: Number(m[3]) } : { x: 0, y: 64, z: 0 }; // the console player: on the embedded world's ground
}

async function waitOperation(s: Session, say: (t: string) => Promise<void>, id: string, progress: boolean): Promise<Record<string, unknown>> {
  let shown = 0;
  for (;;) {
    const st = await tool(s, "operation_status", { operation_id: id });
    if (st.status !== "queued" && st.status !== "applying") return st;
    if (s.cancelled) return st;
    const c = st.counters as { written: number; total: number };
    if (progress && shown < 3 && c.written > 0) {
      shown++;
      await say(`Applied ${c.written} of ${c.total} blocks.`);
    }
    await sleep(100);
  }
}

async function run(s: Session, p: acp.PromptRequest, client: acp.AgentContext): Promise<acp.PromptResponse> {
  const { request, all } = promptText(p);
  const say = async (text: string): Promise<void> => {
    s.history.push({ role: "agent", text });
    await client.notify(acp.methods.client.session.update, {
      sessionId: s.id,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${text}\n` } },
    });
  };
  const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const toolCallId = `call_${randomBytes(4).toString("hex")}`;
    await client.notify(acp.methods.client.session.update, {
      sessionId: s.id,
      update: { sessionUpdate: "tool_call", toolCallId, title: `minecraft-builder ${name}`, kind: "other", status: "in_progress" },
    });
    return tool(s, name, args);
  };
  s.history.push({ role: "user", text: request });
  const ended = (): acp.PromptResponse => ({ stopReason: s.cancelled ? "cancelled" : "end_turn" });
  if (/tower with a roof|copper roof|two floors|stairs/i.test(request)) {
    try {
      return await keepMyWindows(s, request, all, call, say, ended);
    } catch (e) {
      await say(`Failed: ${(e as Error).message.slice(0, 200)}`);
      throw e;
    }
  }
  if (/tower/i.test(request)) {
    const ctx = await call("project_context", {});
    await say(`Building in project ${String(ctx.project_id)}.`);
    const at = playerPos(all);
    const base = { x: at.x + 2, y: at.y, z: at.z + 2 };
    const recipe = {
      version: 1,
      operations: [{ type: "box", min: base, max: { x: base.x + 4, y: base.y + 7, z: base.z + 4 }, block: "minecraft:stone_bricks", hollow: true }],
    };
    const plan = await call("build_prepare", { recipe });
    await say(`Prepared a tower of ${String(plan.changed_blocks)} blocks.`);
    const op = await call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: `tower-${String(plan.plan_id)}` });
    const done = await waitOperation(s, say, String(op.operation_id), true);
    if (s.cancelled) return ended();
    const c = done.counters as { written: number };
    const shot = await call("camera_capture", { pose: { x: base.x + 2.5, y: base.y + 4, z: base.z - 12, yaw: 0, pitch: 10, width: 320, height: 180 } });
    await say(`Captured a ${String(shot.width ?? 320)}×${String(shot.height ?? 180)} view (${String(shot.status ?? "done")}).`);
    const part = await call("part_define", { name: `tower-${String(op.operation_id).slice(-6)}`, operation_id: op.operation_id });
    await say(`Tower finished: ${c.written} blocks written by ${String(op.operation_id)}, part ${String(part.part_id)}.`);
    return ended();
  }
  if (/wall/i.test(request)) {
    const at = playerPos(all);
    const recipe = {
      version: 1,
      operations: [{ type: "box", min: { x: at.x, y: at.y, z: at.z + 5 }, max: { x: at.x + 49, y: at.y + 39, z: at.z + 5 }, block: "minecraft:stone" }],
    };
    const plan = await call("build_prepare", { recipe });
    const op = await call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: `wall-${String(plan.plan_id)}`, wait_ms: 0 });
    await say(`Applying ${String(op.operation_id)}: ${String(plan.changed_blocks)} blocks.`);
    await waitOperation(s, say, String(op.operation_id), false);
    return ended();
  }
  if (/crash/i.test(request)) {
    await say("About to crash.");
    persist(s);
    process.exit(3);
  }
  if (/stubborn/i.test(request)) {
    await say("Working on it and not listening.");
    await sleep(30_000);
    return { stopReason: "end_turn" };
  }
  if (/slow/i.test(request)) {
    for (let i = 1; i <= 3 && !s.cancelled; i++) {
      await sleep(500);
      await say(`Slow step ${i} of 3 for ${JSON.stringify(request)}.`);
    }
    return ended();
  }
  if (/identity/i.test(request)) {
    const ctx = await call("project_context", {});
    const area = ctx.area as { min: unknown; max: unknown };
    await say(`My tools act in project ${String(ctx.project_id)} with area ${JSON.stringify(area)}.`);
    try {
      await call("build_prepare", {
        recipe: { version: 1, operations: [{ type: "box", min: { x: 5000, y: 0, z: 5000 }, max: { x: 5000, y: 0, z: 5000 }, block: "minecraft:stone" }] },
      });
      await say("The forged build was prepared.");
    } catch (e) {
      await say(`The forged build was refused: ${/out_of_bounds/.test((e as Error).message) ? "out_of_bounds" : "other"}.`);
    }
    return ended();
  }
  if (/chatter/i.test(request)) {
    const text =
      "First sentence is short. " +
      "The second one is a little longer and carries on for a while so that the chunks must be joined before it is shown! " +
      "Now a very long passage without any full stop that keeps going and going with plenty of ordinary words so that it cannot fit in one chat message and must be split at word boundaries by the bridge rather than cut in the middle of a word which would look broken in game and it still goes on for some more words to be sure it crosses the limit twice over because the limit is two hundred and forty characters " +
      "then an emoji 😀 and the end.\n";
    for (let i = 0; i < text.length; i += 7) {
      await client.notify(acp.methods.client.session.update, {
        sessionId: s.id,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: text.slice(i, i + 7) } },
      });
    }
    for (let i = 1; i <= 6; i++) await say(`Burst ${i}.`);
    return ended();
  }
  if (/permission/i.test(request)) {
    const ask = async (title: string, rawInput: unknown): Promise<string> => {
      const r = await client.request(acp.methods.client.session.requestPermission, {
        sessionId: s.id,
        toolCall: { toolCallId: `perm_${randomBytes(3).toString("hex")}`, title, rawInput },
        options: [
          { optionId: "yes", name: "Allow", kind: "allow_once" },
          { optionId: "no", name: "Reject", kind: "reject_once" },
        ],
      });
      return r.outcome.outcome === "selected" ? r.outcome.optionId : "cancelled";
    };
    const shell = await ask("shell: rm -rf /", { command: ["rm", "-rf", "/"] });
    const ours = await ask("minecraft-builder build_prepare", { recipe: { operations: [{ min: { x: 1, y: 0, z: 1 } }] } });
    const far = await ask("minecraft-builder build_prepare", { recipe: { operations: [{ min: { x: 999999, y: 0, z: 1 } }] } });
    await say(`Permissions: shell ${shell}, ours ${ours}, outside ${far}.`);
    return ended();
  }
  if (/history/i.test(request)) {
    await say(
      `Guidance ${/Building guidance/.test(all) ? "received" : "absent"}; summary ${/could not be resumed/.test(all) ? "received" : "absent"}; turns remembered ${s.history.filter((h) => h.role === "user").length}; model ${s.model}.`,
    );
    return ended();
  }
  await say(`I heard: ${request.slice(0, 100)}`);
  return ended();
}

type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
type Pos = { x: number; y: number; z: number };

/** The tower of the "keep my windows" scripts: walls from `base` (5×5, `levels` high) and a stepped roof above. */
function walls(base: Pos, levels: number): unknown {
  return {
    version: 1,
    operations: [{ type: "box", min: base, max: { x: base.x + 4, y: base.y + levels - 1, z: base.z + 4 }, block: "minecraft:stone_bricks", hollow: true }],
  };
}

function roof(base: Pos, y: number, block: string): unknown {
  const layer = (d: number) => ({
    type: "box",
    min: { x: base.x + d, y: y + d, z: base.z + d },
    max: { x: base.x + 4 - d, y: y + d, z: base.z + 4 - d },
    block,
  });
  return { version: 1, operations: [layer(0), layer(1), layer(2)] };
}

async function applyPlan(call: Call, plan: Record<string, unknown>, key: string): Promise<Record<string, unknown>> {
  const op = await call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key, wait_ms: 10_000 });
  if (op.status !== "applied") throw new Error(`${key}: ${String(op.status)}`);
  return op;
}

async function partNamed(call: Call, name: string): Promise<Record<string, unknown>> {
  const ctx = await call("project_context", {});
  const p = (ctx.parts as { part_id: string; name: string; retired: boolean }[]).find((q) => q.name === name && !q.retired);
  if (p === undefined) throw new Error(`no part named ${name}`);
  return call("part_get", { part_id: p.part_id });
}

async function keepMyWindows(
  s: Session,
  request: string,
  all: string,
  call: Call,
  say: (t: string) => Promise<void>,
  ended: () => acp.PromptResponse,
): Promise<acp.PromptResponse> {
  const at = playerPos(all);
  const base = { x: at.x + 2, y: at.y, z: at.z + 2 };
  const tag = randomBytes(3).toString("hex");
  if (/tower with a roof/i.test(request)) {
    const w = await call("build_prepare", { recipe: walls(base, 8) });
    const wop = await applyPlan(call, w, `walls-${tag}`);
    const wp = await call("part_define", { name: "tower walls", operation_id: wop.operation_id });
    const r = await call("build_prepare", { recipe: roof(base, base.y + 8, "minecraft:oak_planks") });
    const rop = await applyPlan(call, r, `roof-${tag}`);
    const rp = await call("part_define", { name: "tower roof", operation_id: rop.operation_id });
    await say(`Tower with a roof: walls ${String(wp.part_id)} (${String(wp.count)} blocks), roof ${String(rp.part_id)} (${String(rp.count)} blocks).`);
    return ended();
  }
  if (/copper roof/i.test(request)) {
    const rp = await partNamed(call, "tower roof");
    const b = rp.bounds as { min: Pos };
    const plan = await call("build_prepare", { recipe: roof({ x: b.min.x, y: b.min.y, z: b.min.z }, b.min.y, "minecraft:cut_copper"), part_id: rp.part_id });
    await applyPlan(call, plan, `copper-${tag}`);
    await say(`Roof ${String(rp.part_id)} is copper now: ${String(plan.changed_blocks)} blocks changed, nothing outside it.`);
    return ended();
  }
  if (/two floors/i.test(request)) {
    const wp = await partNamed(call, "tower walls");
    const diff = await call("part_diff", { part_id: wp.part_id });
    const edits = (diff.sample as { pos: Pos }[]).map((e) => `${e.pos.x} ${e.pos.y} ${e.pos.z}`);
    await say(`You changed ${String(diff.changed)} block(s) of the walls by hand${edits.length > 0 ? ` (at ${edits.join(", ")})` : ""}; I will keep them.`);
    // Take the old roof down inside its part (air over its mask), then forget the part.
    const rp = await partNamed(call, "tower roof");
    const rb = rp.bounds as { min: Pos };
    const clear = await call("build_prepare", { recipe: roof(rb.min, rb.min.y, "minecraft:air"), part_id: rp.part_id });
    await applyPlan(call, clear, `unroof-${tag}`);
    await call("part_delete", { part_id: rp.part_id });
    const wb = wp.bounds as { min: Pos; max: Pos };
    const wmin = wb.min;
    const taller = await call("build_prepare", { recipe: walls(wmin, wb.max.y - wmin.y + 1 + 8) });
    const kept = taller.manual_edits as { kept: number };
    await applyPlan(call, taller, `taller-${tag}`);
    const top = wb.max.y + 8 + 1;
    const r = await call("build_prepare", { recipe: roof(wmin, top, "minecraft:oak_planks") });
    const rop = await applyPlan(call, r, `roof2-${tag}`);
    const np = await call("part_define", { name: "tower roof", operation_id: rop.operation_id });
    await say(
      `Added two floors (${String(taller.changed_blocks)} blocks; kept ${kept.kept} you placed by hand) and redid the roof at y ${top} (${String(np.part_id)}).`,
    );
    return ended();
  }
  // stairs across the window's wall row
  const wp = await partNamed(call, "tower walls");
  const diff = await call("part_diff", { part_id: wp.part_id });
  const row = (diff.sample as { pos: Pos }[])[0]?.pos ?? { x: base.x, y: base.y + 3, z: base.z };
  const wb = wp.bounds as { min: Pos; max: Pos };
  const stairs = {
    version: 1,
    operations: [
      { type: "line", from: { x: wb.min.x, y: row.y, z: row.z }, to: { x: wb.max.x, y: row.y, z: row.z }, block: "minecraft:stone_brick_stairs[facing=south]" },
    ],
  };
  try {
    await call("build_prepare", { recipe: stairs });
    await say("The stairs were prepared without a conflict.");
  } catch (e) {
    if (!(e instanceof ToolError) || e.error.code !== "conflict") throw e;
    const d = e.error.details as { count: number; sample: { pos: Pos; actual: string }[] };
    const positions = d.sample.map((x) => `${x.pos.x} ${x.pos.y} ${x.pos.z} (${x.actual.replace(/\[.*$/, "")})`);
    await say(`Conflict: ${d.count} block(s) you changed by hand are where the stairs would go: ${positions.join(", ")}. Keep them or replace them?`);
  }
  void s;
  return ended();
}

const app = acp
  .agent({ name: "scripted-agent" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true, mcpCapabilities: { http: false, sse: false } },
    agentInfo: { name: "scripted-agent", version: "1.0.0" },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, async ({ params }) => {
    const s: Session = {
      id: `sess_${randomBytes(6).toString("hex")}`,
      model: MODELS[0]!,
      mcp: await connectMcp(params.mcpServers),
      cancelled: false,
      history: [],
    };
    sessions.set(s.id, s);
    persist(s);
    return {
      sessionId: s.id,
      configOptions: [
        { id: "model", name: "Model", category: "model", type: "select", currentValue: s.model, options: MODELS.map((m) => ({ value: m, name: m })) },
      ],
    };
  })
  .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
    const s = sessions.get(params.sessionId);
    if (s === undefined || params.configId !== "model" || typeof params.value !== "string" || !MODELS.includes(params.value))
      throw acp.RequestError.invalidParams(params);
    s.model = params.value;
    return { configOptions: [] };
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    const history = persisted()[params.sessionId];
    if (history === undefined || process.env.SCRIPTED_AGENT_FORGET === "1") throw acp.RequestError.resourceNotFound(params.sessionId);
    const s: Session = { id: params.sessionId, model: MODELS[0]!, mcp: await connectMcp(params.mcpServers), cancelled: false, history };
    sessions.set(s.id, s);
    for (const h of history)
      await client.notify(acp.methods.client.session.update, {
        sessionId: s.id,
        update: { sessionUpdate: h.role === "user" ? "user_message_chunk" : "agent_message_chunk", content: { type: "text", text: `REPLAYED ${h.text}` } },
      });
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const s = sessions.get(params.sessionId);
    if (s === undefined) throw acp.RequestError.resourceNotFound(params.sessionId);
    s.cancelled = false;
    try {
      return await run(s, params, client);
    } finally {
      persist(s);
    }
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const s = sessions.get(params.sessionId);
    if (s !== undefined) s.cancelled = true;
  });

const connection = app.connect(
  acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
);
await connection.closed;
for (const s of sessions.values()) await s.mcp?.close().catch(() => undefined);
process.exit(0);
