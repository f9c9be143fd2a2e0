// The play and analyse pages. Everything game-specific comes from the server (/api/info: the
// rulesets with their board layouts; /api/game: a game's state with legal moves as cells).
import { drawBoard, drawGraph } from '/board.js';

const $ = (id) => document.getElementById(id);
let info = null;

// A 503 ("busy: ...") means the server did not take the request up (too many connections from
// this address, a full queue): it is sent again after the Retry-After the server asks for (1 s
// when it names none), at most BUSY_RETRIES times, then its message is shown. Every request has
// a deadline (`seconds`; a bot's move and a review search for longer), so that a server that
// never answers shows a message instead of a page that waits forever.
const BUSY_RETRIES = 3;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function api(method, path, body, seconds = 60) {
  for (let attempt = 0; ; ++attempt) {
    let res;
    try {
      res = await fetch(path, {
        method,
        headers: body ? { 'Content-Type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(seconds * 1000),
      });
    } catch (e) {
      if (e.name === 'TimeoutError') throw new Error(`no answer from the server in ${seconds} s`);
      throw new Error(`the server cannot be reached (${e.message})`);
    }
    const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    if (res.status === 503 && attempt < BUSY_RETRIES) {
      const wait = Number(res.headers.get('Retry-After'));
      await sleep(1000 * (wait > 0 && wait <= 10 ? wait : 1));
      continue;
    }
    if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
    return data;
  }
}

// Stops the shown position's analysis: its answers would overwrite what the status says.
function stopAnalysis() {
  if (an.stream) an.stream.close();
  an.stream = null;
}

const rulesetOf = (rules) => info.rulesets.find((r) => r.rules === rules);

// The bot's levels (play/levels.h) as docs/players.md rates them: Elo on SE!ZE's ladder (random =
// 0) of the shipped model's levels at 200 visits, and a word for each.
const LEVELS = {
  1: { elo: 73, word: 'beginner' }, 2: { elo: 155, word: 'beginner' }, 3: { elo: 315, word: 'novice' },
  4: { elo: 456, word: 'novice' }, 5: { elo: 604, word: 'casual' }, 6: { elo: 696, word: 'intermediate' },
  7: { elo: 791, word: 'club' }, 8: { elo: 895, word: 'strong' }, 9: { elo: 1059, word: 'expert' },
  10: { elo: 1133, word: 'strongest' },
};
// The ratings were measured with SE!ZE's model: other games and bots show the word alone.
const ratedBot = (r) => r.rules === 'seize-reference' && r.analyzer.startsWith('model ');
// The analyser's description without the folders of its files.
const botText = (r) => r.analyzer.replace(/[^\s()]*\//g, '');
const pct = (x) => `${Math.round(x * 100)}%`;

function fillRules(select) {
  select.replaceChildren(...info.rulesets.map((r) => new Option(`${r.rules} (${botText(r)})`, r.rules)));
}

function fmtClock(s) {
  s = Math.max(0, s);
  const m = Math.floor(s / 60), r = Math.floor(s % 60);
  return `${m}:${String(r).padStart(2, '0')}`;
}

// The legal moves a click on cell i plays with cell `selected` chosen (-1: none; placements).
function movesAt(legal, selected, i) {
  return legal.filter((m) => m.to === i && (m.from === selected || (m.from < 0 && selected < 0)));
}

function targetsOf(legal, selected) {
  return new Set(legal.filter((m) => m.from === selected || (m.from < 0 && selected < 0)).map((m) => m.to));
}

// Moves that share their clicks (a divide's choice of squares): a button per move in `box`.
function choose(box, moves, pick) {
  box.replaceChildren(...moves.map((m) => {
    const b = document.createElement('button');
    b.textContent = m.short || m.move;
    b.className = 'choice-move';
    b.addEventListener('click', () => { box.replaceChildren(); pick(m); });
    return b;
  }));
}

// ---------------------------------------------------------------- Play
const play = { game: null, selected: -1, busy: false, clockAt: 0 };

function fillPlayOptions() {
  const r = rulesetOf($('play-rules').value);
  const level = $('play-level').value || '10';
  $('play-level').replaceChildren(...Array.from({ length: info.levels[1] - info.levels[0] + 1 }, (_, i) => {
    const n = i + info.levels[0];
    const l = LEVELS[n];
    return new Option(`level ${n}` + (l ? ` · ${l.word}` + (ratedBot(r) ? ` (Elo ${l.elo})` : '') : ''), n);
  }));
  $('play-level').value = level;
  $('play-side').replaceChildren(...r.sides.map((s) => new Option(s, s)), new Option('both (no bot)', 'both'));
  const clocks = [new Option('untimed', 'none')];
  if (r.countsPoints) {
    for (const m of [10, 20, 30]) clocks.push(new Option(`${m} min game clock`, `game:${m}`));
  } else {
    for (const m of [5, 10]) clocks.push(new Option(`${m} min per side`, `side:${m}`));
  }
  $('play-clock').replaceChildren(...clocks);
}

function renderPlay() {
  const g = play.game;
  if (!g) return;
  const layout = rulesetOf(g.rules).layout;
  const myTurn = !g.result && !g.bot[g.sides.indexOf(g.toMove)];
  const sources = new Set(g.legal.map((m) => m.from));
  const targets = myTurn ? targetsOf(g.legal, play.selected) : new Set();
  const last = g.moves.length ? g.moves[g.moves.length - 1] : null;
  const captured = new Set();
  if (last) for (const name of last.captured) captured.add(layout.cells.findIndex((c) => c.name === name));
  const humanSide = g.bot.indexOf(false);
  drawBoard($('play-board'), layout, g.view, {
    flip: humanSide === 1 && g.bot[0],
    selected: play.selected,
    targets,
    last,
    captured,
    onClick: (i) => clickPlay(i, sources),
  });
  $('play-moves').replaceChildren(...g.moves.map((m) => {
    const li = document.createElement('li');
    li.textContent = m.move + (m.captured.length ? ` x${m.captured.length}` : '');
    return li;
  }));
  $('play-moves').scrollTop = $('play-moves').scrollHeight;  // the latest moves
  const pts = g.points;
  $('play-points').textContent = rulesetOf(g.rules).countsPoints
    ? `points ${g.sides[0]} ${pts[0]} : ${pts[1]} ${g.sides[1]}` : '';
  $('play-points').dataset.points = pts.join(':');
  let status;
  if (g.result) {
    status = g.result.winner === 'draw' ? `Game over: draw (${g.result.reason})`
                                        : `Game over: ${g.result.winner} wins (${g.result.reason})`;
  } else if (play.busy) {
    status = 'The bot is thinking…';
  } else {
    status = `${g.toMove} to move${myTurn ? ' (you)' : ''}`;
  }
  $('play-status').textContent = status;
  $('play-status').dataset.over = g.result ? '1' : '0';
  $('play-resign').disabled = !!g.result;
  $('play-review').hidden = !g.result;
  $('play-bot').textContent = `bot: ${botText(rulesetOf(g.rules))}, level ${g.level}`;
  $('play-record').href = `/api/game/${g.id}/record`;
  $('play-record').classList.remove('disabled');
  play.clockAt = performance.now();
  renderClock();
}

function renderClock() {
  const g = play.game;
  const out = $('play-clock-display');
  if (!g || g.clock.mode === 'none') { out.textContent = ''; return; }
  const running = !g.result;
  const elapsed = running ? (performance.now() - play.clockAt) / 1000 : 0;
  if (g.clock.mode === 'game') {
    const left = g.clock.remaining - elapsed;
    out.textContent = `game clock ${fmtClock(left)}`;
    out.classList.toggle('low', left < 60);
  } else {
    const side = g.sides.indexOf(g.toMove);
    const left = g.clock.remaining.map((r, i) => (i === side ? r - elapsed : r));
    out.textContent = `${g.sides[0]} ${fmtClock(left[0])} · ${g.sides[1]} ${fmtClock(left[1])}`;
    out.classList.toggle('low', Math.min(...left) < 30);
  }
}
setInterval(renderClock, 250);

async function clickPlay(i, sources) {
  const g = play.game;
  if (!g || g.result || play.busy || g.bot[g.sides.indexOf(g.toMove)]) return;
  $('play-choice').replaceChildren();
  const moves = movesAt(g.legal, play.selected, i);
  const send = async (move) => {
    play.selected = -1;
    try {
      play.game = await api('POST', `/api/game/${g.id}/move`, { move: move.move });
    } catch (e) {
      $('play-status').textContent = e.message;
    }
    renderPlay();
    await botIfNeeded();
  };
  if (moves.length === 1) return send(moves[0]);
  if (moves.length > 1) return choose($('play-choice'), moves, send);
  play.selected = sources.has(i) && play.selected !== i ? i : -1;
  renderPlay();
}

async function botIfNeeded() {
  while (play.game && !play.game.result && play.game.bot[play.game.sides.indexOf(play.game.toMove)]) {
    play.busy = true;
    renderPlay();
    try {
      const r = await api('POST', `/api/game/${play.game.id}/bot`, undefined, 3600);
      play.game = r.game;
    } catch (e) {
      play.busy = false;
      $('play-status').textContent = `bot: ${e.message}`;
      return;
    }
    play.busy = false;
    renderPlay();
  }
}

// The choices of the play page, remembered in the browser for the next visit.
const SETTINGS_KEY = 'pincer-settings';
function saveSettings() {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify({
    rules: $('play-rules').value, side: $('play-side').value, level: $('play-level').value,
    clock: $('play-clock').value,
  }));
}

// Restores the remembered choices (those still offered); the side defaults to the one that moves
// first, so that a new game starts with the user to move.
async function restoreSettings() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}') || {}; } catch (e) { saved = {}; }
  const has = (select, v) => [...$(select).options].some((o) => o.value === String(v));
  if (saved.rules && has('play-rules', saved.rules)) $('play-rules').value = saved.rules;
  fillPlayOptions();
  if (saved.level && has('play-level', saved.level)) $('play-level').value = saved.level;
  if (saved.clock && has('play-clock', saved.clock)) $('play-clock').value = saved.clock;
  if (saved.side && has('play-side', saved.side)) {
    $('play-side').value = saved.side;
  } else {
    try {
      const start = await api('POST', '/api/position', { rules: $('play-rules').value });
      $('play-side').value = start.toMove;
    } catch (e) { /* the first side, as listed */ }
  }
}

