import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawMcp, type Frame } from "./RawMcp.js";

/**
 * JSON-RPC conformance of `mcb mcp` over its real stdio pipes, with raw frames of every malformed
 * class a client can send (JSON-RPC 2.0 §4–5: -32700 parse error, -32600 invalid request, -32601
 * method not found, -32602 invalid params), oversize lines, and hostile argument names. The
 * server must answer what can be answered, keep serving, and never echo unbounded input.
 */

let mcp: RawMcp;
const state = mkdtempSync(join(tmpdir(), "mcb-conformance-"));

beforeAll(async () => {
  mcp = new RawMcp(state);
  expect((await mcp.initialize()).result?.serverInfo?.name).toBe("minecraft-builder");
}, 60_000);
afterAll(() => mcp.kill());

/** Every frame sent after this call. */
function since(): () => Frame[] {
  const from = mcp.frames.length;
  return () => mcp.frames.slice(from);
}

async function stillServing(id: string): Promise<void> {
  expect((await mcp.request(id, "ping")).result).toEqual({});
}

describe("malformed frames get the JSON-RPC error they call for, and the server keeps serving", () => {
  it("-32700 with id null for text that is not JSON", async () => {
    const got = since();
    await mcp.write("this is not json\n");
    await mcp.write('{"jsonrpc":"2.0","id":1,"method":"ping"\n'); // truncated object
    await stillServing("after-garbage");
    const errors = got().filter((f) => f.error !== undefined);
    expect(errors.map((f) => [f.id, f.error!.code])).toEqual([
      [null, -32700],
      [null, -32700],
    ]);
  });

  it("-32600 with the request's id for JSON that is not JSON-RPC 2.0", async () => {
    for (const [id, frame] of [
      [5, { jsonrpc: "1.0", id: 5, method: "ping" }],
      [6, { id: 6, method: "ping" }],
      [7, { jsonrpc: "2.0", id: 7 }],
      [8, { jsonrpc: "2.0", id: 8, method: 42 }],
      ["s", { jsonrpc: "2.0", id: "s", method: "ping", params: "not an object" }],
    ] as const) {
      await mcp.send(frame);
      const r = await mcp.reply(id);
      expect(r.error?.code, JSON.stringify(frame)).toBe(-32600);
      expect(r.jsonrpc).toBe("2.0");
    }
    await stillServing("after-invalid");
  });

  it("-32600 with id null when no usable id: non-objects, batches, bad id types, bad notifications", async () => {
    const got = since();
    for (const line of [
      "42",
      '"a string"',
      "null",
      "[]",
      '[{"jsonrpc":"2.0","id":9,"method":"ping"}]',
      '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","method":5}',
    ])
      await mcp.write(`${line}\n`);
    await stillServing("after-idless");
    const errors = got().filter((f) => f.error !== undefined);
    expect(errors).toHaveLength(8);
    for (const e of errors) expect([e.id, e.error!.code]).toEqual([null, -32600]);
  });

  it("blank lines are ignored; an unknown method is -32601 with its id", async () => {
    const got = since();
    await mcp.write("\n   \r\n");
    expect((await mcp.request(10, "no/such/method")).error?.code).toBe(-32601);
    expect(got().filter((f) => f.id !== 10)).toEqual([]);
  });

  it("-32602 with our structured error for non-object arguments or a missing tool name", async () => {
    for (const [id, params] of [
      [11, { name: "project_context", arguments: 5 }],
      [12, { name: "project_context", arguments: [1, 2] }],
      [13, { name: "project_context", arguments: "x" }],
      [14, { arguments: {} }],
    ] as const) {
      const r = await mcp.request(id, "tools/call", params);
      expect(r.error?.code, JSON.stringify(params)).toBe(-32602);
      expect(r.error?.data).toMatchObject({ code: "invalid_request", retryable: false, details: { reason: "schema" } });
      expect(r.error?.message).not.toMatch(/"code":|ZodError|\[\s*\{/); // a sentence, not a raw validator dump
    }
    await stillServing("after-params");
  });

  it("an unknown argument name of 9 MB is echoed in a few hundred bytes, naming the allowed arguments", async () => {
    const name = "k".repeat(9_000_000);
    const r = await mcp.request(
      15,
      "tools/call",
      { name: "region_inspect", arguments: { min: { x: 0, y: 64, z: 0 }, max: { x: 0, y: 64, z: 0 }, detail: "summary", [name]: 1 } },
      60_000,
    );
    const bytes = Buffer.byteLength(JSON.stringify(r));
    expect(bytes).toBeLessThan(4096);
    expect(r.result?.isError).toBe(true);
    const body = JSON.parse(r.result.content[0].text);
    expect(body.error).toMatchObject({ code: "invalid_request", details: { reason: "schema", arguments: ["min", "max", "detail"] } });
    expect(body.error.message).toMatch(/unknown key "k{10,}…\(\d+ more characters\)"/);
  }, 90_000);

  it("a long value is bounded in the echo too (schema issues and engine messages)", async () => {
    const r = await mcp.request(16, "tools/call", { name: "material_describe", arguments: { id: "x".repeat(100_000) } });
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(4096);
    expect(JSON.parse(r.result.content[0].text).error.code).toBe("invalid_request");
  });

  it("a line over 10 MiB is refused with its id (found past the params) once it ends, and serving goes on", async () => {
    const got = since();
    const big = JSON.stringify({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "project_context", arguments: { pad: "p".repeat(11 * 1024 * 1024) } },
      id: 17,
    });
    await mcp.write(`${big}\n`);
    const r = await mcp.reply(17, 60_000);
    expect(r.error?.code).toBe(-32600);
    expect(r.error?.data).toMatchObject({ code: "budget_exceeded", details: { reason: "message_size", limit: 10 * 1024 * 1024 } });
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(2048);
    await stillServing("after-oversize");
    expect(got().filter((f) => f.error !== undefined)).toHaveLength(1);
    expect(mcp.stderr.join("")).toMatch(/refused a \d+-byte message/);
  }, 90_000);

  it("endless input without a newline is skipped in constant memory; the newline ends it and serving goes on", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 40; i++) await mcp.write(chunk); // 40 MiB, no newline
    const rss = Number(/VmRSS:\s+(\d+)/.exec(await import("node:fs").then((fs) => fs.readFileSync(`/proc/${mcp.pid}/status`, "utf8")))?.[1]) * 1024;
    await mcp.write("\n");
    const refusal = await mcp.next((f) => f.error?.data?.details?.reason === "message_size" && f.id === null);
    expect(refusal.error?.code).toBe(-32600);
    await stillServing("after-endless");
    expect(rss).toBeLessThan(40 * 1024 * 1024 + 300 * 1024 * 1024); // not holding the 40 MiB line (Node + engine ≈ 150–250 MB)
  }, 90_000);

  it("twenty concurrent build_apply calls of one plan under twenty keys create one operation", async () => {
    const prep = await mcp.request(20, "tools/call", {
      name: "build_prepare",
      arguments: {
        recipe: {
          version: 1,
          operations: [{ type: "box", min: { x: 40, y: 64, z: 40 }, max: { x: 43, y: 67, z: 43 }, block: "minecraft:stone", hollow: true }],
        },
      },
    });
    const plan = prep.result.structuredContent;
    expect(plan.changed_blocks).toBe(56);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        mcp.send({
          jsonrpc: "2.0",
          id: `apply-${i}`,
          method: "tools/call",
          params: { name: "build_apply", arguments: { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: `key-${i}`, wait_ms: 0 } },
        }),
      ),
    );
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => mcp.reply(`apply-${i}`)));
    const accepted = replies.filter((r) => r.result?.isError !== true);
    expect(accepted).toHaveLength(1);
    for (const r of replies.filter((x) => x.result?.isError === true))
      expect(JSON.parse(r.result.content[0].text).error.details.reason).toBe("plan_already_applied");
  });
});

describe("closing stdin", () => {
  it("answers every request already sent, then exits 0", async () => {
    const other = new RawMcp(mkdtempSync(join(tmpdir(), "mcb-conformance-close-")));
    await other.initialize();
    const ids = Array.from({ length: 12 }, (_, i) => `late-${i}`);
    for (const id of ids) await other.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "project_context", arguments: {} } });
    other.end();
    expect(await other.exited).toBe(0);
    for (const id of ids) expect(other.frames.find((f) => f.id === id)?.result?.structuredContent?.project_id).toBe("default");
  }, 60_000);
});
