import { startMinestomHost } from "@mcb/property-tests";
import { PortClient } from "@mcb/adapter-paper";
const host = await startMinestomHost({});
const c = new PortClient({ url: host.url, token: host.token });
const time = async (label, f, n = 300) => { for (let i = 0; i < 30; i++) await f(i); const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) await f(i); console.log(label, (Number(process.hrtime.bigint() - t) / 1e6 / n).toFixed(3), "ms"); };
await time("health", () => c.health());
await time("info", () => c.call("info", {}, true));
await time("stats", () => c.call("stats", {}, true));
c.close(); await host.stop(); host.dispose();