async function newGame() {
  saveSettings();
  const [mode, minutes] = $('play-clock').value.split(':');
  const body = { rules: $('play-rules').value, human: $('play-side').value,
                 level: Number($('play-level').value), clock: mode };
  if (minutes) body.minutes = Number(minutes);
  try {
    play.game = await api('POST', '/api/game', body);
  } catch (e) {
    $('play-status').textContent = e.message;
    return;
  }
  play.selected = -1;
  localStorage.setItem('pincer-game', play.game.id);
  location.hash = `#play/${play.game.id}`;
  renderPlay();
  await botIfNeeded();
}

async function resumeGame(id) {
  let g;
  try {
    g = await api('GET', `/api/game/${id}`);
  } catch (e) {
    return false;
  }
  play.game = g;
  if ($('play-rules').value !== g.rules) { $('play-rules').value = g.rules; fillPlayOptions(); }
  renderPlay();
  botIfNeeded();
  return true;
}

// ---------------------------------------------------------------- Analyse
const an = { rules: '', position: '', moves: [], cursor: 0, state: null, stream: null, graphStream: null, graph: [],
            top: null };

// Loads can overlap (a game chosen, then a position loaded at once): only the newest one's answer
// is shown, whatever order the answers come back in.
let loadSerial = 0;
// Scrolls the list `box` (not the page) so that `item` is visible.
function keepInView(box, item) {
  if (!item) return;
  const top = item.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = top - box.clientHeight / 2;
  }
}

