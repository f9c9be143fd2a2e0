// Drives `pincer serve` as started with no arguments (every shipped ruleset, its shipped model or
// alpha-beta) in headless chromium:
//   - first load: the default game's board at once, the user to move, level 10 with its word;
//     the choices are remembered in the browser for the next new game;
//   - a game against the level-1 bot, resigned, then Review: a row per side with an accuracy and
//     counts, as many marked moves in the list (each with its best move) and dots on the graph
//     as the counts say;
//   - the analysis page's points bar with the shipped SE!ZE model (no points head): the points
//     expected at the end of alpha-beta's line, marked as such;
//   - a phone (390x844, touch): the board fills the width with the controls below it, a move
//     played by taps, the review readable.
// Screenshots go to SCREENSHOT_DIR (first-load-*.png, review-*.png, points-bar-fallback.png).
// Usage: node first_load_review.mjs BASE_URL SCREENSHOT_DIR CHROMIUM
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
const info = await api('GET', '/api/info');
const cellsOf = (rules) => info.rulesets.find((r) => r.rules === rules).layout.cells;

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const errors = [];
// Requests the server refused (status 400 and above) and those sent and not yet answered (streams
// stay there while open), to say why a step failed; `expectedRefusals` counts the refusals a step
// asks for on purpose (chromium logs each as a console error too).
const refused = [];
const pending = new Map();
let expectedRefusals = 0;
async function newPage(viewport) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  // Every wait without its own deadline gets 60 s, not puppeteer's 30: the bot answers slower
  // beside a training run or a sanitizer build (the whole script still has `timeout 270`).
  page.setDefaultTimeout(60000);
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400) refused.push(`${r.status()} ${r.request().method()} ${r.url()}`); });
  page.on('request', (r) => pending.set(r, Date.now()));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
  return page;
}
function unanswered() {
  return [...pending].map(([r, t]) => `${r.method()} ${r.url().replace(base, '').slice(0, 60)} (${Date.now() - t} ms)`);
}
// What the analysis page shows, and what the browser still waits for.
async function analysisState(page) {
  const shown = await page.evaluate(() => ({ status: document.getElementById('an-status').textContent,
                                              turn: document.getElementById('an-turn').textContent,
                                              moves: document.querySelectorAll('#an-moves li').length }));
  return `${JSON.stringify(shown)}; unanswered requests: ${JSON.stringify(unanswered())}; ` +
         `refused requests: ${JSON.stringify(refused)}; page errors: ${JSON.stringify(errors)}`;
}
// Waits until the play page shows a game with the user to move; returns the game.
async function userToMove(page) {
  await page.waitForFunction(() => location.hash.startsWith('#play/') &&
                                   document.querySelector('#play-board [data-cell]') &&
                                   document.getElementById('play-status').textContent.endsWith('(you)'));
  return api('GET', `/api/game/${await page.evaluate(() => location.hash.split('/')[1])}`);
}

