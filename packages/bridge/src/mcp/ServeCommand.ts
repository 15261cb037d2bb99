import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { EngineLimits } from "@mcb/engine";
import type { SchematicLimits } from "@mcb/schematic";
import type { AnswerOptions } from "../workspace/agent/AnswerOptions.js";
import type { Toolset } from "../workspace/agent/Toolsets.js";
import type { RoomHost } from "../workspace/holder/HeldWorld.js";
import { roomWorld } from "../workspace/holder/RoomWorld.js";
import type { WorldLocation, WorldService } from "../workspace/world/Workspace.js";
import { MCP_HTTP_PATH, startMcpHttp, type McpHttpServer } from "./McpHttp.js";

/** Where `mcb serve --http` keeps its bearer token when MCB_HTTP_TOKEN does not give one (mode 0600). */
export const HTTP_TOKEN_FILE = "http-token";
const GIVEN_TOKEN = /^[\x21-\x7e]{24,512}$/;

export interface ServeOptions {
  /** `--http PORT`: MCP over Streamable HTTP on 127.0.0.1:PORT (0: any free port). */
  readonly http?: number;
  readonly schematicLimits: SchematicLimits;
  readonly limits: Partial<EngineLimits>;
  readonly toolsets: readonly Toolset[];
  readonly answers: AnswerOptions;
}

/** MCB_HTTP_TOKEN, else the state directory's token file (made once, 0600): never printed, never on the command line. */
function httpToken(dir: string, env: RoomHost["env"]): Result<string> {
  const given = env.MCB_HTTP_TOKEN;
  if (given !== undefined && given.length > 0)
    return GIVEN_TOKEN.test(given)
      ? ok(given)
      : fail(mcbError("invalid_request", "MCB_HTTP_TOKEN must be 24 to 512 printable characters", { reason: "http_token" }));
  const path = join(dir, HTTP_TOKEN_FILE);
  try {
    const kept = readFileSync(path, "utf8").trim();
    if (GIVEN_TOKEN.test(kept)) {
      chmodSync(path, 0o600);
      return ok(kept);
    }
  } catch {
    /* none yet */
  }
  const made = randomBytes(32).toString("base64url");
  writeFileSync(path, `${made}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return ok(made);
}

/**
 * `mcb serve`: holds the world and serves every other mcb process on its state directory (their
 * commands, `mcb mcp` and `mcb chat` sessions run here), and with `--http PORT` MCP clients over
 * Streamable HTTP. Runs until SIGINT/SIGTERM: running operations stop after their current slice.
 */
export async function runServe(where: WorldLocation, o: ServeOptions, host: RoomHost, service: WorldService): Promise<Result<void>> {
  const room = await roomWorld(where, host, { limits: o.limits, create: true, agent: true }, "mcb serve", service);
  if (!room.ok) return room;
  const w = room.value.world;
  let http: McpHttpServer | null = null;
  // One listener per signal for every HTTP session, however many (not one each: Node warns past ten).
  const sessions = new Set<(signal: NodeJS.Signals) => void>();
  const fanOut = (signal: NodeJS.Signals): void => {
    for (const h of [...sessions]) h(signal);
  };
  process.on("SIGINT", fanOut);
  process.on("SIGTERM", fanOut);
  const signals = (h: (signal: NodeJS.Signals) => void): (() => void) => {
    sessions.add(h);
    return () => void sessions.delete(h);
  };
  const stopped = new Promise<void>((resolve) => w.interrupt.install(resolve));
  try {
    if (o.http !== undefined) {
      const token = httpToken(w.dir, host.env);
      if (!token.ok) return token;
      try {
        http = await startMcpHttp(w, {
          port: o.http,
          token: token.value,
          schematicLimits: o.schematicLimits,
          toolsets: o.toolsets,
          answers: o.answers,
          signals,
        });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return fail({
          ...mcbError("busy", `cannot listen on 127.0.0.1:${o.http}: ${code ?? (e as Error).message}`, { reason: "http_port", port: o.http }),
          retryable: code === "EADDRINUSE",
        });
      }
    }
    const where2 =
      w.embedded !== null
        ? `the embedded world in ${w.dir}`
        : w.save !== null
          ? `the save ${w.target.savePath ?? "?"} (journal in ${w.dir})`
          : `the server world (journal in ${w.dir})`;
    host.stderr.write(
      `mcb serve: holding ${where2}; mcb commands, mcb mcp and mcb chat on --state ${w.dir} run here${
        http === null
          ? ""
          : `; MCP over HTTP at http://127.0.0.1:${http.port}${MCP_HTTP_PATH} (bearer token ${host.env.MCB_HTTP_TOKEN ? "from MCB_HTTP_TOKEN" : `in ${join(w.dir, HTTP_TOKEN_FILE)}`})`
      }\n`,
    );
    await stopped;
    return ok(undefined);
  } finally {
    process.off("SIGINT", fanOut);
    process.off("SIGTERM", fanOut);
    await http?.close();
    await room.value.close();
  }
}
