// Opens a fixture run's report.html in Debian's headless Chromium (playwright-core) and checks that lanes, labels,
// the predicted windows and the expectation markers render with a size; saves report.png next to the report.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Result } from '../../../lib/report/result-types.js';
import { rebuildReports } from '../../../lib/report/write-reports.js';

/** Debian's chromium package; Playwright's own browser download is not reachable here. */
const CHROMIUM = '/usr/bin/chromium';
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const SCENARIO = 'power-off-past-toleration';
/** Set REBOOTLAB_KEEP_BROWSER_ARTIFACTS=1 to keep the temp run directory (report.html, report.png) and print its path. */
const KEEP = process.env.REBOOTLAB_KEEP_BROWSER_ARTIFACTS === '1';

/** Install chromium with hack/browser.sh when missing; returns why it is unavailable, or null when it is there. */
function ensureChromium(): string | null {
  if (existsSync(CHROMIUM)) return null;
  try {
    execFileSync('bash', [join(REPO, 'hack/browser.sh')], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 540_000 });
  } catch (err) {
    return `chromium could not be installed by hack/browser.sh: ${String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim().split('\n').pop()}`;
  }
  return existsSync(CHROMIUM) ? null : `hack/browser.sh ran but ${CHROMIUM} is still missing`;
}

async function box(page: Page, selector: string): Promise<{ width: number; height: number }> {
  const b = await page.locator(selector).first().boundingBox();
  return { width: b?.width ?? 0, height: b?.height ?? 0 };
}

describe('browser: report.html in headless Chromium', function () {
  this.timeout(600_000);
  let browser: Browser | undefined;
  let page: Page;
  let dir: string;
  let result: Result;
  const external: string[] = [];

  before(async function () {
    const unavailable = ensureChromium();
    if (unavailable) {
      console.log(`    skipped: ${unavailable}`);
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), `rebootlab-browser-${SCENARIO}-`));
    for (const f of ['observations.jsonl', 'run.json']) cpSync(join(REPO, 'test/fixtures/runs', SCENARIO, f), join(dir, f));
    result = await rebuildReports(dir);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('request', (req) => {
      if (!req.url().startsWith('file:')) external.push(req.url());
    });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load' });
  });

  after(async () => {
    await browser?.close();
    if (dir && KEEP) console.log(`    kept ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads nothing from the network', () => {
    expect(external).to.deep.equal([]);
  });

  it('draws a labelled lane per node, with the node name visible', async () => {
    for (const n of result.nodes) {
      const label = page.locator(`g[data-lane="node:${n.name}"] text.lane-label`);
      expect(await label.isVisible(), n.name).to.equal(true);
      expect(await label.textContent()).to.include(n.name);
      expect((await box(page, `g[data-lane="node:${n.name}"]`)).height).to.be.greaterThan(20);
    }
  });

  it('draws a labelled lane per pod, with bars of nonzero width', async () => {
    for (const p of result.pods) {
      const lane = `g[data-lane="pod:${p.namespace}/${p.name}"]`;
      expect(await page.locator(`${lane} text.lane-label`).textContent()).to.include(p.name);
      expect((await box(page, `${lane} g[data-kind^="segment-"] rect`)).width, p.name).to.be.greaterThan(1);
    }
  });

  it('shades the predicted detection window [15, 25] s on the node lane and the predicted lanes', async () => {
    const inNode = await box(page, 'g[data-lane="node:kind-worker"] [data-kind="predicted-window"]');
    const inLane = await box(page, 'g[data-lane="predicted:detection"] [data-kind="predicted-window"] rect');
    expect(inNode.width).to.be.greaterThan(20);
    expect(inNode.height).to.be.greaterThan(10);
    expect(inLane.width).to.be.closeTo(inNode.width, 1); // same 10 s window, same scale
    expect(await page.locator('g[data-lane="predicted:eviction"]').isVisible()).to.equal(true);
  });

  it('draws one visible marker per expectation, green for passed', async () => {
    const markers = page.locator('[data-kind="expectation-marker"]');
    expect(await markers.count()).to.equal(result.expectations.length);
    for (let i = 0; i < result.expectations.length; i++) {
      const b = await markers.nth(i).locator('polygon').boundingBox();
      expect(b?.width ?? 0, result.expectations[i].text).to.be.greaterThan(4);
      expect(b?.height ?? 0).to.be.greaterThan(4);
      expect(await markers.nth(i).getAttribute('data-passed')).to.equal('true');
    }
  });

  it('saves a full-page screenshot report.png next to report.html', async () => {
    const png = join(dir, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    expect(statSync(png).size).to.be.greaterThan(20_000);
  });
});

describe('browser: the probe lanes of report.html (recorded kind run with two traffic probers)', function () {
  this.timeout(600_000);
  const PROBES = 'kind-service-probes-recorded';
  let browser: Browser | undefined;
  let page: Page;
  let dir: string;
  let result: Result;

  before(async function () {
    const unavailable = ensureChromium();
    if (unavailable) {
      console.log(`    skipped: ${unavailable}`);
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), `rebootlab-browser-${PROBES}-`));
    for (const f of ['observations.jsonl', 'run.json']) cpSync(join(REPO, 'test/fixtures/runs', PROBES, f), join(dir, f));
    result = await rebuildReports(dir);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load' });
  });

  after(async () => {
    await browser?.close();
    if (dir && KEEP) console.log(`    kept ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('draws a labelled lane per prober with its error bar as wide as the outage and a visible latency line', async () => {
    const axis = await box(page, 'g[data-lane="probe:web"] > rect');
    for (const p of result.probes!) {
      const lane = `g[data-lane="probe:${p.name}"]`;
      expect(await page.locator(`${lane} text.lane-label`).textContent()).to.include(p.name);
      const line = await box(page, `${lane} [data-kind="latency-line"] polyline`);
      expect(line.width, `${p.name} latency line`).to.be.greaterThan(100);
      expect(line.height, `${p.name} latency line`).to.be.greaterThan(3);
    }
    // web failed every request from about 0.4 s to 59 s of an axis about 120 s long: the widest error bar is about half the plot.
    const widths = await page.locator('g[data-lane="probe:web"] g[data-kind="segment-down"] rect').evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().width));
    expect(Math.max(...widths)).to.be.greaterThan(axis.width * 0.3);
  });

  it('lists the failing backends in a visible table, one row per group', async () => {
    const rows = page.locator('table[data-table="failing-backends"] tbody tr');
    expect(await rows.count()).to.equal(result.probes!.reduce((n, p) => n + p.failingBackends.length, 0));
    expect(await rows.first().isVisible()).to.equal(true);
    expect(await rows.first().textContent()).to.include('endpoint-ready-on-down-node');
  });

  it('saves a screenshot of the probe lanes (probes.png)', async () => {
    const png = join(dir, 'probes.png');
    await page.locator('g[data-lane="probe:web"]').screenshot({ path: png });
    expect(statSync(png).size).to.be.greaterThan(2_000);
  });
});
