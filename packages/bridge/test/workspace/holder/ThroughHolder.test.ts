import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcbProcess, tower } from "../../support.js";
import { serve, holderKit, startMcb } from "./Holder.js";

const kit = holderKit();

const WALL = { version: 1, operations: [{ type: "box", min: { x: 0, y: 100, z: 0 }, max: { x: 59, y: 139, z: 9 }, block: "minecraft:stone" }] };

describe("mcb commands through the process that holds the world", () => {
  it("give the same output and exit status as on their own", async () => {
    const state = kit.state();
    expect((await mcbProcess("build", tower, "--state", state)).code).toBe(0);
    const commands = [
      ["status"],
      ["status", "--json"],
      ["inspect", "-2", "64", "-2", "2", "70", "2"],
      ["inspect", "0", "0", "0"], // usage error: 2
      ["undo", "op_nope"], // not found: 1
      ["part", "list"],
      ["camera", "list"],
      ["biuld"],
    ];
    const alone = [];
    for (const c of commands) alone.push(await mcbProcess(...c, "--state", state));
    const served = await serve(state);
    kit.defer(() => served.stop());
    for (const [i, c] of commands.entries()) {
      const through = await mcbProcess(...c, "--state", state);
      expect({ command: c, ...through }).toEqual({ command: c, ...alone[i] });
    }
    expect(alone.map((r) => r.code)).toEqual([0, 0, 0, 2, 1, 0, 0, 2]);
    // It went through the holder: the holder's stderr says nothing, but the lock is its own all along.
    expect(readFileSync(join(state, "lock"), "utf8").trim()).toBe(String(served.child.pid));
  }, 60_000);

  it("a caller's Ctrl-C stops its own operation after the slice (exit 130, undo line); the holder and its other callers go on", async () => {
    const state = kit.state();
    const served = await serve(state, ["--max-rate", "20000"]);
    kit.defer(() => served.stop());
    const recipe = join(state, "wall.json");
    writeFileSync(recipe, JSON.stringify(WALL));
    const build = startMcb(["build", recipe, "--state", state]);
    await build.until(/writes 24000 blocks/);
    await new Promise((r) => setTimeout(r, 300));
    build.child.kill("SIGINT");
    expect(await build.exited).toBe(130);
    const m = /operation (op_\w+) cancelled: (\d+) of 24000 blocks written; undo with: mcb undo \1 --state /.exec(build.stderr());
    expect(m, build.stderr()).not.toBeNull();
    expect(Number(m![2])).toBeGreaterThan(0);
    expect(Number(m![2])).toBeLessThan(24_000);
    const status = await mcbProcess("status", "--state", state, "--max-rate", "5");
    expect(status.code).toBe(0);
    expect(status.stderr).toMatch(/^mcb status: run in the process holding the world \(pid \d+\), whose --max-rate apply, not this command's$/m);
    expect(served.child.exitCode).toBeNull();
    const undo = await mcbProcess("undo", m![1]!, "--state", state);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toMatch(/applied/);
  }, 60_000);

  it("a holder that does not answer is busy (holder_not_answering); a wrong token is refused without running anything", async () => {
    const state = kit.state();
    const served = await serve(state);
    kit.defer(() => served.stop());
    const holder = JSON.parse(readFileSync(join(state, "holder.json"), "utf8")) as { port: number; token: string };
    const answer = await new Promise<string>((resolve) => {
      const c = connect({ host: "127.0.0.1", port: holder.port });
      let got = "";
      c.setEncoding("utf8").on("data", (d: string) => (got += d));
      c.on("close", () => resolve(got));
      c.write(`MCB-HOLD ${holder.token.slice(0, -2)}xx\n${JSON.stringify({ argv: ["status"], cwd: "/", pid: 1 })}\n`);
    });
    expect(answer).toMatch(/^ERR \{"code":"permission_denied"/);
    expect(answer).not.toContain(holder.token.slice(0, 20));
    // A second holder is refused, naming the first: the commands it would serve already run there.
    const second = await mcbProcess("serve", "--state", state);
    expect(second.code).toBe(1);
    expect(JSON.parse(second.stderr).error.message).toMatch(new RegExp(`held by mcb serve \\(pid ${served.child.pid}\\), which serves it`));
    process.kill(served.child.pid!, "SIGSTOP");
    try {
      const r = await mcbProcess("status", "--state", state);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stderr).error).toMatchObject({ code: "busy", retryable: true, details: { reason: "holder_not_answering", pid: served.child.pid } });
    } finally {
      process.kill(served.child.pid!, "SIGCONT");
    }
    expect((await mcbProcess("status", "--state", state)).code).toBe(0);
  }, 60_000);

  it("a command holding the world serves other commands while it runs; a session (mcb mcp) waits for it, then holds the world itself", async () => {
    const state = kit.state();
    const recipe = join(state, "wall.json");
    writeFileSync(recipe, JSON.stringify(WALL));
    expect((await mcbProcess("status", "--state", state, "--init")).code).toBe(0);
    // Paced on its own (it holds the world: --max-rate applies).
    const build = startMcb(["build", recipe, "--state", state, "--max-rate", "20000"]);
    kit.defer(() => void build.child.kill("SIGKILL"));
    await build.until(/writes 24000 blocks/);
    const status = await mcbProcess("status", "--state", state);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/op_\w+ build applying/);
    const mcp = startMcb(["mcp", "--state", state], "pipe");
    kit.defer(() => void mcp.child.kill("SIGKILL"));
    // Commands keep coming while the build ends, its port closes and its lock is given up: each is
    // served, by the build or (once it is gone) on its own or by the mcb mcp that takes over; none is busy.
    let ended = false;
    const around = (async () => {
      const refused: string[] = [];
      for (let after = 0; after < 3;) {
        if (ended) after++;
        const r = await mcbProcess("inspect", "0", "100", "0", "3", "103", "3", "--state", state);
        if (r.code !== 0) refused.push(r.stderr.slice(0, 300));
      }
      return refused;
    })();
    expect(await build.exited).toBe(0);
    ended = true;
    expect(await around).toEqual([]);
    await mcp.until(/serving the embedded world/, 5_000);
    expect(mcp.stderr()).toMatch(/held by mcb build \(pid \d+\), which serves commands only until it ends; waiting for it to end/);
    expect(mcp.stderr()).toContain("mcb mcp: serving the embedded world");
    mcp.child.stdin!.end();
    expect(await mcp.exited).toBe(0);
  }, 60_000);
});
