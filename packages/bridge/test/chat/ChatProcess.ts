import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { cli, root } from "../support.js";

export const scriptedAgent = join(root, "property-tests/dist/acp/ScriptedAgent.js");

export interface Line {
  readonly text: string;
  readonly at: number;
}

/**
 * A real `mcb chat` process (the built CLI) over real stdio pipes, with the scripted ACP agent as
 * its agent: `send` types a console line, `waitFor` reads reply lines as they arrive.
 */
export class ChatProcess {
  readonly lines: Line[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;
  private waiters: (() => void)[] = [];

  constructor(args: string[], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [cli, "chat", ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", MCB_ACP_COMMAND: process.execPath, MCB_ACP_ARGS: JSON.stringify([scriptedAgent]), ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    createInterface({ input: this.child.stdout }).on("line", (text) => {
      this.lines.push({ text, at: performance.now() });
      for (const w of this.waiters.splice(0)) w();
    });
    createInterface({ input: this.child.stderr }).on("line", (l) => this.stderr.push(l));
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** The first line at or after `from` matching `re`; its index. */
  async waitFor(re: RegExp, from = 0, timeoutMs = 30_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const i = this.lines.findIndex((l, k) => k >= from && re.test(l.text));
      if (i >= 0) return i;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no line matching ${re} after ${timeoutMs} ms; got:\n${this.lines.map((l) => l.text).join("\n")}\nstderr:\n${this.stderr.join("\n")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Closes stdin and waits for the process to finish every request and exit. */
  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }

  texts(from = 0): string[] {
    return this.lines.slice(from).map((l) => l.text);
  }
}
