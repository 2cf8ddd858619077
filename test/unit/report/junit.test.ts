// Tests for lib/report/reporters/junit.ts: the structure CI systems read (testsuites/testsuite/testcase/failure, counts).
import { expect } from 'chai';
import { create } from 'xmlbuilder2';
import { renderJunit } from '../../../lib/report/reporters/junit.js';
import type { Result } from '../../../lib/report/result-types.js';
import { fixtureResult, syntheticResult } from './synthetic-results.js';

/**
 * An element as the tests read it: attributes as `@name`, child elements by tag (always arrays), text as `#`.
 * Parsed through xmlbuilder2's DOM (a real XML parser that decodes entities in attributes and text).
 */
interface XmlNode {
  [key: string]: unknown;
}
function toNode(el: Element): XmlNode {
  const node: XmlNode = {};
  for (const a of Array.from(el.attributes)) node[`@${a.name}`] = a.value;
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType !== 1) continue;
    const tag = child.nodeName;
    node[tag] = [...((node[tag] as XmlNode[] | undefined) ?? []), toNode(child as Element)];
  }
  node['#'] = el.textContent ?? '';
  return node;
}
const parse = (xml: string): XmlNode => {
  const root = create(xml).root().node as unknown as Element;
  return { [root.nodeName]: toNode(root) };
};
const list = (v: unknown): XmlNode[] => (v === undefined ? [] : (v as XmlNode[]));
const one = (v: unknown): XmlNode => list(v)[0];

function failOne(r: Result): Result {
  r.expectations[2] = { ...r.expectations[2], passed: false, actual: 61.5, message: 'web-5d8b7c9f4-aaaaa: 61.5' };
  r.status = 'failed';
  return r;
}

describe('report/junit: junit.xml', () => {
  it('one testsuite per variant, one testcase per expectation, counts on testsuites and testsuite', () => {
    const xml = renderJunit([failOne(fixtureResult('power-off-past-toleration'))]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).to.equal(true);
    const doc = parse(xml);
    const suites = doc.testsuites as XmlNode;
    expect(suites).to.include({ '@name': 'outage-tuned', '@tests': '8', '@failures': '1', '@errors': '0', '@skipped': '0', '@time': '181.100' });
    const suite = list(suites.testsuite);
    expect(suite).to.have.length(1);
    expect(suite[0]).to.include({ '@name': 'outage-tuned', '@tests': '8', '@failures': '1', '@errors': '0', '@timestamp': '2026-11-30T09:58:59Z' });
    const cases = list(suite[0].testcase);
    expect(cases.map((c) => c['@name'])).to.deep.equal(fixtureResult('power-off-past-toleration').expectations.map((e) => e.text));
    expect(cases.every((c) => c['@classname'] === 'outage-tuned' && c['@time'] === '0.000')).to.equal(true);
    const failed = cases.filter((c) => c.failure !== undefined);
    expect(failed).to.have.length(1);
    const failure = one(failed[0].failure);
    expect(failure['@message']).to.equal('expected in [45, 60], actual 61.5');
    expect(failure['@type']).to.equal('ExpectationFailed');
    expect(failure['#']).to.include('expected: in [45, 60]').and.include('actual:   61.5');
  });

  it('a matrix: classname is the variant name, repeats are named, failures counted per suite', () => {
    const runs = [syntheticResult('grace-20s', 1, { detection: 22 }), syntheticResult('grace-20s', 0, { detection: 18 }), failOne(syntheticResult('grace-40s', 0, { detection: 41 }))];
    const doc = parse(renderJunit(runs));
    const suites = doc.testsuites as XmlNode;
    expect(suites).to.include({ '@tests': '24', '@failures': '1' });
    const [s20, s40] = list(suites.testsuite);
    expect(s20).to.include({ '@name': 'grace-20s', '@tests': '16', '@failures': '0' });
    expect(s40).to.include({ '@name': 'grace-40s', '@tests': '8', '@failures': '1' });
    const names = list(s20.testcase).map((c) => c['@name'] as string);
    expect(names[0]).to.equal('node.notReadyAfterSeconds in [15, 25] [repeat 0]');
    expect(names[8]).to.equal('node.notReadyAfterSeconds in [15, 25] [repeat 1]');
    expect(list(s40.testcase).every((c) => c['@classname'] === 'grace-40s')).to.equal(true);
  });

  it('an interrupted run reports every testcase as an error', () => {
    const r = fixtureResult('reboot-quick');
    r.status = 'interrupted';
    const suite = list((parse(renderJunit([r])).testsuites as XmlNode).testsuite)[0];
    expect(suite).to.include({ '@tests': '5', '@failures': '0', '@errors': '5' });
    expect(list(suite.testcase).every((c) => one(c.error)['@type'] === 'Interrupted')).to.equal(true);
  });

  it('escapes markup and drops characters XML 1.0 forbids', () => {
    const r = failOne(fixtureResult('power-off-past-toleration'));
    r.expectations[2].message = 'pod <b>"x"</b> & \u0001bell';
    const xml = renderJunit([r]);
    expect(xml).to.include('pod &lt;b&gt;"x"&lt;/b&gt; &amp; \uFFFDbell').and.not.include('\u0001');
    expect(() => parse(xml)).to.not.throw();
  });
});
