import { expect } from 'chai';
import { formatGoDuration, parseGoDuration } from '../../../lib/common/units.js';

describe('formatGoDuration', () => {
  const cases: [number, string][] = [
    [0, '0s'], [500, '500ms'], [1_000, '1s'], [1_500, '1.5s'], [20_000, '20s'], [60_000, '1m0s'],
    [90_000, '1m30s'], [300_000, '5m0s'], [3_600_000, '1h0m0s'], [3_725_500, '1h2m5.5s'],
  ];
  for (const [ms, text] of cases) it(`formats ${ms} ms as ${text}`, () => expect(formatGoDuration(ms)).to.equal(text));

  it('rejects a negative duration', () => expect(() => formatGoDuration(-1)).to.throw('invalid duration'));
});

describe('parseGoDuration', () => {
  const cases: [string, number][] = [
    ['0', 0], ['0s', 0], ['500ms', 500], ['1.5s', 1_500], ['1m30s', 90_000], ['5m0s', 300_000], ['1h0m0s', 3_600_000], ['1500us', 1.5],
  ];
  for (const [text, ms] of cases) it(`parses ${text} as ${ms} ms`, () => expect(parseGoDuration(text)).to.equal(ms));

  it('reads back every formatted value', () => {
    for (const ms of [500, 20_000, 90_000, 3_725_500]) expect(parseGoDuration(formatGoDuration(ms))).to.equal(ms);
  });

  for (const bad of ['', '40', '1x', 's', '1m 30s']) {
    it(`rejects "${bad}"`, () => expect(() => parseGoDuration(bad)).to.throw('invalid Go duration'));
  }
});
