import { createInterface } from "node:readline";
import { Writable, type Readable } from "node:stream";
import type { TextOut } from "../workspace/holder/Forwarding.js";
import type { ChatMessage, ChatSource } from "./ChatSource.js";

/**
 * `mcb chat --console`: every stdin line is one `/ai` message from one local player (a bare line
 * is a request, as if typed after `/ai`); replies are stdout lines. Ends when stdin closes.
 */
export class ConsoleChat implements ChatSource {
  private readonly lines: string[] = [];
  private closedInput = false;
  private wake: (() => void) | null = null;
  private readonly rl: ReturnType<typeof createInterface>;

  constructor(
    private readonly input: Readable,
    private readonly output: TextOut,
    private readonly player: { readonly playerId: string; readonly playerName: string },
  ) {
    const rl = (this.rl = createInterface({ input, crlfDelay: Infinity }));
    rl.on("line", (line) => {
      if (line.trim().length === 0) return;
      this.lines.push(line);
      this.wake?.();
    });
    rl.on("close", () => {
      this.closedInput = true;
      this.wake?.();
    });
  }

  get ended(): boolean {
    return this.closedInput && this.lines.length === 0;
  }

  async poll(): Promise<readonly ChatMessage[]> {
    if (this.lines.length === 0 && !this.closedInput)
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, 250);
        function done(): void {
          clearTimeout(t);
          resolve();
        }
        this.wake = done;
      });
    this.wake = null;
    return this.lines.splice(0).map((text) => ({ ...this.player, text }));
  }

  async reply(_playerId: string, text: string): Promise<boolean> {
    const out = this.output;
    // A Writable: wait until it took the line; a caller's stream relayed by the holder takes it at once.
    if (out instanceof Writable) await new Promise<void>((resolve, reject) => out.write(`${text}\n`, (e) => (e ? reject(e) : resolve())));
    else out.write(`${text}\n`);
    return true;
  }

  /** Stops reading (an open terminal would otherwise keep the process alive). */
  async close(): Promise<void> {
    this.rl.close();
    this.input.destroy();
  }
}
