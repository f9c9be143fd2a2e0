// Draws any game's board from the server's description (layout: cells, marks, piece kinds,
// side colours) and a view (the piece kind on each cell), as SVG. Nothing here knows a game.
const NS = 'http://www.w3.org/2000/svg';
const SIZE = 60;
const MARK_COLOURS = ['#d9c27a', '#8fb5d9', '#b9d98f', '#d99f8f', '#c59fd9'];

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Text colour readable on `fill` (a #rrggbb colour).
function ink(fill) {
  const n = parseInt(fill.slice(1), 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 140 ? '#222' : '#f4f4f4';
}

// Pips of a die face on a unit square: positions in thirds.
const PIPS = {
  1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

// A piece of `kind` centred on (cx, cy) with radius r: a disc, or a die with pips or a glyph.
function drawPiece(g, kind, fill, cx, cy, r) {
  const cls = `piece owner-${kind.owner}`;
  if (kind.shape === 'die') {
    el('rect', { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, rx: r * 0.25, fill,
                 stroke: '#222', 'stroke-width': 1.5, class: `${cls} die` }, g);
    if (kind.pips) {
      for (const [px, py] of PIPS[kind.pips] || []) {
        el('circle', { cx: cx - r * 0.55 + px * r * 0.55, cy: cy - r * 0.55 + py * r * 0.55,
                       r: r * 0.14, fill: ink(fill), class: 'pip' }, g);
      }
      return;
    }
  } else {
    el('circle', { cx, cy, r, fill, stroke: '#222', 'stroke-width': 1.5, class: cls }, g);
  }
  if (kind.glyph) {
    const t = el('text', { x: cx, y: cy + r * 0.38, 'text-anchor': 'middle', 'font-size': r * 1.1,
                           'font-weight': 700, fill: ink(fill) }, g);
    t.textContent = kind.glyph;
  }
}

// opts: { flip, selected, targets (Set of cells), last ({from,to,also}), arrows ([{from,to,label,
// strength}]), captured (Set of cells), onClick(cell) }. Cells of shape "point" are crossings
// where four tiles meet, drawn over the tiles.
export function drawBoard(svg, layout, view, opts = {}) {
  svg.replaceChildren();
  const W = layout.columns * SIZE, H = layout.rows * SIZE;
  svg.setAttribute('viewBox', `-4 -4 ${W + 8} ${H + 8}`);
  const markNames = Object.keys(layout.marks || {});
  const isPoint = (c) => c.shape === 'point';
  // Centre of cell i as drawn.
  const centre = (i) => {
    const c = layout.cells[i];
    const edge = isPoint(c) ? 0 : 1;  // a tile's last column is columns - 1, a point's columns
    const col = opts.flip ? layout.columns - edge - c.column : c.column;
    const row = opts.flip ? layout.rows - edge - c.row : c.row;
    const half = isPoint(c) ? 0 : SIZE / 2;
    return { x: col * SIZE + half, y: row * SIZE + half };
  };
  // The arrowhead's id is the board's own: a url(#id) naming another board's marker finds the
  // first in the document, drawn nothing while that board's page is hidden.
  const arrowhead = `arrowhead-${svg.id || 'board'}`;
  const defs = el('defs', {}, svg);
  const marker = el('marker', { id: arrowhead, markerWidth: 4, markerHeight: 4, refX: 2.2,
                                refY: 2, orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L4,2 L0,4 z', fill: '#1565c0' }, marker);
  const lastCells = new Set();
  if (opts.last) for (const c of [opts.last.from, opts.last.to, ...(opts.last.also || [])]) lastCells.add(c);

  const order = layout.cells.map((_, i) => i);
  order.sort((a, b) => isPoint(layout.cells[a]) - isPoint(layout.cells[b]));  // tiles first
  for (const i of order) {
    const c = layout.cells[i];
    const { x: cx, y: cy } = centre(i);
    const point = isPoint(c);
    const g = el('g', { class: point ? 'cell point' : 'cell', 'data-cell': c.name, 'data-index': i }, svg);
    const half = point ? SIZE * 0.2 : SIZE / 2;  // a point's clickable area
    const box = (inset, attrs) => el('rect', { x: cx - half + inset, y: cy - half + inset,
                                               width: 2 * (half - inset), height: 2 * (half - inset),
                                               ...attrs }, g);
    if (point) {
      el('circle', { cx, cy, r: half, fill: '#000', 'fill-opacity': 0.001 }, g);
      el('circle', { cx, cy, r: 3, fill: '#5a4632', opacity: 0.6 }, g);
    } else {
      const dark = (c.column + c.row) % 2 === 1;
      box(0, { fill: dark ? '#b58863' : '#f0d9b5' });
    }
    if (c.mark) {
      const colour = MARK_COLOURS[markNames.indexOf(c.mark) % MARK_COLOURS.length];
      box(3, { fill: 'none', stroke: colour, 'stroke-width': 4 });
      const t = el('title', {}, g);
      t.textContent = `${c.name}: ${c.mark} (${layout.marks[c.mark] || ''})`;
    }
    if (lastCells.has(i)) {
      if (point) el('circle', { cx, cy, r: half, fill: '#f7ec5d', opacity: 0.7 }, g);
      else box(0, { fill: '#f7ec5d', opacity: 0.45 });
    }
    if (opts.captured && opts.captured.has(i)) {
      if (point) el('circle', { cx, cy, r: half, fill: '#e53935', opacity: 0.5 }, g);
      else box(0, { fill: '#e53935', opacity: 0.3 });
    }
    if (opts.selected === i) {
      if (point) el('circle', { cx, cy, r: half, fill: 'none', stroke: '#1e88e5', 'stroke-width': 3 }, g);
      else box(1, { fill: 'none', stroke: '#1e88e5', 'stroke-width': 3 });
    }
    if (!point) {
      const label = el('text', { x: cx - half + 3, y: cy + half - 4, 'font-size': 9, fill: '#5a4632',
                                 opacity: 0.7 }, g);
      label.textContent = c.name;
    }
    const k = view && view.piece ? view.piece[i] : -1;
    if (k >= 0) {
      const kind = layout.kinds[k];
      const fill = layout.sideColors[kind.owner] || '#888';
      drawPiece(g, kind, fill, cx, cy, point ? SIZE * 0.2 : SIZE * (kind.shape === 'die' ? 0.32 : 0.36));
      const title = el('title', {}, g);
      title.textContent = `${c.name}: ${kind.name}${kind.points ? ` (${kind.points} points)` : ''}`;
    } else if (view && view.marker && view.marker[i] >= 0) {
      const kind = layout.kinds[view.marker[i]];
      el('rect', { x: cx - 9, y: cy - 9, width: 18, height: 18,
                   transform: `rotate(45 ${cx} ${cy})`, fill: '#fff8', stroke: '#444', class: 'token' }, g);
      const t = el('text', { x: cx, y: cy + 5, 'text-anchor': 'middle', 'font-size': 14, fill: '#222' }, g);
      t.textContent = kind.glyph;
    }
    if (opts.targets && opts.targets.has(i)) {
      el('circle', { cx, cy, r: point ? 6 : 8, fill: '#1e88e5', opacity: 0.6, class: 'target' }, g);
    }
    if (opts.onClick) g.addEventListener('click', () => opts.onClick(i));
  }
  for (const a of opts.arrows || []) {
    if (a.to < 0) continue;
    const to = centre(a.to);
    const w = 3 + 7 * (a.strength ?? 0.5);
    const style = { stroke: '#1565c0', 'stroke-width': w, opacity: 0.7, class: 'arrow',
                    'pointer-events': 'none' };
    if (a.from >= 0 && a.from !== a.to) {
      const from = centre(a.from);
      el('line', { x1: from.x, y1: from.y, x2: to.x, y2: to.y, 'marker-end': `url(#${arrowhead})`,
                   ...style }, svg);
    } else {
      el('circle', { cx: to.x, cy: to.y, r: 14, fill: 'none', ...style }, svg);
    }
    for (const c of a.also || []) {  // the cells a move puts pieces on (a divide's)
      const p = centre(c);
      el('line', { x1: to.x, y1: to.y, x2: p.x, y2: p.y, 'stroke-dasharray': '6 4', ...style,
                   'stroke-width': w / 2 }, svg);
    }
  }
}

const MARK_COLOURS_BY_KIND = { inaccuracy: '#e6b800', mistake: '#e67e22', blunder: '#c0392b' };

// A win-probability graph: values in [0, 1] per turn, `cursor` marks the current turn, `marks`
// ([{turn, mark}], a review's) put a dot on the turns after the marked moves.
export function drawGraph(svg, values, cursor, marks = []) {
  svg.replaceChildren();
  el('line', { x1: 0, y1: 50, x2: 400, y2: 50, stroke: '#bbb', 'stroke-dasharray': '4 3' }, svg);
  const n = values.length;
  if (n === 0) return;
  const x = (i) => (n === 1 ? 200 : (i * 400) / (n - 1));
  const pts = [];
  values.forEach((v, i) => { if (v !== null && v !== undefined) pts.push(`${x(i)},${100 - v * 100}`); });
  el('polyline', { points: pts.join(' '), fill: 'none', stroke: '#c0392b', 'stroke-width': 2,
                   class: 'winline' }, svg);
  if (cursor !== undefined) {
    el('line', { x1: x(cursor), y1: 0, x2: x(cursor), y2: 100, stroke: '#1565c0' }, svg);
  }
  for (const m of marks) {
    const v = values[m.turn];
    if (v === null || v === undefined) continue;
    // An ellipse that looks round in the stretched graph (viewBox 400x100, preserveAspectRatio none).
    el('ellipse', { cx: x(m.turn), cy: 100 - v * 100, rx: 4, ry: 6, fill: MARK_COLOURS_BY_KIND[m.mark] || '#555',
                    stroke: '#fff', 'stroke-width': 1, class: `graph-mark mark-${m.mark}`,
                    'data-turn': m.turn }, svg);
  }
}
