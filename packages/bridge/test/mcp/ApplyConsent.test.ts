import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate } from "@mcb/blocks";
import { Engine, openJournal } from "@mcb/engine";
import { registry } from "../../../blocks/test/registry.js";
import { createMcbMcpServer, mcpContextFor } from "../../src/index.js";
import { v } from "./InProcessMcp.js";

type Answer = Record<string, any>;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** Our server over a memory world, and an SDK client that declares elicitation (answering with `answer`) or not. */
async function connect(elicitation: ((message: string) => ElicitResult) | null) {
  const world = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry()) });
  const engine = await Engine.open({
    adapter: world,
    journal: openJournal(":memory:"),
    registry: registry(),
    projects: [{ projectId: "p", ownerId: "alice", area: { minX: 0, minY: -64, minZ: 0, maxX: 31, maxY: 319, maxZ: 31 } }],
  });
  const ctx = { principal: { playerId: "alice", role: "agent" as const }, projectId: "p" };
  const dir = mkdtempSync(join(tmpdir(), "mcb-consent-"));
  const server = createMcbMcpServer(mcpContextFor({ engine, registry: registry(), world, dir }, ctx), "test", { confirmAbove: 50 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "desk", version: "1" }, { capabilities: elicitation === null ? {} : { elicitation: { form: {} } } });
  const asked: string[] = [];
  if (elicitation !== null)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return elicitation(request.params.message);
    });
  await client.connect(b);
  closers.push(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { call, asked, world };
}

const big = { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(4, 66, 4), block: "minecraft:stone_bricks" }] }; // 75 blocks
const small = { version: 1, operations: [{ type: "box", min: v(10, 64, 10), max: v(11, 64, 11), block: "minecraft:stone" }] }; // 4 blocks
const error = (r: CallToolResult) => (r.isError ? JSON.parse((r.content[0] as { text: string }).text).error : null);

describe("the person at a desk is asked before a large plan is applied", () => {
  it("a client that declares elicitation is asked; yes applies, no writes nothing and says so", async () => {
    let yes = false;
    const c = await connect(() => ({ action: "accept", content: { apply: yes } }));
    const plan = (await c.call("build_prepare", { recipe: big })).structuredContent as Answer;
    const no = await c.call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "k", wait_ms: 5000 });
    expect(error(no)).toMatchObject({ code: "permission_denied", details: { reason: "declined", plan_id: plan.plan_id } });
    expect(c.asked).toHaveLength(1);
    expect(c.asked[0]).toBe(
      `Apply plan ${plan.plan_id}? It changes 75 blocks (x 0..4, y 64..66, z 0..4). To see it first: camera_capture {plan_id: "${plan.plan_id}"}.`,
    );
    expect(c.world.stateAt(2, 65, 2)).toBe("minecraft:air");
    yes = true;
    const done = (await c.call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "k", wait_ms: 5000 }))
      .structuredContent as Answer;
    expect(done.status).toBe("applied");
    expect(c.world.stateAt(2, 65, 2)).toBe("minecraft:stone_bricks");
    // a plan under the threshold is not asked about; prepare-and-apply in one call asks too
    const quiet = (await c.call("build_prepare", { recipe: small, apply: { idempotency_key: "s", wait_ms: 5000 } })).structuredContent as Answer;
    expect(quiet.operation.status).toBe("applied");
    expect(c.asked).toHaveLength(2);
    // however small, a plan that writes over a person's block is asked about
    c.world.externalEdit(2, 66, 0, "minecraft:glass");
    const over = (await c.call("build_prepare", { recipe: big, replace: [v(2, 66, 0)], apply: { idempotency_key: "r", wait_ms: 5000 } }))
      .structuredContent as Answer;
    expect(over.operation.status).toBe("applied");
    expect(c.asked).toHaveLength(3);
    expect(c.asked[2]).toContain("It changes 1 block (x 2..2, y 66..66, z 0..0), 1 of them over blocks a person changed by hand.");
    // prepared alone and applied with build_apply: the question still says it writes over the person's block
    c.world.externalEdit(3, 66, 0, "minecraft:glass");
    const alone = (await c.call("build_prepare", { recipe: big, replace: [v(3, 66, 0)] })).structuredContent as Answer;
    const later = (await c.call("build_apply", { plan_id: alone.plan_id, plan_hash: alone.plan_hash, idempotency_key: "r2", wait_ms: 5000 }))
      .structuredContent as Answer;
    expect(later.status).toBe("applied");
    expect(c.asked).toHaveLength(4);
    expect(c.asked[3]).toContain("It changes 1 block (x 3..3, y 66..66, z 0..0), 1 of them over blocks a person changed by hand.");
  });

  it("a decline or a cancel writes nothing; a client without elicitation is not asked and applies as before", async () => {
    const decline = await connect(() => ({ action: "decline" }));
    const r = await decline.call("build_prepare", { recipe: big, apply: { idempotency_key: "d", wait_ms: 5000 } });
    expect(error(r)).toMatchObject({ code: "permission_denied", message: expect.stringContaining("the person declined the question; nothing was written") });
    expect(decline.world.stateAt(2, 65, 2)).toBe("minecraft:air");
    const cancel = await connect(() => ({ action: "cancel" }));
    expect(error(await cancel.call("build_prepare", { recipe: big, apply: { idempotency_key: "c", wait_ms: 5000 } }))).toMatchObject({
      details: { reason: "declined" },
    });
    const plain = await connect(null);
    const applied = (await plain.call("build_prepare", { recipe: big, apply: { idempotency_key: "p", wait_ms: 5000 } })).structuredContent as Answer;
    expect(applied.operation.status).toBe("applied");
  });
});
