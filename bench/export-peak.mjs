// Child process of export.bench.mjs: runs one `mcb` command in this process (as the bin does) and
// prints, last on stderr as JSON, the process's peak resident memory (max RSS).
import { main, processIo } from "@mcb/bridge";

const code = await main(process.argv.slice(2), processIo());
process.stderr.write(`\n${JSON.stringify({ peakMiB: (process.resourceUsage().maxRSS * 1024) / 2 ** 20 })}\n`);
process.exit(code);
