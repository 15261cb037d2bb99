#!/usr/bin/env node
/**
 * A scripted ACP agent for tests: real ACP over stdio (`@agentclientprotocol/sdk` agent API) and
 * real MCP calls to the server named in `session/new`'s mcpServers entry. No model: the request
 * text picks a script. Sessions are persisted in `scripted-sessions.json` of the working directory
 * so `session/load` works across restarts (history is replayed as updates, as real agents do).
 *
 *   "Preview only:" … "tower"   (what `/ai preview a tower` sends) build_prepare of the same tower with
 *                    preview: {}, reports what the player sees, applies nothing
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
import { ToolError, keepMyWindows, playerPos } from "./WindowsScript.js";

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

/** One prompt turn as the scripts see it: the request, the whole prompt, and how to talk and call tools. */
interface Turn {
  readonly s: Session;
  readonly client: acp.AgentContext;
  readonly request: string;
  readonly all: string;
  say(text: string): Promise<void>;
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  ended(): acp.PromptResponse;
}

async function run(s: Session, p: acp.PromptRequest, client: acp.AgentContext): Promise<acp.PromptResponse> {
  const { request, all } = promptText(p);
  const t: Turn = {
    s,
    client,
    request,
    all,
    say: async (text) => {
      s.history.push({ role: "agent", text });
      await client.notify(acp.methods.client.session.update, {
        sessionId: s.id,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${text}\n` } },
      });
    },
    call: async (name, args) => {
      const toolCallId = `call_${randomBytes(4).toString("hex")}`;
      await client.notify(acp.methods.client.session.update, {
        sessionId: s.id,
        update: { sessionUpdate: "tool_call", toolCallId, title: `minecraft-builder ${name}`, kind: "other", status: "in_progress" },
      });
      return tool(s, name, args);
    },
    ended: () => ({ stopReason: s.cancelled ? "cancelled" : "end_turn" }),
  };
  s.history.push({ role: "user", text: request });
  const script = SCRIPTS.find(([when]) => when.test(request));
  if (script !== undefined) return script[1](t);
  await t.say(`I heard: ${request.slice(0, 100)}`);
  return t.ended();
}

/** The scripts, by what the request says (the first that matches runs). */
const SCRIPTS: readonly (readonly [RegExp, (t: Turn) => Promise<acp.PromptResponse>])[] = [
  [/^Preview only:.*tower/i, previewScript],
  [/tower with a roof|copper roof|two floors|stairs/i, windowsScript],
  [/tower/i, towerScript],
  [/wall/i, wallScript],
  [/paste/i, pasteScript],
  [/crash/i, crashScript],
  [/stubborn/i, stubbornScript],
  [/slow/i, slowScript],
  [/identity/i, identityScript],
  [/chatter/i, chatterScript],
  [/permission/i, permissionScript],
  [/history/i, historyScript],
];

async function windowsScript(t: Turn): Promise<acp.PromptResponse> {
  try {
    return await keepMyWindows(t.request, t.all, t.call, t.say, t.ended);
  } catch (e) {
    await t.say(`Failed: ${(e as Error).message.slice(0, 200)}`);
    throw e;
  }
}

async function towerScript({ s, all, call, say, ended }: Turn): Promise<acp.PromptResponse> {
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

async function previewScript({ all, call, say, ended }: Turn): Promise<acp.PromptResponse> {
  const at = playerPos(all);
  const base = { x: at.x + 2, y: at.y, z: at.z + 2 };
  const recipe = {
    version: 1,
    operations: [{ type: "box", min: base, max: { x: base.x + 4, y: base.y + 7, z: base.z + 4 }, block: "minecraft:stone_bricks", hollow: true }],
  };
  const plan = await call("build_prepare", { recipe, preview: {} });
  const preview = plan.preview as { capture_id: string; in_game?: string };
  await say(`Prepared a tower of ${String(plan.changed_blocks)} blocks, not applied (preview ${preview.capture_id}).`);
  return ended();
}

async function wallScript({ s, all, call, say, ended }: Turn): Promise<acp.PromptResponse> {
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

/** "/ai paste <asset>": one schematic_paste call, asked again until the paste is no longer running. */
async function pasteScript({ s, all, request, call, say, ended }: Turn): Promise<acp.PromptResponse> {
  const at = playerPos(all);
  const asset = /paste (\w+)/.exec(request)?.[1] ?? "cube";
  const target = { x: at.x + 2, y: at.y, z: at.z + 2 };
  let r = await call("schematic_paste", { asset_id: asset, target, wait_ms: 0 });
  await say(`Pasting ${String(r.paste_id)}.`);
  while (r.state === "running" && !s.cancelled) r = await call("schematic_paste", { asset_id: asset, target, wait_ms: 2000 });
  const part = r.part as { part_id: string | null } | null;
  await say(`Paste ${String(r.state)}: ${String(r.written_blocks)} blocks, part ${String(part?.part_id)}.`);
  return ended();
}

async function crashScript({ s, say }: Turn): Promise<acp.PromptResponse> {
  await say("About to crash.");
  persist(s);
  process.exit(3);
}

async function stubbornScript({ say }: Turn): Promise<acp.PromptResponse> {
  await say("Working on it and not listening.");
  await sleep(30_000);
  return { stopReason: "end_turn" };
}

async function slowScript({ s, request, say, ended }: Turn): Promise<acp.PromptResponse> {
  for (let i = 1; i <= 3 && !s.cancelled; i++) {
    await sleep(500);
    await say(`Slow step ${i} of 3 for ${JSON.stringify(request)}.`);
  }
  return ended();
}

async function identityScript({ call, say, ended }: Turn): Promise<acp.PromptResponse> {
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

async function chatterScript({ s, client, say, ended }: Turn): Promise<acp.PromptResponse> {
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

async function permissionScript({ s, client, say, ended }: Turn): Promise<acp.PromptResponse> {
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

async function historyScript({ s, all, say, ended }: Turn): Promise<acp.PromptResponse> {
  await say(
    `Guidance ${/Building guidance/.test(all) ? "received" : "absent"}; summary ${/could not be resumed/.test(all) ? "received" : "absent"}; turns remembered ${s.history.filter((h) => h.role === "user").length}; model ${s.model}.`,
  );
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
