/**
 * Newline-delimited JSON frames from a byte stream, each at most `maxLine` bytes; `push` is false
 * (and the reader stops) on a longer line or one that is not a JSON object.
 */
export class FrameReader {
  private parts: Buffer[] = [];
  private bytes = 0;
  private failed = false;

  constructor(
    private readonly maxLine: number,
    private readonly onFrame: (frame: Record<string, unknown>) => void,
  ) {}

  push(chunk: Buffer): boolean {
    if (this.failed) return false;
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      const line = this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece]);
      this.parts = [];
      this.bytes = 0;
      if (line.length > this.maxLine) return this.fail();
      let frame: unknown;
      try {
        frame = JSON.parse(line.toString("utf8"));
      } catch {
        return this.fail();
      }
      if (frame === null || typeof frame !== "object" || Array.isArray(frame)) return this.fail();
      this.onFrame(frame as Record<string, unknown>);
    }
    if (start < chunk.length) {
      this.parts.push(chunk.subarray(start));
      this.bytes += chunk.length - start;
      if (this.bytes > this.maxLine) return this.fail();
    }
    return true;
  }

  private fail(): false {
    this.failed = true;
    this.parts = [];
    return false;
  }
}
