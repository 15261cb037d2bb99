import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { afterEach } from "vitest";
import { cli, openWorld, root } from "../support.js";

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
      if (left <= 0)
        throw new Error(`no line matching ${re} after ${timeoutMs} ms; got:\n${this.lines.map((l) => l.text).join("\n")}\nstderr:\n${this.stderr.join("\n")}`);
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

  /** SIGTERM: the bridge cancels running turns, stops its agents and exits. */
  terminate(): void {
    this.child.kill("SIGTERM");
  }

  texts(from = 0): string[] {
    return this.lines.slice(from).map((l) => l.text);
  }
}

type Box = { minX: number; minY: number; minZ: number; maxX: number; maxY: number; maxZ: number };

/**
 * A test file's chat kit: `state()` makes a state directory, `chat(dir, args, env)` starts
 * `mcb chat --console` on it, `countBlocks(dir, box, state)` counts a state in the world once the
 * chat has exited. Processes are killed and directories removed after each test.
 */
export function chatFixture(): {
  state(): string;
  chat(dir: string, extra?: string[], env?: Record<string, string>): ChatProcess;
  countBlocks(dir: string, box: Box, state: string): Promise<number>;
} {
  let dirs: string[] = [];
  let procs: ChatProcess[] = [];
  afterEach(() => {
    procs.forEach((p) => p.kill());
    procs = [];
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
    dirs = [];
  });
  return {
    state: () => {
      const d = mkdtempSync(join(tmpdir(), "mcb-chat-"));
      dirs.push(d);
      return d;
    },
    chat: (dir, extra = [], env = {}) => {
      const p = new ChatProcess(["--console", "--state", dir, ...extra], env);
      procs.push(p);
      return p;
    },
    countBlocks: async (dir, box, state) => {
      const w = await openWorld(dir);
      try {
        const r = await w.world.read(box);
        let n = 0;
        for (const i of r.states) if (r.palette[i] === state) n++;
        return n;
      } finally {
        await w.close();
      }
    },
  };
}
