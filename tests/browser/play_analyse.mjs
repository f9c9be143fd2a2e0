// Drives `pincer serve` in headless chromium: plays SE!ZE (seize-reference, game clock) against
// the level-1 bot by clicking squares until a capture changes the points, resigns and checks the
// result shown, then loads the game's record in the analysis page and waits for the top moves.
// Usage: node play_analyse.mjs BASE_URL SCREENSHOT_DIR CHROMIUM
import puppeteer from 'puppeteer-core';
import fs from 'node:fs';
import path from 'node:path';

const [base, shots, chromium] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const fail = (msg) => { console.error(`FAIL: ${msg}`); process.exitCode = 1; throw new Error(msg); };
const log = (msg) => console.log(`browser: ${msg}`);

async function api(method, p, body) {
  const res = await fetch(base + p, { method, headers: { 'Content-Type': 'application/json' },
                                      body: body ? JSON.stringify(body) : undefined });
  return res.json();
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 800 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(base + '/', { waitUntil: 'networkidle0' });
  await page.waitForSelector('#play-rules option');
  await page.select('#play-rules', 'seize-reference');
  await page.select('#play-side', 'red');
  await page.select('#play-level', '1');
  await page.select('#play-clock', 'game:10');
  await page.click('#play-new');
  await page.waitForFunction(() => location.hash.startsWith('#play/'));
  const id = await page.evaluate(() => location.hash.split('/')[1]);
  log(`game ${id}`);
  await page.waitForSelector('[data-cell="c6"] circle');
  await page.screenshot({ path: path.join(shots, 'play-start.png') });

  // Our moves: a capture when one exists (found by asking the server what each move captures).
  let sawCapture = false;
  for (let turn = 0; turn < 40 && !sawCapture; ++turn) {
    await page.waitForFunction(() => !document.getElementById('play-status').textContent.includes('thinking'));
    const g = await api('GET', `/api/game/${id}`);
    if (g.result) fail(`the game ended before a capture: ${JSON.stringify(g.result)}`);
    if (g.toMove !== 'red') fail(`expected red to move, got ${g.toMove}`);
    let move = g.legal[(turn * 7) % g.legal.length];
    for (const m of g.legal.slice(0, 60)) {
      const after = await api('POST', '/api/position', { rules: g.rules, position: g.start,
        moves: g.moves.map((x) => x.long).concat([m.move]) });
      if (after.moves[after.moves.length - 1].captured.length) { move = m; break; }
    }
    const cells = (await api('GET', '/api/info')).rulesets.find((r) => r.rules === g.rules).layout.cells;
    const from = cells[move.from].name, to = cells[move.to].name;
    await page.click(`[data-cell="${from}"]`);
    await page.waitForSelector(`[data-cell="${to}"] .target`);
    if (turn === 0) await page.screenshot({ path: path.join(shots, 'play-selected.png') });
    await page.click(`[data-cell="${to}"]`);
    // The bot answers: two more moves in the list.
    await page.waitForFunction((n) => document.querySelectorAll('#play-moves li').length >= n ||
                                      document.getElementById('play-status').dataset.over === '1',
                               { timeout: 30000 }, g.moves.length + 2);
    const points = await page.$eval('#play-points', (e) => e.dataset.points);
    log(`turn ${turn}: ${from}-${to}, points ${points}`);
    if (points !== '0:0') {
      sawCapture = true;
      const text = await page.$eval('#play-points', (e) => e.textContent);
      if (!/points gold \d+ : \d+ red/.test(text)) fail(`points text: ${text}`);
      await page.screenshot({ path: path.join(shots, 'play-capture.png') });
    }
  }
  if (!sawCapture) fail('no capture changed the points in 40 moves');
  const clock = await page.$eval('#play-clock-display', (e) => e.textContent);
  if (!/game clock \d+:\d\d/.test(clock)) fail(`clock display: ${clock}`);

  await page.click('#play-resign');
  await page.waitForFunction(() => document.getElementById('play-status').dataset.over === '1');
  const status = await page.$eval('#play-status', (e) => e.textContent);
  if (status !== 'Game over: gold wins (resignation)') fail(`result shown: ${status}`);
  await page.screenshot({ path: path.join(shots, 'play-resigned.png') });
  log(status);

  // A reload resumes the game from the server.
  await page.reload({ waitUntil: 'networkidle0' });
  await page.waitForFunction(() => document.getElementById('play-status').dataset.over === '1');

  // The analysis page: the record of this game, its top moves.
  const record = await (await fetch(`${base}/api/game/${id}/record`)).text();
  await page.goto(base + '/#analyse', { waitUntil: 'networkidle0' });
  await page.waitForSelector('#an-input');
  await page.$eval('#an-input', (e, t) => { e.value = t; }, record);
  await page.click('#an-load');
  await page.waitForFunction(() => document.querySelectorAll('#an-top tbody tr').length > 0, { timeout: 30000 });
  await page.waitForFunction(() => document.getElementById('an-status').dataset.done === '1', { timeout: 30000 });
  const rows = await page.$$eval('#an-top tbody tr', (trs) => trs.map((tr) => tr.textContent));
  log(`top moves: ${rows.length}, first: ${rows[0]}`);
  await page.waitForFunction(() => document.querySelector('#an-graph .winline')?.getAttribute('points').split(' ').length > 2,
                             { timeout: 30000 });
  await page.click('#an-prev');
  await page.waitForFunction(() => document.getElementById('an-status').dataset.done === '1' &&
                                   document.querySelectorAll('#an-board .arrow').length > 0, { timeout: 30000 });
  await page.screenshot({ path: path.join(shots, 'analyse.png'), fullPage: true });
  // Another game drawn from its own layout: Seega's start, then one placement by click.
  await page.select('#an-rules', 'seega-5x5');
  await page.waitForSelector('#an-board [data-cell="b2"] .target');
  // The board is redrawn as the analysis streams in: click once it is done.
  await page.waitForFunction(() => document.querySelectorAll('#an-board [data-cell]').length === 25 &&
                                   document.getElementById('an-status').dataset.done === '1', { timeout: 30000 });
  await page.click('#an-board [data-cell="b2"]');
  await page.waitForSelector('#an-board [data-cell="b2"] circle.piece');
  await page.waitForFunction(() => document.getElementById('an-status').dataset.done === '1', { timeout: 30000 });
  await page.screenshot({ path: path.join(shots, 'analyse-seega.png') });
  if (errors.length) fail(`page errors: ${errors.join('; ')}`);
  log('ok');
} finally {
  await browser.close();
}