async function loadPosition() {
  const serial = ++loadSerial;
  const rules = an.rules;
  let state;
  try {
    state = await api('POST', '/api/position', { rules: an.rules, position: an.position || undefined,
                                                 moves: an.moves.slice(0, an.cursor) });
  } catch (e) {
    if (serial === loadSerial) { stopAnalysis(); $('an-status').textContent = e.message; }
    return;
  }
  if (serial !== loadSerial) return;
  an.state = state;
  an.stateRules = rules;  // the layout to draw an.state with
  an.selected = -1;
  an.top = null;
  renderAnalyse();
  analyseCurrent();
}

function renderAnalyse() {
  const s = an.state;
  if (!s || an.stateRules !== an.rules) return;  // a new game's position is on its way
  const layout = rulesetOf(an.rules).layout;
  const targets = targetsOf(s.legal, an.selected);
  const arrows = [];
  if (an.top) {
    const best = an.top.moveInfos[0]?.visits || 1;
    for (const m of an.top.moveInfos.slice(0, 3)) {
      const legal = s.legal.find((l) => l.move === m.long);
      if (legal) arrows.push({ from: legal.from, to: legal.to, also: legal.also, strength: Math.min(1, (m.visits || 1) / best) });
    }
  }
  const last = s.moves.length ? s.moves[s.moves.length - 1] : null;
  drawBoard($('an-board'), layout, s.view, {
    selected: an.selected, targets, arrows, last,
    onClick: (i) => clickAnalyse(i),
  });
  $('an-turn').textContent = `turn ${an.cursor} of ${an.moves.length} · ${s.result ? 'game over' : `${s.toMove} to move`}`;
  renderPoints(s);
  $('an-moves').replaceChildren(...an.moves.map((m, i) => {
    const li = document.createElement('li');
    li.textContent = m;
    if (i === an.cursor - 1) li.className = 'current';
    markMove(li, i);
    li.addEventListener('click', () => { an.cursor = i + 1; loadPosition(); });
    return li;
  }));
  keepInView($('an-moves'), $('an-moves').querySelector('.current'));
  const rows = (an.top?.moveInfos || []).slice(0, 8).map((m) => {
    const tr = document.createElement('tr');
    for (const v of [m.move, pct(m.win), pct(m.draw), pct(m.loss), m.visits, (m.pv || []).slice(0, 6).join(' ')]) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.appendChild(td);
    }
    return tr;
  });
  $('an-top').querySelector('tbody').replaceChildren(...rows);
  renderBook(an.top?.book);
  drawGraph($('an-graph'), an.graph, an.cursor, reviewMarks());
}