try {
  // ------------------------------------------------------------ First load (desktop)
  const page = await newPage({ width: 1100, height: 800 });
  await page.goto(base + '/', { waitUntil: 'networkidle0' });
  const first = await userToMove(page);
  const human = first.sides[first.bot.indexOf(false)];
  if (first.rules !== info.rulesets[0].rules) fail(`default game ${first.rules}, not ${info.rulesets[0].rules}`);
  if (first.moves.length !== 0 || first.toMove !== human) fail(`first game: ${first.moves.length} moves, ${first.toMove} to move, user ${human}`);
  if (first.level !== 10) fail(`first game at level ${first.level}, not 10 (the API's default)`);
  const levels = await page.$$eval('#play-level option', (os) => os.map((o) => o.textContent));
  if (levels.length !== 10 || !levels[0].includes('beginner') || !levels[9].includes('strongest')) {
    fail(`level labels: ${levels}`);
  }
  const bot = await page.$eval('#play-bot', (e) => e.textContent);
  log(`first load: ${first.rules}, ${human} to move, ${bot}; levels ${levels[0]} .. ${levels[9]}`);
  await page.screenshot({ path: path.join(shots, 'first-load-desktop.png') });

  // Choices remembered: a new game at level 1 with the other side, then a new visit starts the
  // next game with them.
  const other = first.sides.find((s) => s !== human);
  await page.select('#play-level', '1');
  await page.select('#play-side', other);
  const before = await page.evaluate(() => location.hash);
  await page.click('#play-new');
  await page.waitForFunction((h) => location.hash !== h, {}, before);
  const second = await userToMove(page);  // the bot moved first
  if (second.level !== 1 || second.moves.length < 1 || second.toMove !== other) {
    fail(`second game: level ${second.level}, ${second.moves.length} moves, ${second.toMove} to move`);
  }
  await page.click('#play-resign');
  await page.waitForFunction(() => document.getElementById('play-status').dataset.over === '1');
  await page.goto(base + '/', { waitUntil: 'networkidle0' });  // no hash: a new visit
  const third = await userToMove(page);
  if (third.id === second.id || third.level !== 1 || third.sides[third.bot.indexOf(false)] !== other) {
    fail(`remembered choices: game ${third.id} level ${third.level} bot ${third.bot}`);
  }
  log(`remembered: level ${third.level}, user ${other}`);

  // ------------------------------------------------------------ A game, resigned, reviewed
  const seizeFirst = (await api('POST', '/api/position', { rules: 'seize-reference' })).toMove;
  await page.select('#play-rules', 'seize-reference');
  await page.select('#play-side', seizeFirst);
  await page.select('#play-level', '1');
  await page.select('#play-clock', 'none');
  const beforeGame = await page.evaluate(() => location.hash);
  await page.click('#play-new');
  await page.waitForFunction((h) => location.hash !== h, {}, beforeGame);
  for (let turn = 0; turn < 8; ++turn) {
    const g = await userToMove(page);
    if (g.result) break;
    // A capture when there is one, else a move from the list.
    let move = g.legal[(turn * 7) % g.legal.length];
    for (const m of g.legal.slice(0, 60)) {
      const after = await api('POST', '/api/position', { rules: g.rules, position: g.start,
        moves: g.moves.map((x) => x.long).concat([m.move]) });
      if (after.moves[after.moves.length - 1].captured.length) { move = m; break; }
    }
    const cells = cellsOf(g.rules);
    await page.click(`#play-board [data-cell="${cells[move.from].name}"]`);
    await page.waitForSelector(`#play-board [data-cell="${cells[move.to].name}"] .target`);
    await page.click(`#play-board [data-cell="${cells[move.to].name}"]`);
    await page.waitForFunction((n) => document.querySelectorAll('#play-moves li').length >= n ||
                                      document.getElementById('play-status').dataset.over === '1',
                               { timeout: 30000 }, g.moves.length + 2);
    if ((await page.$eval('#play-status', (e) => e.dataset.over)) === '1') break;
  }
  if ((await page.$eval('#play-status', (e) => e.dataset.over)) !== '1') {
    if (await page.$eval('#play-review', (e) => !e.hidden)) fail('Review offered before the game is over');
    await page.click('#play-resign');
    await page.waitForFunction(() => document.getElementById('play-status').dataset.over === '1');
  }
  const played = await api('GET', `/api/game/${await page.evaluate(() => location.hash.split('/')[1])}`);
  await page.waitForSelector('#play-review:not([hidden])');
  await page.click('#play-review');
  await page.waitForFunction(() => location.hash === '#analyse' &&
                                   document.getElementById('an-review-status').dataset.done === '1',
                             { timeout: 120000 });
  const sides = await page.$$eval('#an-review-sides tbody tr', (trs) => trs.map((tr) =>
    [...tr.cells].map((c) => c.textContent)));
  if (sides.length !== 2) fail(`review rows: ${JSON.stringify(sides)}`);
  let counted = 0;
  for (const [side, accuracy, ...counts] of sides) {
    if (!(Number(accuracy) >= 0 && Number(accuracy) <= 100)) fail(`${side}: accuracy ${accuracy}`);
    counted += counts.reduce((a, c) => a + Number(c), 0);
  }
  const marked = await page.$$eval('#an-moves li', (lis) => lis.map((li) => ({
    mark: li.dataset.mark, text: li.textContent, best: li.querySelector('.best')?.textContent })));
  if (marked.length !== played.moves.length) fail(`${marked.length} moves listed, ${played.moves.length} played`);
  const marks = marked.filter((m) => m.mark);
  if (marks.length !== counted) fail(`${marks.length} marked moves listed, the table counts ${counted}`);
  // How many marks this game gets depends on the bot's moves and, without a model, on how deep a
  // time-limited alpha-beta gets under the machine's load: the known line below must get marks.
  for (const m of marks) {
    if (!m.best || !/ best \S+/.test(m.best)) fail(`marked move without its best move: ${m.text}`);
    if (!m.text.includes({ inaccuracy: '?!', mistake: '?', blunder: '??' }[m.mark])) fail(`mark symbol: ${m.text}`);
  }
  const dots = await page.$$eval('#an-graph .graph-mark', (d) => d.length);
  if (dots !== marks.length) fail(`${dots} dots on the graph for ${marks.length} marked moves`);
  log(`review of ${played.moves.length} moves: ${JSON.stringify(sides)}; marked ${marks.map((m) => m.text).join(', ')}`);
  await page.screenshot({ path: path.join(shots, 'review-desktop.png'), fullPage: true });
  const record = await (await fetch(`${base}/api/game/${played.id}/record`)).text();

  // ------------------------------------------------------------ The points bar without a points head
  // The shipped SE!ZE model has no points head: the bar shows the points expected at the end of
  // a short alpha-beta line and says so. A line of 18 moves with captures behind and ahead (3 : 1
  // held; the figure itself depends on how far the fallback gets in its time, so only its shape
  // is checked).
  const line = ['g4', '4g3', 'e6f5', 'b5', 'ff4', 'b6', 'h3', 'gg4', 'ff5', 'c7', 'b3', 'd7', 'de6',
                'e7', 'g7', 'b2', 'd1', 'ee5'];
  const lineGame = await api('POST', '/api/game', { rules: 'seize-reference', human: 'both', moves: line });
  if (lineGame.moves?.length !== line.length) fail(`points line: ${JSON.stringify(lineGame).slice(0, 200)}`);
  const lineRecord = await (await fetch(`${base}/api/game/${lineGame.id}/record`)).text();
  await page.$eval('#an-input', (e, t) => { e.value = t; }, lineRecord);
  await page.click('#an-load');
  await page.waitForFunction((n) => document.getElementById('an-turn').textContent.startsWith(`turn ${n} of ${n}`) &&
                                    document.getElementById('an-status').dataset.done === '1' &&
                                    document.getElementById('an-points').dataset.source,
                             { timeout: 30000 }, line.length);
  const bar = await page.$eval('#an-points', (e) => ({ text: e.textContent, title: e.title, source: e.dataset.source }));
  if (bar.source !== 'alphabeta' || !/^points 3 : 1 · expected \d+(\.\d+)? : \d+(\.\d+)? \(alpha-beta line\)$/.test(bar.text) ||
      !bar.title.includes('alpha-beta')) {
    fail(`points bar: ${JSON.stringify(bar)}`);
  }
  log(`points bar: ${bar.text}`);
  const top = await (await page.$('#page-analyse .bar')).boundingBox();
  const bottom = await (await page.$('#an-status')).boundingBox();
  await page.screenshot({ path: path.join(shots, 'points-bar-fallback.png'),
                          clip: { x: top.x - 8, y: top.y - 4, width: top.width + 16, height: bottom.y + bottom.height - top.y + 8 } });

  // A loaded record's review, started while the page still graphs the game: gold moves at random
  // and loses 0 : 5 in 11 moves to a searching red. The review (it stops the quick graph) marks
  // gold's losing moves at any depth alpha-beta reaches; the list, the table and the graph agree.
  const blunders = ['f5-g4', 'e4-g6', 'g4-g3', 'e3-e2', 'e5-e3', 'c3-b3', 'e3-e4', 'g6-g7', 'c5-d4', 'c4-c5', 'e6-e5'];
  const lost = await api('POST', '/api/game', { rules: 'seize-reference', human: 'both', moves: blunders });
  if (lost.moves?.length !== blunders.length || !lost.result) fail(`blunder game: ${JSON.stringify(lost).slice(0, 200)}`);
  await page.$eval('#an-input', (e, t) => { e.value = t; }, await (await fetch(`${base}/api/game/${lost.id}/record`)).text());
  await page.click('#an-load');
  await page.waitForFunction((n) => document.querySelectorAll('#an-moves li').length === n, { timeout: 30000 }, blunders.length);
  await page.click('#an-review-button');
  await page.waitForFunction(() => document.getElementById('an-review-status').dataset.done === '1');
  const lostSides = Object.fromEntries(await page.$$eval('#an-review-sides tbody tr', (trs) => trs.map((tr) =>
    [tr.cells[0].textContent, [...tr.cells].slice(1).map((c) => Number(c.textContent))])));
  const lostMarks = await page.$$eval('#an-moves li[data-mark]', (lis) => lis.map((li) => ({
    mark: li.dataset.mark, text: li.textContent, best: li.querySelector('.best')?.textContent })));
  const lostCounted = Object.values(lostSides).reduce((a, [, ...counts]) => a + counts.reduce((b, c) => b + c, 0), 0);
  if (!lostSides.gold || lostSides.gold.slice(1).reduce((a, c) => a + c, 0) === 0) {
    fail(`gold's 0 : 5 game reviewed without a mark for gold: ${JSON.stringify(lostSides)}`);
  }
  if (!(lostSides.gold[0] < lostSides.red[0])) fail(`the loser's accuracy is not below the winner's: ${JSON.stringify(lostSides)}`);
  if (lostMarks.length !== lostCounted) fail(`blunder game: ${lostMarks.length} marked moves listed, the table counts ${lostCounted}`);
  for (const m of lostMarks) {
    if (!m.best || !/ best \S+/.test(m.best)) fail(`blunder game: marked move without its best move: ${m.text}`);
  }
  const lostDots = await page.$$eval('#an-graph .graph-mark', (d) => d.length);
  if (lostDots !== lostMarks.length) fail(`blunder game: ${lostDots} dots on the graph for ${lostMarks.length} marked moves`);
  log(`review of gold's 0 : 5 game: ${JSON.stringify(lostSides)}; marked ${lostMarks.map((m) => m.text).join(', ')}`);

  // ------------------------------------------------------------ Phone
  const phone = await newPage({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  await phone.goto(base + '/', { waitUntil: 'networkidle0' });
  const pg = await userToMove(phone);
  const box = async (sel) => phone.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
  const board = await box('#play-board');
  const controls = await box('#page-play .controls');
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  if (board.w < 360) fail(`phone: the board is ${board.w} px wide of 390`);
  if (controls.y < board.y + board.h) fail(`phone: the controls (y ${controls.y}) are not below the board (ends ${board.y + board.h})`);
  if (width > 390) fail(`phone: the page is ${width} px wide, it scrolls sideways`);
  await phone.screenshot({ path: path.join(shots, 'first-load-phone.png') });
  // A move by taps.
  const cells = cellsOf(pg.rules);
  const move = pg.legal[0];
  await phone.tap(`#play-board [data-cell="${cells[move.from].name}"]`);
  await phone.waitForSelector(`#play-board [data-cell="${cells[move.to].name}"] .target`);
  await phone.tap(`#play-board [data-cell="${cells[move.to].name}"]`);
  await phone.waitForFunction((n) => document.querySelectorAll('#play-moves li').length >= n, { timeout: 30000 },
                              pg.moves.length + 1);
  const after = await api('GET', `/api/game/${pg.id}`);
  if (after.moves[pg.moves.length]?.long !== move.move) fail(`phone: tapped ${move.move}, played ${after.moves[pg.moves.length]?.long}`);
  log(`phone: board ${board.w}x${board.h}, controls at ${controls.y}, tapped ${move.move}`);
  // The review on the phone: the record loaded in the analysis page. First a damaged record,
  // loaded while the start position's analysis still runs: its message stays in the status (the
  // analysis used to overwrite it within half a second).
  await phone.goto(base + '/#analyse', { waitUntil: 'networkidle0' });
  await phone.$eval('#an-input', (e) => { e.value = '[Rules "seize-reference"]\n1. zz9'; });
  ++expectedRefusals;
  await phone.tap('#an-reset');
  await phone.tap('#an-load');
  try {
    await phone.waitForFunction(() => document.getElementById('an-status').textContent.startsWith('not loaded: '),
                                { timeout: 30000 });
  } catch (e) {
    fail(`phone: a damaged record was not refused in 30 s: ${await analysisState(phone)}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const damaged = await phone.$eval('#an-status', (e) => e.textContent);
  if (!damaged.startsWith('not loaded: ')) fail(`phone: a damaged record's message was replaced by "${damaged}"`);
  log(`phone: damaged record: ${damaged}`);
  await phone.$eval('#an-input', (e, t) => { e.value = t; }, record);
  await phone.tap('#an-load');
  try {
    await phone.waitForFunction((n) => document.querySelectorAll('#an-moves li').length === n, { timeout: 30000 },
                                played.moves.length);
  } catch (e) {
    fail(`phone: the record's ${played.moves.length} moves not listed in 30 s: ${await analysisState(phone)}`);
  }
  await phone.tap('#an-review-button');
  await phone.waitForFunction(() => document.getElementById('an-review-status').dataset.done === '1', { timeout: 120000 });
  // The phone's list marks what its review table counts. (How many marks the record gets depends
  // on the analyser: without a model it is alpha-beta with a time limit, whose marks vary with
  // the machine's load; the desktop review of a lost game above asserts that marks come.)
  const phoneSides = await phone.$$eval('#an-review-sides tbody tr', (trs) => trs.map((tr) =>
    [...tr.cells].map((c) => c.textContent)));
  if (phoneSides.length !== 2) fail(`phone: review rows ${JSON.stringify(phoneSides)}`);
  const phoneCounted = phoneSides.reduce((a, [, , ...counts]) =>
    a + counts.reduce((b, c) => b + Number(c), 0), 0);
  const phoneMarks = await phone.$$eval('#an-moves li[data-mark]', (l) => l.length);
  if (phoneMarks !== phoneCounted) fail(`phone: ${phoneMarks} marked moves listed, the table counts ${phoneCounted}`);
  log(`phone: review ${JSON.stringify(phoneSides)}`);
  const anBoard = await box('#an-board');
  if ((await box('#page-play')).h !== 0) fail('phone: the play page shows under the analysis page');
  if (anBoard.w < 360) fail(`phone: the analysis board is ${anBoard.w} px wide`);
  await phone.screenshot({ path: path.join(shots, 'review-phone.png'), fullPage: true });

  // Chromium logs each refused request as "Failed to load resource: ... status of N". The page
  // sends a busy server's 503 again (a loaded sanitizer run may see one); any other is an error.
  const unexpected = errors.filter((e) => !/status of 503/.test(e) &&
                                          !(/status of 400/.test(e) && expectedRefusals-- > 0));
  if (unexpected.length) fail(`page errors: ${unexpected.join('; ')}; refused requests: ${JSON.stringify(refused)}`);
  const busy = refused.filter((r) => r.startsWith('503 ')).length;
  if (busy) log(`${busy} requests answered busy (503) and sent again`);
  log('ok');
} finally {
  await browser.close();
}
