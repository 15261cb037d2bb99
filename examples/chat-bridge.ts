// Another chat feeding `/ai` messages to mcb (docs/CHAT.md "As a library"): here a list of one message.
import { ATTACH_COMMAND, ChatBridge, DEFAULT_AREA_POLICY, createMcbMcpServer, openWorkspace } from "@mcb/bridge";
import type { ChatMessage, ChatSource } from "@mcb/bridge";
import { DEFAULT_SCHEMATIC_LIMITS } from "@mcb/schematic";

const waiting: ChatMessage[] = [{ playerId: "00000000-0000-0000-0000-000000000001", playerName: "Steve", text: "status" }];
const source: ChatSource = {
  poll: async () => waiting.splice(0), // a Discord bot or a web page would wait here for its users' messages
  reply: async (playerId, text) => (console.log(`to ${playerId}: ${text}`), true),
  get ended() {
    return waiting.length === 0; // no more messages: run() returns once the replies are out
  },
  close: async () => undefined,
};

const world = await openWorkspace("state", { create: true }); // Result<Workspace>: the embedded world
if (!world.ok) throw new Error(world.error.message);
const bridge = await ChatBridge.open({
  world: world.value,
  source,
  agent: null, // no agent: requests are answered with what is missing (agentConfigFrom(process.env, dir) configures one)
  area: { ...DEFAULT_AREA_POLICY, zone: { minX: -4096, minY: -64, minZ: -4096, maxX: 4095, maxY: 319, maxZ: 4095 } },
  mcpServer: (context) => createMcbMcpServer(context),
  schematicLimits: DEFAULT_SCHEMATIC_LIMITS,
  attachCommand: ATTACH_COMMAND,
});
await bridge.run(); // or run(signal) to stop it from outside
await world.value.close();
