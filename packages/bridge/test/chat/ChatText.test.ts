import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ChatSender, MESSAGES_PER_SECOND } from "../../src/chat/ChatSender.js";
import { MAX_CHAT_MESSAGE, SentenceAssembler, cleanChatText, splitForChat } from "../../src/chat/ChatText.js";

const normalized = (s: string): string => cleanChatText(s).replace(/\s+/g, " ").trim();
const isLoneSurrogate = (s: string): boolean => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
const text = fc
  .array(
    fc.oneof(fc.string({ unit: "grapheme", maxLength: 30 }), fc.constantFrom(" ", ". ", "\n", "! ", "😀", "a".repeat(300), "§c"), fc.string({ maxLength: 12 })),
    { maxLength: 40 },
  )
  .map((a) => a.join(""));

describe("chat text", () => {
  it("property: pieces are ≤ 240 units, never split a surrogate pair, and keep every word in order", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 300 }), (s, max) => {
        const pieces = splitForChat(s, max);
        for (const p of pieces) {
          expect(p.length).toBeLessThanOrEqual(max);
          expect(p.length).toBeGreaterThan(0);
          if (!isLoneSurrogate(s)) expect(isLoneSurrogate(p)).toBe(false);
        }
        // joining the pieces gives the normalized text back, up to the spaces at the cuts
        expect(pieces.join("").replace(/ /g, "")).toBe(normalized(s).replace(/ /g, ""));
      }),
      { numRuns: 500 },
    );
  });

  it("cuts at the last space inside the limit, and a long word at the limit", () => {
    expect(splitForChat("aaa bbb ccc", 7)).toEqual(["aaa bbb", "ccc"]);
    expect(splitForChat("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(splitForChat("abc😀def", 4)).toEqual(["abc", "😀de", "f"]);
    expect(splitForChat("§4red §lbold\u0007bell")).toEqual(["red bold bell"]);
    expect(splitForChat("§😀ok", 2)).toEqual(["ok"]); // § takes the whole emoji (regression, seed -674066422)
  });

  it("property: the assembler releases whole sentences and loses nothing, however the stream is chunked", () => {
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 10 }), (s, sizes) => {
        const a = new SentenceAssembler();
        const out: string[] = [];
        let i = 0;
        for (let k = 0; i < s.length; k++) {
          const n = sizes[k % sizes.length]!;
          out.push(...a.push(s.slice(i, i + n)));
          i += n;
        }
        out.push(...a.flush());
        for (const m of out) expect(m.length).toBeLessThanOrEqual(MAX_CHAT_MESSAGE);
        expect(out.join("").replace(/ /g, "")).toBe(normalized(s).replace(/ /g, ""));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps an unfinished phrase until the sentence ends or the turn does", () => {
    const a = new SentenceAssembler();
    expect(a.push("Building the to")).toEqual([]);
    expect(a.push("wer now. Next")).toEqual(["Building the tower now."]);
    expect(a.push(" step\nand")).toEqual(["Next step"]);
    expect(a.flush()).toEqual(["and"]);
  });
});

describe("chat sender", () => {
  it("delivers in order, one at a time, at most four per player in any second; players are independent", async () => {
    const got: { p: string; t: string; at: number }[] = [];
    let inFlight = 0;
    const sender = new ChatSender(async (p, t) => {
      inFlight++;
      expect(inFlight).toBe(1);
      await new Promise((r) => setTimeout(r, 5));
      got.push({ p, t, at: performance.now() });
      inFlight--;
      return true;
    });
    const t0 = performance.now();
    for (let i = 0; i < 9; i++) sender.send("a", `m${i}`);
    await sender.idle("a");
    expect(got.map((g) => g.t)).toEqual([...Array(9).keys()].map((i) => `m${i}`));
    for (let i = MESSAGES_PER_SECOND; i < got.length; i++) expect(got[i]!.at - got[i - MESSAGES_PER_SECOND]!.at).toBeGreaterThanOrEqual(995);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1990);
    const other = new ChatSender(async (p, t) => {
      got.push({ p, t, at: performance.now() });
      return true;
    });
    const t1 = performance.now();
    for (const p of ["x", "y", "z"]) for (let i = 0; i < 4; i++) other.send(p, `${p}${i}`);
    await other.idleAll();
    expect(performance.now() - t1).toBeLessThan(900); // 4 each: no player waits for another
  });

  it("splits long replies into ≤ 240-character messages", async () => {
    const got: string[] = [];
    const sender = new ChatSender(async (_p, t) => {
      got.push(t);
      return true;
    });
    sender.send("a", "word ".repeat(100));
    await sender.idle("a");
    expect(got.length).toBe(3);
    expect(got.every((m) => m.length <= 240)).toBe(true);
  });
});

describe("an agent's failure, said to the player", () => {
  it("names the cause in one sentence; a missing key says who sets which variable; long causes are cut", async () => {
    const { forPlayer } = await import("../../src/chat/ProjectTurns.js");
    expect(forPlayer("Authentication required")).toBe(
      "it is not signed in to its model (the person running mcb chat sets MCB_OPENAI_API_KEY or MCB_CODEX_API_KEY; mcb doctor says what is missing).",
    );
    expect(forPlayer("ACP connection closed")).toBe("ACP connection closed.");
    expect(forPlayer(`x\n${"y".repeat(300)}`)).toHaveLength(161);
  });
});
