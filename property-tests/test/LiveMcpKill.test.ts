import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { PortWorld } from "@mcb/adapter-port";
import { writeSchematic } from "@mcb/schematic";
import { afterAll, describe, expect, it } from "vitest";
import { startMinestomHost, type MinestomHost } from "../src/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const cli = join(root, "packages/bridge/dist/bin.js");
const N = 100; // 1,000,000 blocks
const AT = { x: -50, y: 64, z: -50 }; // above the flat ground (grass at 63): air until pasted
const BOX = { minX: AT.x, minY: AT.y, minZ: AT.z, maxX: AT.x + N - 1, maxY: AT.y + N - 1, maxZ: AT.z + N - 1 };
type Answer = Record<string, any>;

/** Stone in the paste's box as the port reads it, slab by slab. */
async function stoneIn(world: PortWorld): Promise<number> {
  let n = 0;
  for (let y = BOX.minY; y <= BOX.maxY; y += 3) {
    const r = await world.read({ ...BOX, minY: y, maxY: Math.min(BOX.maxY, y + 2) });
    const stone = r.palette.indexOf("minecraft:stone");
    for (const s of r.states) if (s === stone) n++;
  }
  return n;
}

/**
 * A million-block paste in one MCP call on a live server, the bridge killed with -9 in the middle:
 * the next `mcb mcp` on the same state counts every block it cannot vouch for (written, and
 * unconfirmed: in flight at the kill), the world holds no more and no fewer; after the
 * administrator's review and abandon, asking for the paste again finishes it, nothing applied twice.
 */
describe("live: kill -9 of mcb mcp during a one-call million-block paste", () => {
  let host: MinestomHost | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await host?.stop();
    host?.dispose();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  function bridge(state: string): { client: Client; transport: StdioClientTransport } {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--world", host!.url, "--state", state, "--toolsets", "all", "--max-rate", "250000"],
      env: { PATH: process.env.PATH ?? "", MCB_PORT_TOKEN: host!.token },
      stderr: "ignore",
    });
    return { client: new Client({ name: "kill-test", version: "1" }), transport };
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<Answer> => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    if (r.isError) throw new Error(`${name}: ${(r.content as { text: string }[])[0]?.text.slice(0, 400)}`);
    return r.structuredContent as Answer;
  };

  it("counts the blocks in flight as unconfirmed, keeps the world as it is, and resumes to exactly the paste", async () => {
    host = await startMinestomHost({});
    const state = mkdtempSync(join(tmpdir(), "mcb-mcpkill-"));
    dirs.push(state);
    mkdirSync(join(state, "schematics"));
    const blocks = new Uint8Array(N * N * N);
    writeFileSync(
      join(state, "schematics", "cube.schem"),
      writeSchematic({
        width: N,
        height: N,
        length: N,
        offset: { x: 0, y: 0, z: 0 },
        dataVersion: 4903,
        palette: ["minecraft:stone"],
        blocks,
        blockEntities: [],
      }),
    );
    const world = await PortWorld.connect({ url: host.url, token: host.token });
    try {
      // One call starts it; asked again until a third of it stands, then the bridge dies.
      const first = bridge(state);
      await first.client.connect(first.transport);
      let s = await call(first.client, "schematic_paste", { asset_id: "cube", target: AT, wait_ms: 0 });
      expect(s.tiles.total).toBe(10);
      for (let i = 0; s.written_blocks < 200_000 || s.current_operation_id === null; i++) {
        if (s.state !== "running" || i > 300) throw new Error(`the paste did not run: ${JSON.stringify(s)}`);
        s = await call(first.client, "schematic_paste", { asset_id: "cube", target: AT, wait_ms: 100 });
      }
      // In the middle of a tile: its operation has written some of its slices (one just created is
      // still queued; one that ended gives way to the next tile's).
      for (let i = 0; ; i++) {
        if (i > 1000 || s.state !== "running") throw new Error(`no tile was caught in the middle: ${JSON.stringify(s)}`);
        const op = s.current_operation_id === null ? null : await call(first.client, "operation_status", { operation_id: s.current_operation_id });
        if (op !== null && op.counters.written >= 20_000 && op.status === "applying") break;
        if (op === null || (op.status !== "applying" && op.status !== "queued"))
          s = await call(first.client, "schematic_paste", { asset_id: "cube", target: AT, wait_ms: 0 });
        await new Promise((r) => setTimeout(r, 10));
      }
      process.kill(first.transport.pid!, "SIGKILL");
      await new Promise((r) => setTimeout(r, 500));
      const standing = await stoneIn(world);

      // The next process: the interrupted tile is recovery_required, its blocks in flight counted.
      const second = bridge(state);
      await second.client.connect(second.transport);
      const list = await call(second.client, "operation_list", { limit: 20 });
      const stuck = list.operations.filter((o: Answer) => o.status === "recovery_required");
      expect(stuck, JSON.stringify(list.operations.map((o: Answer) => [o.operation_id, o.status, o.written, o.total]))).toHaveLength(1);
      const op = await call(second.client, "operation_status", { operation_id: stuck[0].operation_id });
      const applied = list.operations.filter((o: Answer) => o.status === "applied");
      const confirmed = applied.length * 100_000 + op.counters.written;
      // Every block standing is one the journal vouches for or counts as in flight; none beyond.
      expect(op.counters.unconfirmed).toBeGreaterThan(0);
      expect(standing).toBeGreaterThanOrEqual(confirmed);
      expect(standing).toBeLessThanOrEqual(confirmed + op.counters.unconfirmed);
      await second.client.close();

      // The administrator reviews and abandons (the world left as it is), then the paste is asked for again.
      const admin = (args: string[]) =>
        spawnSync(process.execPath, [cli, "recovery", ...args, "--world", host!.url, "--state", state, "--json"], {
          encoding: "utf8",
          env: { PATH: process.env.PATH ?? "", MCB_PORT_TOKEN: host!.token },
        });
      const review = admin(["review", stuck[0].operation_id]);
      expect(review.status, review.stderr).toBe(0);
      const digest = (JSON.parse(review.stdout) as { current_digest: string }).current_digest;
      const abandon = admin(["abandon", stuck[0].operation_id, digest]);
      expect(abandon.status, abandon.stderr).toBe(0);
      expect(await stoneIn(world)).toBe(standing);
      const third = bridge(state);
      await third.client.connect(third.transport);
      let done = await call(third.client, "schematic_paste", { asset_id: "cube", target: AT, wait_ms: 10_000 });
      while (done.state === "running") done = await call(third.client, "schematic_paste", { asset_id: "cube", target: AT, wait_ms: 10_000 });
      expect(done.state, JSON.stringify(done)).toBe("done");
      expect(done.part).toMatchObject({ error: null });
      await third.client.close();
      expect(await stoneIn(world)).toBe(1_000_000);
    } finally {
      await world.close();
    }
  }, 180_000);
});
