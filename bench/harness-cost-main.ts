import { benchHarnessCost } from './harness-cost.js';
const f = await benchHarnessCost(process.argv[2], process.argv[3], (l) => console.log(l));
console.log(JSON.stringify(f, null, 1));
