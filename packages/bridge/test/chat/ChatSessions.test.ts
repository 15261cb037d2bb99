import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatFixture } from "./ChatProcess.js";

const { state, chat } = chatFixture();

describe("sessions across restarts", () => {
  it("resumes with session/load without showing replayed history; a lost session starts again with the summary", async () => {
    const dir = state();
    const first = chat(dir);
    first.send("/ai slow remember me");
    await first.waitFor(/^✔ done$/);
    expect(await first.end()).toBe(0);
    const rec = JSON.parse(readFileSync(join(dir, "chat", "sessions", "default.json"), "utf8")) as {
      sessionId: string;
      summary: { request: string };
      unfinished: unknown;
    };
    expect(rec.summary.request).toBe("slow remember me");
    expect(rec.unfinished).toBeNull();

    const second = chat(dir);
    second.send("/ai history");
    await second.waitFor(/^✔ done$/);
    expect(second.texts()).toContain("Guidance absent; summary absent; turns remembered 2; model scripted-small.");
    expect(second.texts().some((t) => t.includes("REPLAYED"))).toBe(false);
    expect(await second.end()).toBe(0);

    rmSync(join(dir, "chat", "work", "default", "scripted-sessions.json"));
    const third = chat(dir);
    third.send("/ai history");
    await third.waitFor(/^✔ done$/);
    expect(third.texts()).toContain("The previous conversation could not be resumed; a new one starts with the project summary.");
    expect(third.texts()).toContain("Guidance received; summary received; turns remembered 1; model scripted-small.");
    expect(await third.end()).toBe(0);
  });

  it("MCB_MODEL is applied through the agent's advertised model selector; an unknown one leaves its default", async () => {
    const c = chat(state(), [], { MCB_MODEL: "scripted-large" });
    c.send("/ai history");
    await c.waitFor(/^Guidance received; summary absent; turns remembered 1; model scripted-large\.$/);
    expect(await c.end()).toBe(0);
    const d = chat(state(), [], { MCB_MODEL: "gpt-nonexistent" });
    d.send("/ai history");
    await d.waitFor(/model scripted-small\.$/);
    expect(await d.end()).toBe(0);
    expect(d.stderr.join("\n")).toMatch(/MCB_MODEL gpt-nonexistent: not offered by the agent; its default model is used/);
  });

  it("SIGTERM during a turn cancels it, stops the agent and exits cleanly; the turn is remembered as unfinished", async () => {
    const dir = state();
    const c = chat(dir);
    c.send("/ai slow goodbye");
    await c.waitFor(/Slow step 1 of 3/);
    const t0 = performance.now();
    c.terminate();
    expect(await c.exited).toBe(0);
    expect(performance.now() - t0).toBeLessThan(4000);
    expect(c.texts().some((t) => t === "✔ done" || /Slow step 3/.test(t))).toBe(false);
    const rec = JSON.parse(readFileSync(join(dir, "chat", "sessions", "default.json"), "utf8")) as { summary: { outcome: string } | null; unfinished: unknown };
    expect(rec.unfinished).toBeNull();
    expect(rec.summary?.outcome).toBe("stopped by the player");
  });

  it("an agent that dies mid-turn is reported; the next request starts it again and resumes the session", async () => {
    const c = chat(state());
    c.send("/ai crash now");
    // the player is told why (the connection to the agent closed as it died), and /ai status says so
    const failed = await c.waitFor(/^The agent could not answer: (ACP connection closed|the agent exited \(code 3\))\.$/);
    c.send("/ai status");
    await c.waitFor(/^Agent: unavailable since \d\d:\d\d UTC: (ACP connection closed|the agent exited \(code 3\))\.$/, failed);
    c.send("/ai history");
    // the session is resumed (2 turns remembered); the guidance of the failed turn is sent again
    await c.waitFor(/^Guidance received; summary absent; turns remembered 2; model scripted-small\.$/, failed);
    expect(await c.end()).toBe(0);
    expect(c.stderr.join("\n")).toMatch(/agent: exited \(code 3\)/);
  });

  it("an agent that ignores session/cancel is terminated after the grace period (--cancel-grace 1; 5 s by default); the next request gets a working agent", async () => {
    const c = chat(state(), ["--cancel-grace", "1"]);
    c.send("/ai stubborn");
    await c.waitFor(/not listening/);
    const t0 = performance.now();
    c.send("/ai stop");
    const stopped = await c.waitFor(/^Stopped the agent's turn\.$/);
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(8_000);
    expect(c.stderr.join("\n")).toMatch(/ignored session\/cancel for 1 s; terminating it/);
    c.send("/ai identity");
    await c.waitFor(/^My tools act in project default/, stopped);
    expect(await c.end()).toBe(0);
  }, 60_000);

  it("--cancel-grace takes 1 to 600 seconds; anything else is a usage error before the bridge starts", async () => {
    for (const bad of ["0", "1.5", "601", "soon"]) {
      const c = chat(state(), ["--cancel-grace", bad]);
      expect(await c.end()).toBe(2);
      expect(c.stderr.join("\n")).toMatch(/--cancel-grace/);
    }
  });
});

describe("chat commands on the console", () => {
  it("projects and areas are checked on the bridge's side", async () => {
    const dir = state();
    const c = chat(dir, ["--max-area", "100"]);
    c.send("/ai project create yard");
    await c.waitFor(/^Project yard created and selected: x -32\.\.31, y -64\.\.319, z -32\.\.31\.$/);
    c.send("/ai area set 0 -64 0 200 100 10");
    await c.waitFor(/^Areas are at most 100 blocks on a side \(this one is 201\)\.$/);
    c.send("/ai area set 0 -64 0 9000 100 10");
    await c.waitFor(/^The area must lie inside x -4096\.\.4095/);
    c.send("/ai area set 10 -60 10 40 0 40");
    await c.waitFor(/^Area of yard set: x 10\.\.40, y -60\.\.0, z 10\.\.40\.$/);
    c.send("/ai project create yard");
    await c.waitFor(/^A project named yard exists\.$/);
    c.send("/ai identity");
    await c.waitFor(/^My tools act in project yard with area \{"min":\{"x":10,"y":-60,"z":10\},"max":\{"x":40,"y":0,"z":40\}\}\.$/);
    await c.waitFor(/^✔ done$/);
    c.send("/ai project use default");
    await c.waitFor(/^Using project default/);
    c.send("/ai help");
    await c.waitFor(/^\/ai status \| \/ai stop/);
    c.send("/ai project rename x");
    await c.waitFor(/^usage: \/ai project create/);
    expect(await c.end()).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, "chat", "projects.json"), "utf8")) as {
      projects: Record<string, { area: unknown }>;
      active: Record<string, string>;
    };
    expect(stored.projects.yard!.area).toEqual({ minX: 10, minY: -60, minZ: 10, maxX: 40, maxY: 0, maxZ: 40 });
    expect(stored.active.local).toBe("default");
  });
});
