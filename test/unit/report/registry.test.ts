// Which reporters a `run` or `report` uses: `--reporter` as given, or the defaults (list when progress is shown,
// the four file reporters, github when GitHub Actions set GITHUB_STEP_SUMMARY).
import { expect } from 'chai';
import { DEFAULT_REPORTERS, REPORTERS, selectReporters } from '../../../lib/report/registry.js';

describe('report/registry selectReporters', () => {
  it('defaults: list when progress is shown, then json, markdown, html, junit', () => {
    expect(selectReporters(undefined, { progress: true, env: {} })).to.deep.equal(['list', 'json', 'markdown', 'html', 'junit']);
    expect(selectReporters([], { progress: false, env: {} })).to.deep.equal(['json', 'markdown', 'html', 'junit']);
    expect(DEFAULT_REPORTERS).to.deep.equal(['json', 'markdown', 'html', 'junit']);
  });

  it('defaults add github when GITHUB_STEP_SUMMARY is set (and not when it is empty)', () => {
    expect(selectReporters(undefined, { progress: true, env: { GITHUB_STEP_SUMMARY: '/tmp/summary.md' } })).to.deep.equal(['list', 'json', 'markdown', 'html', 'junit', 'github']);
    expect(selectReporters(undefined, { progress: false, env: { GITHUB_STEP_SUMMARY: '' } })).to.deep.equal(['json', 'markdown', 'html', 'junit']);
  });

  it('chosen reporters are exactly those given: comma-separated or repeated, each once, in order; no default added', () => {
    expect(selectReporters(['list,html', 'json', 'html'], { progress: true, env: { GITHUB_STEP_SUMMARY: '/tmp/s.md' } })).to.deep.equal(['list', 'html', 'json']);
    expect(selectReporters(['github'], { progress: true, env: {} })).to.deep.equal(['github']);
  });

  it('an unknown or empty name is bad input (exit 2) naming it and the known ones', () => {
    const known = 'list, json, markdown, html, junit, github';
    expect(() => selectReporters(['list,htm'], { progress: true })).to.throw(`--reporter: unknown reporter "htm"; known: ${known}`).with.property('exitCode', 2);
    expect(() => selectReporters(['json,'], { progress: true })).to.throw(`--reporter json,: empty reporter name; known: ${known}`).with.property('exitCode', 2);
    // An inherited property name is not a reporter.
    expect(() => selectReporters(['toString'], { progress: true })).to.throw('unknown reporter "toString"');
    expect(Object.keys(REPORTERS).join(', ')).to.equal(known);
  });
});
