// Opens a `pincer book report` page in headless chromium: the root's moves are listed (the
// expected ones given), the board is drawn, clicking a move in the book descends (breadcrumb,
// board and table change), the breadcrumb goes back, and the address keeps the line.
// Usage: node book_report.mjs REPORT_HTML SCREENSHOT_DIR CHROMIUM MOVE...
import puppeteer from 'puppeteer-core';
import fs from 'node:fs';
import path from 'node:path';

const [report, shots, chromium, ...expected] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const fail = (msg) => { console.error(`FAIL: ${msg}`); process.exitCode = 1; throw new Error(msg); };
const log = (msg) => console.log(`browser: ${msg}`);

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--allow-file-access-from-files'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto('file://' + path.resolve(report), { waitUntil: 'load' });
  await page.waitForSelector('#moves tr[data-move]');
  const rootMoves = await page.$$eval('#moves tr[data-move]', (rows) => rows.map((r) => r.dataset.move));
  log(`root moves: ${rootMoves.join(' ')}`);
  for (const m of expected) if (!rootMoves.includes(m)) fail(`root move ${m} missing`);
  const pieces = await page.$$eval('#board circle.piece', (c) => c.length);
  if (pieces === 0) fail('no pieces drawn');
  const bars = await page.$$eval('#chart .value-bar', (b) => b.length);
  if (bars === 0) fail('no value bars in the chart');
  await page.screenshot({ path: path.join(shots, 'book-root.png'), fullPage: true });

  // Descend along the first move in the book, then its first move in the book.
  const startText = await page.$eval('#position', (e) => e.textContent);
  const first = await page.$eval('#moves tr.in-book', (r) => r.dataset.move);
  await page.click('#moves tr.in-book');
  await page.waitForFunction(() => document.querySelectorAll('#crumbs a').length === 2);
  const afterText = await page.$eval('#position', (e) => e.textContent);
  if (afterText === startText) fail('the position did not change after a click');
  const crumb = await page.$eval('#crumbs a[data-depth="1"]', (a) => a.textContent);
  if (!crumb.includes(first)) fail(`breadcrumb ${crumb} does not name ${first}`);
  if (!(await page.evaluate(() => location.hash)).includes(encodeURIComponent(first).replace(/%2C/g, ',')) &&
      !(await page.evaluate(() => decodeURIComponent(location.hash))).includes(first)) {
    fail('the address does not keep the line');
  }
  const second = await page.$('#moves tr.in-book');
  if (second) {
    await second.click();
    await page.waitForFunction(() => document.querySelectorAll('#crumbs a').length === 3);
  }
  await page.screenshot({ path: path.join(shots, 'book-line.png'), fullPage: true });
  // A reload keeps the line.
  const depth = await page.$$eval('#crumbs a', (a) => a.length);
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector('#moves tr[data-move]');
  if ((await page.$$eval('#crumbs a', (a) => a.length)) !== depth) fail('a reload lost the line');
  await page.click('#crumbs a[data-depth="0"]');
  await page.waitForFunction(() => document.querySelectorAll('#crumbs a').length === 1);
  if ((await page.$eval('#position', (e) => e.textContent)) !== startText) fail('back to the start failed');
  if (errors.length) fail(`page errors: ${errors.join('; ')}`);
  log('ok');
} finally {
  await browser.close();
}
