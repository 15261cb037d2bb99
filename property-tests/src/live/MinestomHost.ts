import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, statSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The game versions of the host's two builds: 26.2 (the default) and 26.1.2 (mineflayer 4.39.0 speaks only 26.1). */
export type HostBuild = "26.2" | "26.1.2";

/** The Minestom host jars built by `java/build.sh` (npm test builds them first). */
export const MINESTOM_JARS: Readonly<Record<HostBuild, string>> = {
  "26.2": fileURLToPath(new URL("../../../java/port-minestom/target/mcb-port-minestom.jar", import.meta.url)),
  "26.1.2": fileURLToPath(new URL("../../../java/port-minestom/target-26.1.2/mcb-port-minestom.jar", import.meta.url)),
};
/** The default (26.2) host jar. */
export const MINESTOM_JAR = MINESTOM_JARS["26.2"];
/** The host's JVM flags, the argument file java/server.sh runs it with (a fixed heap, ZGC). */
const HOST_JVM = `@${fileURLToPath(new URL("../../../java/host.jvm-options", import.meta.url))}`;

/** Java 25, which Minestom needs; MCB_JAVA wins when set. */
export const JAVA = process.env.MCB_JAVA ?? "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java";

export interface MinestomHostOptions {
  /** Which build (default 26.2): a test with a mineflayer client needs 26.1.2. */
  readonly build?: HostBuild;
  /** Reuse a world folder (restart after a crash); default a fresh temporary one. */
  readonly worldDir?: string;
  readonly testHooks?: boolean;
  /**
   * Run the host with the conformance suite's planted bug (compare-and-set writing past a failing
   * group): `PlantedBugHost` from the tests' jar, never the shipped host. Implies test hooks.
   */
  readonly plantedCasBug?: boolean;
  readonly autosaveMs?: number;
  readonly budgetMs?: number;
  /** Reuse these ports (a restart keeps the addresses). */
  readonly gamePort?: number;
  readonly httpPort?: number;
  readonly token?: string;
  readonly startTimeoutMs?: number;
  /**
   * The JVM's full tiered JIT (C2), as `java/server.sh` runs the host: for the tests and benches
   * that time it (ticks, blocks/s). By default a test host compiles with C1 only
   * (`-XX:TieredStopAtLevel=1`): it lives seconds, and C2's compiling on CI's two cores cost more
   * than it ever gave back (the crash and conformance files: 77 s of CPU with C2, 46 s with C1;
   * a start 3.1 s → 2.1 s). The host's behaviour is the same either way.
   */
  readonly fullJit?: boolean;
  /** Chunks kept loaded around 0,0 (default 4: x and z −64..79). */
  readonly loadRadius?: number;
}

/** A running port-minestom process on loopback: a real Minecraft 26.2 (or 26.1.2) server with the world port. */
export interface MinestomHost {
  readonly url: string;
  readonly token: string;
  readonly gamePort: number;
  readonly httpPort: number;
  readonly worldDir: string;
  readonly process: ChildProcess;
  /** Everything the process printed (stdout and stderr). */
  output(): string;
  /** SIGTERM, waits for a clean exit (chunks saved). */
  stop(): Promise<void>;
  /** SIGKILL: a crash, nothing saved since the last autosave. */
  kill(): Promise<void>;
  /** Removes the world folder (only one this helper created). */
  dispose(): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts the host and waits (bounded) for its `mcb-port ready` line. */
export async function startMinestomHost(options: MinestomHostOptions = {}): Promise<MinestomHost> {
  const jar = MINESTOM_JARS[options.build ?? "26.2"];
  if (!existsSync(jar)) throw new Error(`${jar} is missing: build it with 'bash java/build.sh' (npm test does)`);
  const ownDir = options.worldDir === undefined;
  const worldDir = options.worldDir ?? mkdtempSync(join(tmpdir(), "mcb-minestom-"));
  const gamePort = options.gamePort ?? (await freePort());
  const httpPort = options.httpPort ?? (await freePort());
  const token = options.token ?? randomBytes(24).toString("hex");
  const args = hostArgs(options, jar, worldDir, gamePort, httpPort);
  const child = spawn(JAVA, args, { env: { ...process.env, MCB_PORT_TOKEN: token }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the Minestom host did not start within ${options.startTimeoutMs ?? 60_000} ms:\n${out.slice(-2000)}`));
    }, options.startTimeoutMs ?? 60_000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (out.includes("mcb-port ready")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the Minestom host exited (${code}) before it was ready:\n${out.slice(-2000)}`));
    });
  });
  const waitExit = async (signal: NodeJS.Signals, ms: number): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await Promise.race([exited, new Promise((r) => setTimeout(r, ms))]);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
  };
  return {
    url: `port://127.0.0.1:${httpPort}`,
    token,
    gamePort,
    httpPort,
    worldDir,
    process: child,
    output: () => out,
    stop: () => waitExit("SIGTERM", 15_000),
    kill: () => waitExit("SIGKILL", 5_000),
    dispose: () => {
      if (ownDir) rmSync(worldDir, { recursive: true, force: true });
    },
  };
}

/** The java command line of a host: the JVM's flags and cache, the jar (or the planted-bug host), the world and ports. */
function hostArgs(options: MinestomHostOptions, jar: string, worldDir: string, gamePort: number, httpPort: number): string[] {
  const jvm = (process.env.MCB_JAVA_OPTS ?? "").split(/\s+/).filter((a) => a.length > 0); // e.g. profiling flags
  const tests = jar.replace(/\.jar$/, "-tests.jar");
  const testHost = options.plantedCasBug === true ? "PlantedBugHost" : options.testHooks === true ? "TestHooksHost" : null;
  if (testHost !== null && !existsSync(tests)) throw new Error(`${tests} is missing: build it with 'bash java/build.sh' (npm test does)`);
  // The host's AOT cache from java/build.sh's training run (a faster start), for the jar it was made from.
  const aot = jar.replace(/\.jar$/, ".aot");
  // Only a cache newer than the jar: after a rebuild without java/build.sh (mvn alone) the JVM took
  // the old cache without a word and ran the classes it held instead of the jar's.
  const cache = testHost === null && existsSync(aot) && statSync(aot).mtimeMs >= statSync(jar).mtimeMs ? [`-XX:AOTCache=${aot}`] : [];
  // The tests' hooks (test_edit) and the planted bug live in the tests' jar only, never in the host's.
  const main = testHost !== null ? ["-cp", `${jar}:${tests}`, `dev.mcb.port.minestom.${testHost}`] : [...cache, "-jar", jar];
  const args = [
    HOST_JVM,
    ...(options.fullJit === true ? [] : ["-XX:TieredStopAtLevel=1"]),
    ...(process.getuid?.() === 0 ? ["-XX:ThreadPriorityPolicy=1", "-XX:JavaPriority10_To_OSPriority=-10"] : []), // as java/server.sh: the tick's threads first where the system allows it
    ...jvm,
    ...main,
    "--world",
    worldDir,
    "--game-port",
    String(gamePort),
    "--http-port",
    String(httpPort),
    "--load-radius",
    String(options.loadRadius ?? 4),
    "--autosave-ms",
    String(options.autosaveMs ?? 2000),
    "--budget-ms",
    String(options.budgetMs ?? 5),
  ];
  return args;
}
