import { describe, expect, it } from "vitest";
import { mcbError, ok } from "@mcb/blocks";
import { MAX_TEXT_BYTES, errorResult, toolResult } from "../../src/mcp/ToolResult.js";

describe("tool results", () => {
  it("a text over 64 KiB becomes budget_exceeded (response_size); one at the limit passes", () => {
    const over = toolResult(ok({ x: "a".repeat(MAX_TEXT_BYTES) }));
    expect(over.isError).toBe(true);
    expect(JSON.parse((over.content[0] as { text: string }).text).error).toMatchObject({
      code: "budget_exceeded",
      details: { reason: "response_size", limit: 65536 },
    });
    const at = toolResult(ok({ x: "a".repeat(MAX_TEXT_BYTES - 8) })); // {"x":"…"} adds 8 bytes
    expect(at.isError).toBeUndefined();
    expect(Buffer.byteLength((at.content[0] as { text: string }).text)).toBe(MAX_TEXT_BYTES);
  });

  it("an error's echoes are bounded: long strings, many keys, long arrays, deep nesting", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 50; i++) deep = { d: deep };
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`.repeat(50), i]));
    const r = errorResult(
      mcbError("invalid_request", "m".repeat(1_000_000), { name: "n".repeat(5_000_000), many, list: Array.from({ length: 10_000 }, (_, i) => i), deep }),
    );
    const text = (r.content[0] as { text: string }).text;
    expect(Buffer.byteLength(text)).toBeLessThan(8 * 1024);
    const body = JSON.parse(text).error;
    expect(body.message).toMatch(/^m{400}…\(999600 more characters\)$/);
    expect(body.details.name).toMatch(/^n{160}…\(4999840 more characters\)$/);
    expect(body.details.list).toHaveLength(17);
    expect(body.details.list[16]).toBe("…(9984 more items)");
    expect(Object.keys(body.details.many)).toHaveLength(33);
    expect(JSON.stringify(body.details.deep)).toContain("nested too deep");
  });
});