// The points bar: the points held and, where the analysis gives them, those expected at the end
// of the game, with where they come from (rootInfo.pointsSource: the model's points head, or
// the end of alpha-beta's best line, also beside a model without that head).
const pointsSources = {
  model: ['model', "the model's points head: its predicted final lead for the side to move"],
  alphabeta: ['alpha-beta line', "the points each side holds at the end of alpha-beta's best line " +
              '(a short search where the model has no points head)'],
};
function renderPoints(s) {
  const bar = $('an-points');
  const info = an.top?.rootInfo;
  const expected = info?.expectedPoints;
  const diff = info?.expectedPointsDiff;
  const sides = rulesetOf(an.rules).sides;
  const signed = (d) => (d > 0 ? '+' : '') + d;
  const counts = rulesetOf(an.rules).countsPoints;
  const figure = !counts ? '' : expected ? ` · expected ${expected[sides[0]]} : ${expected[sides[1]]}`
    : diff !== undefined ? ` · expected at the end: ${an.top.toMove} ${signed(diff)}` : '';
  const [label, why] = (figure && pointsSources[info.pointsSource]) || ['', ''];
  bar.replaceChildren(counts ? `points ${s.points[0]} : ${s.points[1]}${figure}` : '');
  if (label) {
    const caption = document.createElement('small');
    caption.className = 'points-source';
    caption.textContent = ` (${label})`;
    bar.appendChild(caption);
  }
  bar.title = why ? `expected at the end of the game, from ${why}` : '';
  bar.dataset.source = label ? info.pointsSource : '';
}

