import { PortWorld } from "@mcb/adapter-port";
import type { AdapterDriver } from "../conformance/AdapterConformance.js";
import type { MinestomHost } from "./MinestomHost.js";

/**
 * Conformance driver over a live world port with test hooks: edits from outside the engine go
 * through the port's `test_edit` (on the game thread, with or without an event, as a player or a
 * plugin without events would). Each driver first clears the conformance arena without events.
 */
export async function portDriver(host: MinestomHost, arena: { minX: number; maxX: number; y: number; minZ: number; maxZ: number }): Promise<AdapterDriver> {
  const world = await PortWorld.connect({ url: host.url, token: host.token });
  const edit = async (x: number, y: number, z: number, state: string, event: boolean): Promise<void> => {
    await world.port.call("test_edit", { x, y, z, state, event }, false);
  };
  for (let x = arena.minX; x <= arena.maxX; x++) for (let z = arena.minZ; z <= arena.maxZ; z++) await edit(x, arena.y, z, "minecraft:air", false);
  return { adapter: world, edit, close: () => world.close() };
}
