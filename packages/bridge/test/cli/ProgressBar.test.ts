import { describe, expect, it } from "vitest";
import { progressBar } from "../../src/cli/Format.js";

/** The batch progress a person sees: tiles, blocks, blocks per second and the time left, on one line. */
describe("the progress bar of a batch", () => {
  it("measures blocks/s and the time left over what this run did", () => {
    const out: string[] = [];
    let t = 0;
    const bar = progressBar({ write: (s: string) => void out.push(s), isTTY: false }, () => t);
    bar(3, 10, "tile 3: op_a writes 100000 blocks", 300_000); // a rerun: three tiles were done before
    t = 200;
    bar(4, 10, "tile 3: applied, 100000 blocks written", 400_000);
    t = 400;
    bar(5, 10, "tile 4: applied, 100000 blocks written", 500_000);
    expect(out[0]).toBe("[#######-----------------] 3/10 tiles  300,000 blocks  tile 3: op_a writes 100000 blocks\n");
    expect(out[1]).toBe("[##########--------------] 4/10 tiles  400,000 blocks  500,000 blocks/s  2 s left  tile 3: applied, 100000 blocks written\n");
    expect(out[2]).toBe("[############------------] 5/10 tiles  500,000 blocks  500,000 blocks/s  1 s left  tile 4: applied, 100000 blocks written\n");
  });

  it("redraws one line on a terminal and ends it with the last tile", () => {
    const out: string[] = [];
    let t = 0;
    const bar = progressBar({ write: (s: string) => void out.push(s), isTTY: true }, () => t);
    bar(0, 1, "tile 0: op_b writes 10 blocks", 0);
    t = 1000;
    bar(1, 1, "tile 0: applied, 10 blocks written", 10);
    expect(out.every((s) => s.startsWith("\r\x1b[2K"))).toBe(true);
    expect(out[1]!.endsWith("10 blocks/s  tile 0: applied, 10 blocks written\n")).toBe(true);
  });
});
