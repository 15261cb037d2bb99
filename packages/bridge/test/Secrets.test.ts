import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { root } from "./support.js";

/**
 * What running mcb or the server in the checkout creates never shows up as a file to commit: the
 * world port's token (`port-token`, created in the server's world folder), the server's default
 * world (`./mcb-world`), `--world ./server-world`, and mcb's state directories.
 */
const created = [
  "mcb-world/port-token",
  "mcb-world/region/r.0.0.mca",
  "mcb-world/level.dat",
  "server-world/port-token",
  "server-world/session.lock",
  "some/other/world/port-token",
  ".state/journal.db",
  ".state/world/region/r.0.0.mca",
  ".state-demo/world-id.json",
];

describe("secrets and worlds stay out of git", () => {
  it.each(created)("%s is ignored", (path) => {
    const r = spawnSync("git", ["check-ignore", "--no-index", "-q", path], { cwd: root });
    expect(r.status, `${path} is not ignored by .gitignore`).toBe(0);
  });

  it("the sources next to them are not ignored (the rules are not too wide)", () => {
    for (const path of ["packages/bridge/src/index.ts", "java/server.sh", "examples/tower.json", "README.md"]) {
      expect(spawnSync("git", ["check-ignore", "--no-index", "-q", path], { cwd: root }).status, path).toBe(1);
    }
  });
});