// The opening book's view of the position (`pincer serve --book`): its moves, best first.
function renderBook(b) {
  $('an-book').hidden = !b;
  if (!b) return;
  const value = (v) => (v === undefined ? '-' : (v > 0 ? '+' : '') + v.toFixed(3));
  const games = (g) => (g.games ? `${g.games}: ${pct(g.winRate[0])}` : '-');
  $('an-book-info').textContent = b.value === undefined ? `known from ${b.games.games} games` :
    `book value ${value(b.value)}${b.proved ? ' (proved)' : ''}, ${b.games.games} games`;
  $('an-book-moves').querySelector('tbody').replaceChildren(...b.moves.slice(0, 8).map((m) => {
    const tr = document.createElement('tr');
    tr.dataset.move = m.move;
    for (const v of [m.move + (m.inBook ? ' *' : ''), value(m.value), m.visits ?? '-', games(m.games)]) {
      tr.insertCell().textContent = v;
    }
    return tr;
  }));
}

function clickAnalyse(i) {
  const s = an.state;
  if (!s || s.result) return;
  $('an-choice').replaceChildren();
  const moves = movesAt(s.legal, an.selected, i);
  const go = (move) => {
    stopGraph();  // its turns after this one are of the old line
    an.moves = an.moves.slice(0, an.cursor).concat([move.move]);
    an.cursor += 1;
    clearReview();
    an.graph = an.graph.slice(0, an.cursor);
    loadPosition();
  };
  if (moves.length === 1) return go(moves[0]);
  if (moves.length > 1) return choose($('an-choice'), moves, go);
  an.selected = s.legal.some((m) => m.from === i) && an.selected !== i ? i : -1;
  renderAnalyse();
}

// Side 0's expected score from a response for the side to move.
function firstSideValue(r, sides) {
  const v = r.rootInfo.win + r.rootInfo.draw / 2;
  return r.toMove === sides[0] ? v : 1 - v;
}

function analyseCurrent() {
  stopAnalysis();
  const query = { id: 'page', rules: an.rules, moves: an.moves.slice(0, an.cursor),
                  maxVisits: 100000, maxTime: 5, reportDuringSearchEvery: 0.5 };
  if (an.position) query.position = an.position;
  const stream = new EventSource(`/api/analyze/stream?query=${encodeURIComponent(JSON.stringify(query))}`);
  an.stream = stream;
  $('an-status').textContent = 'analysing…';
  $('an-status').dataset.done = '0';
  stream.onmessage = (ev) => {
    if (stream !== an.stream) return;  // an answer about a position no longer shown
    const r = JSON.parse(ev.data);
    if (r.error) { $('an-status').textContent = r.error; return; }
    if (!r.moveInfos) return;
    // Long move texts, to find each move's cells among the legal moves.
    for (const m of r.moveInfos) m.long = longOf(m.move);
    an.top = r;
    const sides = rulesetOf(an.rules).sides;
    if (!an.review) an.graph[an.cursor] = firstSideValue(r, sides);  // a review's graph stays
    $('an-status').textContent = `${r.isDuringSearch ? 'analysing' : 'done'}: ${r.rootInfo.visits} visits, ` +
      `${r.toMove} ${pct(r.rootInfo.win)} win, ${pct(r.rootInfo.draw)} draw`;
    $('an-status').dataset.done = r.isDuringSearch ? '0' : '1';
    renderAnalyse();
  };
  stream.addEventListener('end', () => stream.close());
  stream.onerror = () => stream.close();
}

// The legal move (long text) whose short text is `short` (analyses answer in short texts).
function longOf(short) {
  const m = an.state.legal.find((l) => l.short === short || l.move === short);
  return m ? m.move : short;
}

// The expected score at every turn, a turn at a time as it comes. A stream, so that closing it
// (a new game loaded, a review started) stops what is left of it on the server.
function graphWholeGame() {
  stopGraph();
  if (an.moves.length === 0) return;
  const turns = [...Array(an.moves.length + 1).keys()];
  // Below the shown position's own analysis (priority 0): a long game's graph must not keep the
  // top moves waiting. A second a turn bounds an analyser that has no visit budget (alpha-beta).
  const query = { id: 'graph', rules: an.rules, moves: an.moves, analyzeTurns: turns, maxVisits: 60, maxTime: 1,
                  priority: -1 };
  if (an.position) query.position = an.position;
  const sides = rulesetOf(an.rules).sides;
  const stream = new EventSource(`/api/analyze/stream?query=${encodeURIComponent(JSON.stringify(query))}`);
  an.graphStream = stream;
  stream.onmessage = (ev) => {
    if (stream !== an.graphStream) return;
    const r = JSON.parse(ev.data);
    if (r.error) { $('an-status').textContent = r.error; return; }
    if (an.review || r.isDuringSearch || !r.rootInfo) return;  // a review's graph, from its larger budget, stays
    an.graph[r.turnNumber] = firstSideValue(r, sides);
    drawGraph($('an-graph'), an.graph, an.cursor, reviewMarks());  // the graph alone: the board stays as it is
  };
  stream.addEventListener('end', () => stopGraph());
  stream.onerror = () => stopGraph();
}

