import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../live/MinestomHost.js";

/** Where Debian's postgresql package puts its programs (the newest major version installed). */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) if (existsSync(join(root, v, "bin", "postgres"))) return join(root, v, "bin");
  throw new Error("PostgreSQL is not installed (Debian: apt-get install postgresql); the journal tests start a throwaway server from it");
}

/**
 * A throwaway PostgreSQL server for tests and benchmarks: a new cluster in a temporary folder (on
 * tmpfs when there is one), listening on 127.0.0.1 only, password authentication for one user with
 * a random password. Started as the `postgres` system user when running as root (PostgreSQL
 * refuses root). `stop()` ends it and deletes the folder.
 */
export class PostgresServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    /** postgres://mcb:…@127.0.0.1:port/mcb */
    readonly url: string,
  ) {}

  static async start(): Promise<PostgresServer> {
    const bin = postgresBinDir();
    const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
    const dir = mkdtempSync(join(base, "mcb-pg-"));
    const asRoot = process.getuid?.() === 0;
    const run = (cmd: string, args: string[]): string[] => (asRoot ? ["runuser", "-u", "postgres", "--", cmd, ...args] : [cmd, ...args]);
    const password = randomBytes(12).toString("hex");
    const pwfile = join(dir, "pw");
    const data = join(dir, "data");
    writeFileSync(pwfile, password);
    chmodSync(dir, 0o700);
    if (asRoot) execFileSync("chown", ["-R", "postgres", dir]);
    const [initCmd, ...initArgs] = run(join(bin, "initdb"), [
      "-D",
      data,
      "-U",
      "mcb",
      `--pwfile=${pwfile}`,
      "--auth=scram-sha-256",
      "-E",
      "UTF8",
      "--no-instructions",
    ]);
    execFileSync(initCmd!, initArgs, { stdio: "pipe" });
    rmSync(pwfile);
    const port = await freePort();
    const [cmd, ...args] = run(join(bin, "postgres"), [
      "-D",
      data,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-k",
      dir,
      "-c",
      "max_connections=200",
      "-c",
      "shared_buffers=64MB",
    ]);
    const child = spawn(cmd!, args, { stdio: ["ignore", "ignore", "pipe"], detached: false });
    let log = "";
    child.stderr!.on("data", (b: Buffer) => (log = (log + b.toString()).slice(-4000)));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`PostgreSQL exited (${child.exitCode}): ${log}`);
      if (log.includes("ready to accept connections")) break;
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`PostgreSQL did not start within 30 s: ${log}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const [psql, ...psqlArgs] = run(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "mcb", "mcb"]);
    execFileSync(psql!, psqlArgs, { stdio: "pipe", env: { ...process.env, PGPASSWORD: password } });
    return new PostgresServer(child, dir, `postgres://mcb:${password}@127.0.0.1:${port}/mcb`);
  }

  /** A fast shutdown (SIGINT to the postmaster itself: `runuser` does not pass signals on), then the folder goes. */
  async stop(): Promise<void> {
    const pidFile = join(this.dir, "data", "postmaster.pid");
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").split("\n")[0]) : NaN;
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (Number.isInteger(pid) && pid > 0) {
      process.kill(pid, "SIGINT");
      const deadline = Date.now() + 10_000;
      while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (alive()) process.kill(pid, "SIGKILL");
    }
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
    rmSync(this.dir, { recursive: true, force: true });
  }
}
