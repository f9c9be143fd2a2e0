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

// opts: { flip, selected, targets (Set of cells), last ({from,to}), arrows ([{from,to,label,
// strength}]), captured (Set of cells), onClick(cell) }
export function drawBoard(svg, layout, view, opts = {}) {
  svg.replaceChildren();
  const W = layout.columns * SIZE, H = layout.rows * SIZE;
  svg.setAttribute('viewBox', `-4 -4 ${W + 8} ${H + 8}`);
  const markNames = Object.keys(layout.marks || {});
  const place = (i) => {
    const c = layout.cells[i];
    const col = opts.flip ? layout.columns - 1 - c.column : c.column;
    const row = opts.flip ? layout.rows - 1 - c.row : c.row;
    return { x: col * SIZE, y: row * SIZE };
  };
  const defs = el('defs', {}, svg);
  const marker = el('marker', { id: 'arrowhead', markerWidth: 4, markerHeight: 4, refX: 2.2,
                                refY: 2, orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L4,2 L0,4 z', fill: '#1565c0' }, marker);

  layout.cells.forEach((c, i) => {
    const { x, y } = place(i);
    const g = el('g', { class: 'cell', 'data-cell': c.name, 'data-index': i }, svg);
    const dark = (c.column + c.row) % 2 === 1;
    el('rect', { x, y, width: SIZE, height: SIZE, fill: dark ? '#b58863' : '#f0d9b5' }, g);
    if (c.mark) {
      const colour = MARK_COLOURS[markNames.indexOf(c.mark) % MARK_COLOURS.length];
      el('rect', { x: x + 3, y: y + 3, width: SIZE - 6, height: SIZE - 6, fill: 'none',
                   stroke: colour, 'stroke-width': 4 }, g);
      const t = el('title', {}, g);
      t.textContent = `${c.name}: ${c.mark} (${layout.marks[c.mark] || ''})`;
    }
    if (opts.last && (opts.last.from === i || opts.last.to === i)) {
      el('rect', { x, y, width: SIZE, height: SIZE, fill: '#f7ec5d', opacity: 0.45 }, g);
    }
    if (opts.captured && opts.captured.has(i)) {
      el('rect', { x, y, width: SIZE, height: SIZE, fill: '#e53935', opacity: 0.3 }, g);
    }
    if (opts.selected === i) {
      el('rect', { x: x + 1, y: y + 1, width: SIZE - 2, height: SIZE - 2, fill: 'none',
                   stroke: '#1e88e5', 'stroke-width': 3 }, g);
    }
    const label = el('text', { x: x + 3, y: y + SIZE - 4, 'font-size': 9, fill: '#5a4632',
                               opacity: 0.7 }, g);
    label.textContent = c.name;
    const k = view && view.piece ? view.piece[i] : -1;
    if (k >= 0) {
      const kind = layout.kinds[k];
      const fill = layout.sideColors[kind.owner] || '#888';
      el('circle', { cx: x + SIZE / 2, cy: y + SIZE / 2, r: SIZE * 0.36, fill, stroke: '#222',
                     'stroke-width': 1.5, class: `piece owner-${kind.owner}` }, g);
      if (kind.glyph) {
        const t = el('text', { x: x + SIZE / 2, y: y + SIZE / 2 + 7, 'text-anchor': 'middle',
                               'font-size': 20, 'font-weight': 700, fill: ink(fill) }, g);
        t.textContent = kind.glyph;
      }
      const title = el('title', {}, g);
      title.textContent = `${c.name}: ${kind.name}${kind.points ? ` (${kind.points} points)` : ''}`;
    } else if (view && view.marker && view.marker[i] >= 0) {
      const kind = layout.kinds[view.marker[i]];
      el('rect', { x: x + SIZE / 2 - 9, y: y + SIZE / 2 - 9, width: 18, height: 18,
                   transform: `rotate(45 ${x + SIZE / 2} ${y + SIZE / 2})`, fill: '#fff8',
                   stroke: '#444', class: 'token' }, g);
      const t = el('text', { x: x + SIZE / 2, y: y + SIZE / 2 + 5, 'text-anchor': 'middle',
                             'font-size': 14, fill: '#222' }, g);
      t.textContent = kind.glyph;
    }
    if (opts.targets && opts.targets.has(i)) {
      el('circle', { cx: x + SIZE / 2, cy: y + SIZE / 2, r: 8, fill: '#1e88e5', opacity: 0.6,
                     class: 'target' }, g);
    }
    if (opts.onClick) g.addEventListener('click', () => opts.onClick(i));
  });
  for (const a of opts.arrows || []) {
    if (a.to < 0) continue;
    const to = place(a.to);
    const from = a.from >= 0 ? place(a.from) : to;
    const w = 3 + 7 * (a.strength ?? 0.5);
    if (a.from >= 0) {
      el('line', { x1: from.x + SIZE / 2, y1: from.y + SIZE / 2, x2: to.x + SIZE / 2,
                   y2: to.y + SIZE / 2, stroke: '#1565c0', 'stroke-width': w, opacity: 0.7,
                   'marker-end': 'url(#arrowhead)', class: 'arrow', 'pointer-events': 'none' }, svg);
    } else {
      el('circle', { cx: to.x + SIZE / 2, cy: to.y + SIZE / 2, r: 14, fill: 'none',
                     stroke: '#1565c0', 'stroke-width': w, opacity: 0.7, class: 'arrow',
                     'pointer-events': 'none' }, svg);
    }
  }
}

// A win-probability graph: values in [0, 1] per turn, `cursor` marks the current turn.
export function drawGraph(svg, values, cursor) {
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
}
