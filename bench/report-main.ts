import { writeScaledRun } from './scale-journal.js';
import { measureCli } from './harness-cost.js';
const t0 = performance.now();
const run = writeScaledRun(process.argv[2], { copies: 500, podsPerCopy: 4 });
console.log(run, ((performance.now() - t0) / 1000).toFixed(1), 's to write');
const f = await measureCli(['report', run.dir], (l) => console.log(l));
console.log(JSON.stringify(f, null, 1));