function stopGraph() {
  if (an.graphStream) an.graphStream.close();
  an.graphStream = null;
}

async function loadInput() {
  const text = $('an-input').value.trim();
  an.rules = $('an-rules').value;
  an.graph = [];
  clearReview();
  try {
    if (text.startsWith('[')) {
      const r = await api('POST', '/api/record', { text });
      an.rules = r.rules;
      $('an-rules').value = r.rules;
      an.position = r.position;
      an.moves = r.moves;
    } else {
      an.position = text;
      an.moves = [];
    }
  } catch (e) {
    // The message stays: what was loading or analysing before is dropped.
    ++loadSerial;
    stopAnalysis();
    $('an-status').textContent = `not loaded: ${e.message}`;
    return;
  }
  an.cursor = an.moves.length;
  await loadPosition();
  graphWholeGame();
}

// ---------------------------------------------------------------- Review
// The review of the game in the analysis page (POST /api/review, serve/review.h): each move's
// drop in the mover's expected score, marked inaccuracy / mistake / blunder, the best move beside
// each marked one, and per side an accuracy and counts.
const MARK_SYMBOL = { inaccuracy: '?!', mistake: '?', blunder: '??' };
let reviewSerial = 0;

function clearReview() {
  ++reviewSerial;
  an.review = null;
  $('an-review').hidden = true;
  $('an-review-status').textContent = '';
}

async function runReview() {
  if (!an.moves.length) return;
  const serial = ++reviewSerial;
  stopGraph();  // the review draws the graph; what is left of the quick one would only delay it
  an.review = null;
  $('an-review').hidden = false;
  $('an-review-status').textContent = `reviewing ${an.moves.length} moves…`;
  $('an-review-status').dataset.done = '0';
  $('an-review-sides').querySelector('tbody').replaceChildren();
  let r;
  try {
    r = await api('POST', '/api/review', { rules: an.rules, position: an.position || undefined, moves: an.moves },
                  3600);
  } catch (e) {
    if (serial === reviewSerial) $('an-review-status').textContent = `review: ${e.message}`;
    return;
  }
  if (serial !== reviewSerial) return;
  an.review = r;
  an.graph = r.graph.slice();
  const t = r.thresholds;
  $('an-review-status').textContent = `${r.analyzer}, ${r.budget.maxVisits} visits a turn; a drop in the ` +
    `mover's expected score of ${t.inaccuracy} / ${t.mistake} / ${t.blunder} marks an inaccuracy / mistake / blunder`;
  $('an-review-status').dataset.done = '1';
  $('an-review-sides').querySelector('tbody').replaceChildren(...Object.entries(r.sides).map(([side, x]) => {
    const tr = document.createElement('tr');
    tr.dataset.side = side;
    for (const v of [side, x.accuracy ?? '-', x.inaccuracies, x.mistakes, x.blunders]) tr.insertCell().textContent = v;
    return tr;
  }));
  renderAnalyse();
}

// The review's marks as the graph draws them: [{turn, mark}] (turn: the position after the move).
function reviewMarks() {
  if (!an.review) return [];
  return an.review.moves.map((m, i) => ({ turn: i + 1, mark: m.mark })).filter((m) => m.mark);
}

// The move list entry of move i with its review mark and the best move beside a marked one.
function markMove(li, i) {
  const m = an.review?.moves[i];
  if (!m || !m.mark) return;
  li.classList.add(`mark-${m.mark}`);
  li.dataset.mark = m.mark;
  li.append(MARK_SYMBOL[m.mark]);
  li.title = `${m.mark}: the mover's expected score ${m.before} → ${m.after}`;
  if (m.best) {
    const best = document.createElement('span');
    best.className = 'best';
    best.textContent = ` best ${m.best}`;
    li.append(best);
  }
}

