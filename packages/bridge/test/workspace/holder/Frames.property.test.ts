import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FrameReader } from "../../../src/workspace/holder/FrameReader.js";
import { callHolder } from "../../../src/workspace/holder/HolderClient.js";
import { readHolderFile, writeHolderFile } from "../../../src/workspace/holder/HolderFile.js";
import { startHolderEndpoint } from "../../../src/workspace/holder/HolderEndpoint.js";

/**
 * What travels between a caller and the holder arrives exactly: any frames, cut into any chunks
 * on the wire, are read back as the same frames; and through a real endpoint and client, a
 * command's stdout, stderr (any text: newlines, multi-byte characters, empty writes) and exit
 * status reach the caller unchanged, and a session's stdin reaches the command unchanged.
 */
type Frame = Record<string, unknown>;
interface Reader {
  push(chunk: Buffer): boolean;
}

const text = fc.string({ unit: "binary", maxLength: 40 });
const frame: fc.Arbitrary<Frame> = fc.oneof(
  text.map((o) => ({ o })),
  text.map((e) => ({ e })),
  fc.integer({ min: 0, max: 255 }).map((x) => ({ x })),
  fc.constant({ i_end: true }),
);

/** The frames on the wire, cut at `cuts` (fractions of its length). */
function chunksOf(frames: readonly Frame[], cuts: readonly number[]): Buffer[] {
  const wire = Buffer.from(frames.map((f) => `${JSON.stringify(f)}\n`).join(""), "utf8");
  const at = [...new Set(cuts.map((c) => Math.floor(c * wire.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const k of [...at, wire.length]) {
    out.push(wire.subarray(from, k));
    from = k;
  }
  return out;
}

/** The property, for a reader made by `make`: the frames read are the frames sent. */
function sameFrames(make: (onFrame: (f: Frame) => void) => Reader): fc.IPropertyWithHooks<[Frame[], number[]]> {
  return fc.property(fc.array(frame, { maxLength: 30 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), (frames, cuts) => {
    const got: Frame[] = [];
    const reader = make((f) => got.push(f));
    for (const c of chunksOf(frames, cuts)) expect(reader.push(c)).toBe(true);
    expect(got).toEqual(frames);
  });
}

/** A planted reader: it splits each chunk into lines on its own, so a frame cut by the wire is lost. */
class ChunkwiseReader implements Reader {
  constructor(private readonly onFrame: (f: Frame) => void) {}
  push(chunk: Buffer): boolean {
    for (const line of chunk.toString("utf8").split("\n")) {
      try {
        this.onFrame(JSON.parse(line) as Frame);
      } catch {
        /* a piece of a line: dropped */
      }
    }
    return true;
  }
}

describe("the holder's frames", () => {
  it("any frames cut into any chunks are read back exactly; a planted chunkwise reader is caught", () => {
    fc.assert(
      sameFrames((onFrame) => new FrameReader(1 << 20, onFrame)),
      { numRuns: 500 },
    );
    const planted = fc.check(
      sameFrames((onFrame) => new ChunkwiseReader(onFrame)),
      { numRuns: 500 },
    );
    expect(planted.failed).toBe(true);
  });

  it("a line over the limit, or one that is not a JSON object, stops the reader", () => {
    for (const bad of [`${JSON.stringify({ o: "x".repeat(200) })}\n`, "[1,2]\n", "not json\n", "x".repeat(300)]) {
      const r = new FrameReader(100, () => undefined);
      expect(r.push(Buffer.from(bad)), bad.slice(0, 20)).toBe(false);
      expect(r.push(Buffer.from('{"o":""}\n'))).toBe(false);
    }
  });

  it("through a real endpoint and client, a command's writes, its exit status and a session's stdin arrive unchanged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-frames-"));
    let script: { writes: readonly (readonly ["o" | "e", string])[]; code: number; input: string } = { writes: [], code: 0, input: "" };
    let stdinSeen = "";
    const endpoint = await startHolderEndpoint(
      dir,
      "mcb test",
      false,
      async (c) => {
        for (const [to, s] of script.writes) (to === "o" ? c.stdout : c.stderr).write(s);
        const chunks: Buffer[] = [];
        for await (const chunk of c.stdin) chunks.push(chunk as Buffer);
        stdinSeen = Buffer.concat(chunks).toString("utf8");
        return script.code;
      },
      () => undefined,
    );
    // The endpoint runs in this process, which a caller never calls (it would be itself): the record names our parent instead.
    const record = readHolderFile(dir)!;
    writeHolderFile(dir, { ...record, pid: process.ppid });
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom("o" as const, "e" as const), fc.string({ unit: "binary", maxLength: 300 })), { maxLength: 20 }),
          fc.integer({ min: 0, max: 255 }),
          fc.string({ unit: "binary", maxLength: 2000 }),
          async (writes, code, input) => {
            script = { writes, code, input };
            let out = "";
            let err = "";
            const { Readable } = await import("node:stream");
            const call = await callHolder(
              dir,
              { argv: ["mcp"], cwd: "/", env: {}, tty: { stdout: false, stderr: false }, pid: process.pid + 1, session: true },
              {
                stdin: Readable.from([Buffer.from(input, "utf8")]),
                stdout: { write: (s: string) => (out += s) },
                stderr: { write: (s: string) => (err += s) },
              },
            );
            expect(call).toEqual({ kind: "done", code });
            expect(out).toBe(
              writes
                .filter(([to]) => to === "o")
                .map(([, s]) => s)
                .join(""),
            );
            expect(err).toBe(
              writes
                .filter(([to]) => to === "e")
                .map(([, s]) => s)
                .join(""),
            );
            expect(stdinSeen).toBe(input);
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      await endpoint.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
