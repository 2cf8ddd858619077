// Go-duration strings ↔ milliseconds (lib/common/units.ts, used by spec/ to convert durations once).
import { expect } from 'chai';
import { formatGoDuration, isDuration, parseDurationMs } from '../../../lib/common/units.js';

describe('common/units', () => {
  const cases: [string, number][] = [['40s', 40_000], ['500ms', 500], ['5m', 300_000], ['1m30s', 90_000], ['1h', 3_600_000], ['1.5s', 1_500], ['0s', 0]];
  for (const [text, ms] of cases) {
    it(`parses ${text} as ${ms} ms`, () => expect(parseDurationMs(text)).to.equal(ms));
  }
  for (const text of ['40', '', 's', '-5s', '5 s', '5sec']) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      expect(parseDurationMs(text)).to.equal(null);
      expect(isDuration(text)).to.equal(false);
    });
  }
  it('formats milliseconds as Go durations, as time.Duration.String() does', () => {
    expect([50_000, 90_000, 250, 0, 3_600_000, 300_000].map(formatGoDuration)).to.deep.equal(['50s', '1m30s', '250ms', '0s', '1h0m0s', '5m0s']);
  });
});
