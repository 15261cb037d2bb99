import { connect } from "node:net";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { RELAY_GREETING } from "./McpRelay.js";

/**
 * `mcb mcp --attach`: the MCP server entry `mcb chat` gives its agents. Connects to the chat's
 * relay at MCB_CHAT_MCP (127.0.0.1 only) with MCB_CHAT_MCP_TOKEN (environment only, never argv)
 * and then copies stdin to the relay and the relay to stdout, so the agent speaks MCP to the chat
 * process's engine with the identity the chat bound to the token.
 */
export async function attachToChat(env: NodeJS.ProcessEnv = process.env): Promise<Result<void>> {
  const addr = env.MCB_CHAT_MCP ?? "";
  const token = env.MCB_CHAT_MCP_TOKEN ?? "";
  const m = /^127\.0\.0\.1:(\d{1,5})$/.exec(addr);
  if (m === null || Number(m[1]) < 1 || Number(m[1]) > 65535)
    return fail(mcbError("invalid_request", "MCB_CHAT_MCP must be 127.0.0.1:PORT (set by mcb chat)", { reason: "attach" }));
  if (token.length === 0 || /\s/.test(token))
    return fail(mcbError("permission_denied", "MCB_CHAT_MCP_TOKEN is missing (set by mcb chat)", { reason: "attach" }));
  const socket = connect({ port: Number(m[1]), host: "127.0.0.1", allowHalfOpen: true });
  const answer = await new Promise<string>((resolve) => {
    let head = "";
    socket.once("error", (e) => resolve(`ERR ${e.message}`));
    const onData = (chunk: Buffer): void => {
      head += chunk.toString("latin1");
      const nl = head.indexOf("\n");
      if (nl < 0) return;
      socket.off("data", onData);
      socket.pause();
      const rest = Buffer.from(head.slice(nl + 1), "latin1");
      if (rest.length > 0) socket.unshift(rest);
      resolve(head.slice(0, nl));
    };
    socket.on("data", onData);
    socket.once("end", () => resolve(head.length > 0 ? head.trim() : "ERR closed"));
    socket.write(`${RELAY_GREETING} ${token}\n`);
  });
  if (answer !== "OK") {
    socket.destroy();
    return fail(mcbError("permission_denied", `the chat relay refused this MCP connection (${answer.slice(0, 80)})`, { reason: "attach" }));
  }
  await new Promise<void>((resolve) => {
    process.stdin.pipe(socket);
    socket.pipe(process.stdout);
    socket.resume();
    socket.on("close", () => resolve());
    socket.on("error", () => resolve());
  });
  return ok(undefined);
}
