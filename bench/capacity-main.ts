import { parseArgs } from 'node:util';
import { benchObserverCapacity } from './observer-capacity.js';
const { values } = parseArgs({ options: { rate: { type: 'string', default: '5000' }, seconds: { type: 'string', default: '60' }, nodes: { type: 'string', default: '1000' }, pods: { type: 'string', default: '10000' }, expire: { type: 'string', default: '30' } } });
const f = await benchObserverCapacity({ nodes: Number(values.nodes), pods: Number(values.pods), zones: 10, ratePerSecond: Number(values.rate), seconds: Number(values.seconds), expireAtSeconds: Number(values.expire) }, (l) => console.log(l));
console.log(JSON.stringify(f, null, 1));
