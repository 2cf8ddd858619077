// Child process of bench/prober-load.ts: runs one traffic prober (lib/observe/prober.ts) alone, so its memory is the
// process's own. Usage: node dist/bench/prober-child.js <url> <ratePerSecond> <seconds> <journal path>; prints one JSON line.
import { openJournal, startProber } from '../lib/observe/index.js';

const [url, rate, seconds, path] = process.argv.slice(2);
const sample = () => process.memoryUsage().rss;
// Let startup settle, then take the baseline: Node itself, the modules and an open journal, before any request.
const journal = openJournal(path!);
await new Promise((r) => setTimeout(r, 1_000));
const baselineRssBytes = sample();
let peakRssBytes = baselineRssBytes;
const sampler = setInterval(() => (peakRssBytes = Math.max(peakRssBytes, sample())), 250);
const prober = startProber(journal, { name: 'bench', url: url!, ratePerSecond: Number(rate), timeoutMs: 1_000 });
await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
await prober.stop();
clearInterval(sampler);
journal.close();
process.stdout.write(`${JSON.stringify({ sent: prober.sent, baselineRssBytes, peakRssBytes, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
