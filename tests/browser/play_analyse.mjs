// Drives `pincer serve` in headless chromium: plays SE!ZE (seize-reference, game clock) against
// the level-1 bot by clicking squares until a capture changes the points, resigns and checks the
// result shown, then loads the game's record in the analysis page and waits for the top moves;
// places a Seega piece; plays a few moves of corners (one to a point) and dice by clicks, and a
// corners divide picked from the choice buttons in the analysis page.
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
  // The page starts a game of its own at once: choose once it has.
  await page.waitForFunction(() => location.hash.startsWith('#play/'));
  const firstGame = await page.evaluate(() => location.hash);
  await page.select('#play-rules', 'seize-reference');
  await page.select('#play-side', 'red');
  await page.select('#play-level', '1');
  await page.select('#play-clock', 'game:10');
  await page.click('#play-new');
  await page.waitForFunction((h) => location.hash.startsWith('#play/') && location.hash !== h, {}, firstGame);
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
  // One turn back: wait for that turn's own analysis (the last turn's stays shown until the new
  // position arrives).
  const turns = await page.$eval('#an-turn', (e) => Number(e.textContent.match(/of (\d+)/)[1]));
  await page.click('#an-prev');
  await page.waitForFunction((t) => document.getElementById('an-turn').textContent.startsWith(`turn ${t} of`) &&
                                    document.getElementById('an-status').dataset.done === '1' &&
                                    document.querySelectorAll('#an-top tbody tr').length > 0 &&
                                    document.querySelectorAll('#an-board .arrow').length > 0,
                             { timeout: 30000 }, turns - 1);
  await page.screenshot({ path: path.join(shots, 'analyse.png'), fullPage: true });
  // The points bar: alpha-beta's expected final points, marked as such.
  const bar = await page.$eval('#an-points', (e) => ({ text: e.textContent, source: e.dataset.source }));
  if (bar.source !== 'alphabeta' || !/ · expected \S+ : \S+ \(alpha-beta line\)$/.test(bar.text)) {
    fail(`points bar: ${JSON.stringify(bar)}`);
  }
  log(`points bar: ${bar.text}`);
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

  // Corners and dice, each from its own layout: a few moves against the level-1 bot by clicks.
  const info = await api('GET', '/api/info');
  const layoutOf = (rules) => info.rulesets.find((r) => r.rules === rules).layout;
  async function playByClicks(rules, side, turns, prefer) {
    await page.goto(base + '/#play', { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => location.hash.startsWith('#play/'));  // the page's own game
    await page.select('#play-rules', rules);
    await page.select('#play-side', side);
    await page.select('#play-level', '1');
    await page.select('#play-clock', 'none');
    const before = await page.evaluate(() => location.hash);
    await page.click('#play-new');
    await page.waitForFunction((h) => location.hash.startsWith('#play/') && location.hash !== h, {}, before);
    const gid = await page.evaluate(() => location.hash.split('/')[1]);
    const cells = layoutOf(rules).cells;
    const played = [];
    for (let turn = 0; turn < turns; ++turn) {
      await page.waitForFunction(() => !document.getElementById('play-status').textContent.includes('thinking') &&
                                       document.querySelector('#play-board [data-cell]'));
      const g = await api('GET', `/api/game/${gid}`);
      if (g.result) break;
      if (g.toMove !== side) fail(`${rules}: expected ${side} to move, got ${g.toMove}`);
      const move = g.legal.find((m) => prefer(m, cells)) || g.legal[(turn * 5) % g.legal.length];
      const from = cells[move.from].name, to = cells[move.to].name;
      await page.click(`#play-board [data-cell="${from}"]`);
      await page.waitForSelector(`#play-board [data-cell="${to}"] .target`);
      await page.click(`#play-board [data-cell="${to}"]`);
      await page.waitForFunction((n) => document.querySelectorAll('#play-moves li').length >= n ||
                                        document.getElementById('play-status').dataset.over === '1',
                                 { timeout: 30000 }, g.moves.length + 2);
      const now = await api('GET', `/api/game/${gid}`);
      if (now.moves[g.moves.length]?.long !== move.move) fail(`${rules}: played ${now.moves[g.moves.length]?.long}, not ${move.move}`);
      played.push(move.move);
    }
    log(`${rules}: played ${played.join(' ')} by clicks`);
    return played;
  }
  // Corners: a square piece steps onto a point (a crossing) first.
  const cornersMoves = await playByClicks('corners', 'white', 3, (m, cells) => cells[m.to].shape === 'point');
  if (!cornersMoves[0].endsWith("'")) fail(`corners: the first move ${cornersMoves[0]} is not to a point`);
  if ((await page.$$('#play-board g.point')).length !== 49) fail('corners: 49 points expected');
  await page.screenshot({ path: path.join(shots, 'play-corners.png') });
  // A divide: the point piece's moves that share its clicks are offered as buttons.
  await page.goto(base + '/#analyse', { waitUntil: 'networkidle0' });
  await page.select('#an-rules', 'corners');
  await page.$eval('#an-input', (e) => {
    e.value = '......../B......./......../......../......../......../......../.......W ' +
              '......./......./......./...W.../......./......./....... w 2 15 10';
  });
  await page.click('#an-load');
  await page.waitForFunction(() => document.getElementById('an-status').dataset.done === '1' &&
                                   document.querySelector('#an-board [data-cell="d4\'"] circle.piece'), { timeout: 30000 });
  await page.click('#an-board [data-cell="d4\'"]');
  await page.waitForSelector('#an-board [data-cell="d4\'"] .target');
  await page.click('#an-board [data-cell="d4\'"]');
  await page.waitForSelector('#an-choice button');
  const choices = await page.$$eval('#an-choice button', (bs) => bs.map((b) => b.textContent));
  log(`corners divide choices: ${choices.join(' ')}`);
  if (!choices.includes("d4'*d4e5")) fail(`no divide d4'*d4e5 among ${choices}`);
  await page.screenshot({ path: path.join(shots, 'analyse-corners-divide.png') });
  const pick = (await page.$$('#an-choice button'))[choices.indexOf("d4'*d4e5")];
  await pick.click();
  await page.waitForFunction(() => document.querySelector('#an-board [data-cell="d4"] circle.piece') &&
                                   document.querySelector('#an-board [data-cell="e5"] circle.piece') &&
                                   !document.querySelector('#an-board [data-cell="d4\'"] circle.piece'), { timeout: 30000 });
  const anMoves = await page.$$eval('#an-moves li', (lis) => lis.map((li) => li.textContent));
  if (anMoves.join(' ') !== "d4'*d4e5") fail(`analysis moves after the divide: ${anMoves}`);
  await page.waitForFunction(() => document.getElementById('an-status').dataset.done === '1', { timeout: 30000 });
  await page.screenshot({ path: path.join(shots, 'analyse-corners.png') });
  // Dice: dice with pips, a King, a few moves.
  await playByClicks('dice-7x7', 'white', 3, () => false);
  const dice = await page.$$eval('#play-board rect.die', (r) => r.length);
  const pips = await page.$$eval('#play-board circle.pip', (r) => r.length);
  if (dice < 20 || pips < 40) fail(`dice: ${dice} dice and ${pips} pips drawn`);
  await page.screenshot({ path: path.join(shots, 'play-dice.png') });

  if (errors.length) fail(`page errors: ${errors.join('; ')}`);
  log('ok');
} finally {
  await browser.close();
}
