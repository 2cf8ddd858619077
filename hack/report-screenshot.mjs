// Screenshots a run directory's report.html for the README (reports/examples/report-html.png), with Debian's
// Chromium (bash hack/browser.sh) driven by playwright-core, as test/integration/browser launches it.
// Usage: node hack/report-screenshot.mjs <run dir> <out.png> [width] [height]   (pixels; default 1200 × 900)
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [runDir, out, width = '1200', height = '900'] = process.argv.slice(2);
if (!runDir || !out) {
  console.error('usage: node hack/report-screenshot.mjs <run dir> <out.png> [width] [height]');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
  await page.goto(pathToFileURL(resolve(runDir, 'report.html')).href);
  await page.screenshot({ path: out, fullPage: false });
} finally {
  await browser.close();
}
