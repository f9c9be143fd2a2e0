// The book report page (book/report.cpp): follows book/report.h's data, drawn with board.js's
// drawBoard (inlined before this script). Clicking a move in the book descends; the breadcrumb
// goes back; the address's hash keeps the line (#m=move,move,...), so a reload or a link keeps it.
const D = JSON.parse(document.getElementById('book-data').textContent);
const $ = (id) => document.getElementById(id);
const NS = 'http://www.w3.org/2000/svg';
let line = [];  // [{key, move}] from the root: the positions after each move

const fmt = (v) => (v === undefined ? '-' : (v > 0 ? '+' : '') + v.toFixed(3));
const pct = (x) => `${Math.round(100 * x)}%`;
const sideName = (i) => D.sides[i];

function currentKey() { return line.length ? line[line.length - 1].key : D.root; }

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

function gamesText(g) {
  if (!g.games) return '-';
  const [r, lo, hi] = g.winRate;
  return `${g.games}: ${pct(r)} [${pct(lo)}-${pct(hi)}] +${g.wins} =${g.draws} -${g.losses}`;
}

function drawMeta() {
  const h = D.header;
  $('meta').textContent = `${h.game} / ${h.ruleset} (fingerprint ${h.fingerprint}); evaluator ` +
    `${h.evaluator}${h.visits ? `, ${h.visits} visits per position` : ''}; ${h.searched} ` +
    `searched positions of ${h.positions} (${h.shown} shown: positions known only from games ` +
    `when ${h.minGames}+ games reached them` +
    `${h.maxPlies >= 0 ? `; up to ${h.maxPlies} plies from the start` : ''}); ` +
    `${h.recordsRead} games read`;
}

function drawCrumbs() {
  const nav = $('crumbs');
  nav.replaceChildren();
  const add = (text, depth) => {
    const a = document.createElement('a');
    a.href = '#';
    a.textContent = text;
    a.dataset.depth = depth;
    a.addEventListener('click', (e) => { e.preventDefault(); go(line.slice(0, depth)); });
    nav.appendChild(a);
  };
  add('start', 0);
  line.forEach((step, i) => {
    nav.appendChild(document.createTextNode(' › '));
    add(`${Math.floor(i / 2) + 1}${i % 2 ? '…' : '.'} ${step.move}`, i + 1);
  });
}

function drawPosition(p) {
  const last = line.length ? line[line.length - 1].cells : undefined;
  const best = p.moves.filter((m) => m.value !== undefined).slice(0, 3);
  const arrows = best.map((m, i) => ({ from: m.cells.from, to: m.cells.to, strength: 1 - i * 0.35 }));
  drawBoard($('board'), D.layout, p.view, { last, arrows });
  const info = $('position');
  info.replaceChildren();
  const row = (label, text) => {
    const d = document.createElement('div');
    d.innerHTML = `<b>${label}</b> `;
    d.appendChild(document.createTextNode(text));
    info.appendChild(d);
  };
  row('to move', sideName(p.toMove));
  if (p.value !== undefined) {
    row('book value', `${fmt(p.value)}${p.proved ? ' (proved)' : ''}`);
    if (p.wdl && p.wdl.length === 3) {
      row('search W/D/L', `${pct(p.wdl[0])} / ${pct(p.wdl[1])} / ${pct(p.wdl[2])}, ${p.visits} visits`);
    }
  } else {
    row('book value', p.terminal ? 'game over' : 'not searched (known from games only)');
  }
  row('games', gamesText(p.games));
  row('position', p.text);
}

function drawMoves(p) {
  const t = $('moves');
  t.replaceChildren();
  const head = t.insertRow();
  for (const h of ['move', 'value', 'q', 'visits', 'prior', 'games: mover wins [95%]']) {
    const th = document.createElement('th');
    th.textContent = h;
    head.appendChild(th);
  }
  for (const m of p.moves) {
    const tr = t.insertRow();
    tr.className = m.inBook ? 'in-book' : 'leaf';
    tr.dataset.move = m.move;
    const cells = [m.move + (m.proved ? ' !' : m.inBook ? ' *' : ''), fmt(m.value), fmt(m.q),
                   m.visits ?? '-', m.prior === undefined ? '-' : m.prior.toFixed(3),
                   gamesText(m.games)];
    for (const c of cells) tr.insertCell().textContent = c;
    if (m.child && D.positions[m.child]) {
      tr.title = 'show the position after this move';
      tr.addEventListener('click', () => go(line.concat([{ key: m.child, move: m.move, cells: m.cells }])));
    }
  }
}

// Bars: the book's value as an expected score (value + 1) / 2; dots: the games' win rate with
// its interval. One row per move (at most 16, best first).
function drawChart(p) {
  const svg = $('chart');
  svg.replaceChildren();
  const moves = p.moves.slice(0, 16);
  const rowH = 20, left = 70, width = 300, H = moves.length * rowH + 24;
  svg.setAttribute('viewBox', `0 0 ${left + width + 10} ${H}`);
  svg.setAttribute('height', H);
  const x = (s) => left + s * width;
  for (const s of [0, 0.25, 0.5, 0.75, 1]) {
    svgEl('line', { x1: x(s), y1: 0, x2: x(s), y2: H - 18, stroke: s === 0.5 ? '#888' : '#ddd' }, svg);
    svgEl('text', { x: x(s), y: H - 4, 'font-size': 10, 'text-anchor': 'middle' }, svg).textContent = pct(s);
  }
  moves.forEach((m, i) => {
    const y = i * rowH + 4;
    svgEl('text', { x: left - 6, y: y + 12, 'font-size': 11, 'text-anchor': 'end' }, svg).textContent = m.move;
    if (m.value !== undefined) {
      const s = (m.value + 1) / 2;
      svgEl('rect', { x: x(Math.min(s, 0.5)), y: y + 2, width: Math.abs(x(s) - x(0.5)), height: rowH - 8,
                      fill: s >= 0.5 ? '#6a9fd4' : '#d48a6a', class: 'value-bar' }, svg);
    }
    if (m.games.games) {
      const [r, lo, hi] = m.games.winRate;
      svgEl('line', { x1: x(lo), y1: y + rowH / 2 - 2, x2: x(hi), y2: y + rowH / 2 - 2, stroke: '#222',
                      'stroke-width': 1.5 }, svg);
      svgEl('circle', { cx: x(r), cy: y + rowH / 2 - 2, r: 3.5, fill: '#222', class: 'game-rate' }, svg);
    }
  });
}

function go(newLine, updateHash = true) {
  line = newLine;
  const p = D.positions[currentKey()];
  if (!p) return;
  drawCrumbs();
  drawPosition(p);
  drawMoves(p);
  drawChart(p);
  if (updateHash) history.replaceState(null, '', '#m=' + line.map((s) => s.move).join(','));
}

// The line named in the address (#m=move,move,...), as far as it stays in the book.
function fromHash() {
  const out = [];
  const m = location.hash.match(/^#m=(.*)$/);
  if (!m || !m[1]) return out;
  let key = D.root;
  for (const text of decodeURIComponent(m[1]).split(',')) {
    const mv = D.positions[key]?.moves.find((x) => x.move === text);
    if (!mv || !mv.child || !D.positions[mv.child]) break;
    out.push({ key: mv.child, move: mv.move, cells: mv.cells });
    key = mv.child;
  }
  return out;
}

drawMeta();
if (!D.positions[D.root]) {
  $('position').textContent = 'The book has no root position.';
} else {
  go(fromHash(), false);
}
window.addEventListener('hashchange', () => go(fromHash(), false));
