import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { SaveError } from "./SaveError.js";

/** What the game writes into `session.lock` (U+2603 SNOWMAN, UTF-8). */
const SNOWMAN = Buffer.from("\u2603", "utf8");

/**
 * Holds the fcntl lock on session.lock for as long as stdin stays open: the parent's death closes
 * it, so the lock never outlives the process that asked for it. Prints "locked" or "busy".
 */
const HOLDER = [
  "import fcntl, sys",
  "f = open(sys.argv[1], 'r+b')",
  "try:",
  "    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)",
  "except OSError:",
  "    print('busy', flush=True)",
  "    sys.exit(3)",
  "print('locked', flush=True)",
  "sys.stdin.buffer.read()",
].join("\n");

/**
 * The python3 on PATH to run the holder with: the first that is a program itself, else the first
 * (a version manager's shim — a script that picks an interpreter — costs a tenth of a second a
 * start, every command on a save). Null when PATH has none.
 */
function lockPython(): string | null {
  let first: string | null = null;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const path = join(dir, "python3");
    // What a PATH lookup finds: an executable regular file (a directory or an unreadable file is passed over).
    let head: Buffer;
    try {
      accessSync(path, constants.X_OK);
      if (!statSync(path).isFile()) continue;
      const fd = openSync(path, "r");
      try {
        head = Buffer.alloc(2);
        readSync(fd, head, 0, 2, 0);
      } finally {
        closeSync(fd);
      }
    } catch {
      continue;
    }
    if (head.toString("latin1") !== "#!") return path;
    first ??= path;
  }
  return first;
}

/** Processes other than ours holding a POSIX or flock lock on the file (Linux /proc/locks), by pid. */
function lockHolders(path: string): number[] {
  if (!existsSync("/proc/locks")) return [];
  const st = statSync(path);
  const dev = Number(st.dev);
  // /proc/locks names a file "MAJOR:MINOR:INODE" with hex major and minor.
  const major = Math.floor(dev / 256) & 0xfff,
    minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
  const id = `${major.toString(16).padStart(2, "0")}:${minor.toString(16).padStart(2, "0")}:${st.ino}`;
  const pids: number[] = [];
  for (const line of readFileSync("/proc/locks", "utf8").split("\n")) {
    const f = line.trim().split(/\s+/);
    // "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (a "->" marks a waiting request).
    if (f.length < 6 || f.includes("->")) continue;
    const at = f.findIndex((x) => /^[0-9a-f]+:[0-9a-f]+:\d+$/.test(x));
    if (at < 0 || f[at] !== id) continue;
    const pid = Number(f[at - 1]);
    if (Number.isInteger(pid) && pid !== process.pid) pids.push(pid);
  }
  return pids;
}

/**
 * The save's `session.lock`, taken as the game takes it: the snowman written and an exclusive
 * fcntl lock over the whole file held for the life of the world (the game's `FileChannel.tryLock`
 * then refuses to open the save, and we refuse a save the game or a server holds). Node has no
 * fcntl, so a small python3 child holds the lock and dies with us. Without python3 the lock is only
 * checked, not held, and `held` is false (the world says so in its warnings).
 */
export class SessionLock {
  private constructor(
    readonly path: string,
    private child: ChildProcess | null,
  ) {}

  get held(): boolean {
    return this.child !== null;
  }

  static async acquire(saveDir: string): Promise<SessionLock> {
    const path = join(saveDir, "session.lock");
    if (!existsSync(path)) writeFileSync(path, SNOWMAN);
    const busy = (detail: string): SaveError =>
      new SaveError("busy", `${saveDir} is open in Minecraft or another program (${detail}); close the world there first, then try again`, {
        file: path,
        reason: "session_locked",
      });
    const holders = lockHolders(path);
    if (holders.length > 0) throw busy(`process ${holders.join(", ")} holds session.lock`);
    const python = lockPython();
    if (python === null) return new SessionLock(path, null);
    // -S: no site module (only fcntl and sys are needed; starts in milliseconds instead of a tenth of a second).
    const child = spawn(python, ["-S", "-c", HOLDER, path], { stdio: ["pipe", "pipe", "ignore"] });
    const answer = await new Promise<string>((resolve) => {
      let out = "";
      child.once("error", () => resolve("unavailable"));
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("\n")) resolve(out.trim());
      });
      child.once("exit", () => resolve(out.trim() || "unavailable"));
    });
    if (answer === "busy") throw busy("session.lock is locked");
    if (answer !== "locked") {
      child.kill();
      return new SessionLock(path, null);
    }
    // The game writes the snowman when it takes the lock; so do we.
    writeFileSync(path, SNOWMAN);
    child.stdout!.removeAllListeners("data");
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    (child.stdout as unknown as { unref?: () => void }).unref?.();
    return new SessionLock(path, child);
  }

  /** Checks that nobody else took the save meanwhile (when the lock could not be held). */
  check(): void {
    if (this.child !== null) return;
    const holders = lockHolders(this.path);
    if (holders.length > 0)
      throw new SaveError("busy", `process ${holders.join(", ")} opened the save meanwhile; mcb stopped writing to it`, {
        file: this.path,
        reason: "session_locked",
      });
  }

  /** Lets the lock go; resolves once it is gone (the holder has exited). */
  release(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (c === null || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
    const gone = new Promise<void>((resolve) => c.once("exit", () => resolve()));
    c.ref(); // waited for: it must keep the process alive until it is gone
    c.stdin?.end();
    c.kill();
    return gone;
  }
}