// From the play page: the finished game, reviewed in the analysis page.
async function reviewPlayed() {
  const g = play.game;
  if (!g) return;
  stopAnalysis();
  stopGraph();
  an.rules = g.rules;
  $('an-rules').value = g.rules;
  an.position = g.start;
  an.moves = g.moves.map((m) => m.long);
  an.cursor = an.moves.length;
  an.graph = [];
  an.top = null;
  clearReview();
  location.hash = '#analyse';
  await loadPosition();
  await runReview();
}

// ---------------------------------------------------------------- Pages
// The first game: the remembered choices (or the default game, the user moving first), started
// at once so that the page opens on a board with the user to move.
let starting = null;
function startFirstGame() {
  if (!starting) starting = newGame().finally(() => { starting = null; });
  return starting;
}

async function showPage() {
  const [page, id] = location.hash.replace('#', '').split('/');
  const analyse = page === 'analyse';
  $('page-play').hidden = analyse;
  $('page-analyse').hidden = !analyse;
  $('tab-play').classList.toggle('active', !analyse);
  $('tab-analyse').classList.toggle('active', analyse);
  if (analyse && !an.state) { an.rules = $('an-rules').value; loadPosition(); }
  if (analyse) return;
  if (id && (!play.game || play.game.id !== id)) {
    if (!(await resumeGame(id))) startFirstGame();  // a game the server no longer has
  } else if (!id && play.game) {
    history.replaceState(null, '', `#play/${play.game.id}`);  // the Play tab: the game shown
  } else if (!id) {
    startFirstGame();
  }
}

async function main() {
  info = await api('GET', '/api/info');
  $('server-info').textContent = info.version;
  fillRules($('play-rules'));
  fillRules($('an-rules'));
  await restoreSettings();
  $('play-rules').addEventListener('change', () => { fillPlayOptions(); saveSettings(); });
  for (const id of ['play-side', 'play-level', 'play-clock']) $(id).addEventListener('change', saveSettings);
  $('play-new').addEventListener('click', newGame);
  $('play-review').addEventListener('click', reviewPlayed);
  $('play-resign').addEventListener('click', async () => {
    if (!play.game) return;
    const human = play.game.bot.indexOf(false);
    try {
      play.game = await api('POST', `/api/game/${play.game.id}/resign`, human >= 0 ? { side: play.game.sides[human] } : {});
    } catch (e) { $('play-status').textContent = e.message; }
    renderPlay();
  });
  $('an-rules').addEventListener('change', () => {
    stopAnalysis();  // its answers are about the old game
    stopGraph();
    an.rules = $('an-rules').value; an.position = ''; an.moves = []; an.cursor = 0; an.graph = []; an.top = null;
    clearReview();
    loadPosition();
  });
  $('an-load').addEventListener('click', loadInput);
  $('an-review-button').addEventListener('click', runReview);
  $('an-reset').addEventListener('click', () => {
    stopGraph();
    an.position = ''; an.moves = []; an.cursor = 0; an.graph = []; clearReview(); loadPosition();
  });
  $('an-first').addEventListener('click', () => { an.cursor = 0; loadPosition(); });
  $('an-prev').addEventListener('click', () => { an.cursor = Math.max(0, an.cursor - 1); loadPosition(); });
  $('an-next').addEventListener('click', () => { an.cursor = Math.min(an.moves.length, an.cursor + 1); loadPosition(); });
  $('an-last').addEventListener('click', () => { an.cursor = an.moves.length; loadPosition(); });
  window.addEventListener('hashchange', showPage);
  if (!location.hash) {
    // The last game when it is still going on the server, else a new one (showPage).
    const saved = localStorage.getItem('pincer-game');
    let hash = '#play';
    if (saved) {
      try {
        const g = await api('GET', `/api/game/${saved}`);
        if (!g.result) hash = `#play/${saved}`;
      } catch (e) { /* gone: a new game */ }
    }
    history.replaceState(null, '', hash);
  }
  showPage();
}

main();
