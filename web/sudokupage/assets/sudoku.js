// sudoku.js: the Sudoku app. The board lives here; the server generates,
// checks, solves, hints, and reads and writes files (see docs/web.md).
'use strict';

const STORE = 'nqcount.sudoku.v1';
const SETTINGS = 'nqcount.sudoku.settings';
const HISTORY = 'nqcount.sudoku.history.v1';
const THEME = 'nqcount.theme';
const KEPT = 500; // undo and redo steps kept over a reload
const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

// The game. grid holds every digit on the board (givens included); marks
// the candidates the player keeps, one bit per digit (bit d for digit d;
// 0: none noted).
const S = {
  puzzle: new Array(81).fill(0),
  grid: new Array(81).fill(0),
  marks: new Array(81).fill(0),
  mode: 'play', // 'play', or 'enter' while typing in a puzzle
  sel: 0,
  pencil: false,
  undo: [],
  redo: [],
  seconds: 0,
  finished: false, // the board is full and right (derived from the board)
  assisted: false, // Solve filled it in
  paused: false,
  auto: false, // keep the candidates updated
  source: null, // {seed, level, score, symmetry, index, command} of a generated puzzle
  solution: null, // {verdict, solution} of the puzzle, once asked for
  wrong: new Set(),
  hint: null, // {st, stage (1 technique, 2 where, 3 the move), key (the board it is for), branch (-1: all)}
  colouring: false, // digits colour candidates instead of entering them
  colors: {}, // the player's colours of candidates: cell*10+digit -> 0 or 1
  lastDigit: 0, // the digit last entered or chosen on the pad (its candidates lit)
};

let cells = [];
let validateTimer = 0;

const houseOf = (i) => [Math.floor(i / 9), 9 + (i % 9), 18 + Math.floor(i / 27) * 3 + Math.floor((i % 9) / 3)];
const PEERS = [];
for (let i = 0; i < 81; i++) {
  const p = [];
  const [r, c, b] = houseOf(i);
  for (let j = 0; j < 81; j++) {
    const [r2, c2, b2] = houseOf(j);
    if (j !== i && (r === r2 || c === c2 || b === b2)) p.push(j);
  }
  PEERS.push(p);
}
const ALL = 0x3fe; // digits 1-9
const name = (i) => 'r' + (Math.floor(i / 9) + 1) + 'c' + ((i % 9) + 1);
const toStr = (a) => a.map((v) => (v ? String(v) : '.')).join('');
const fromStr = (s) => Array.from(s, (ch) => (ch >= '1' && ch <= '9' ? ch.charCodeAt(0) - 48 : 0));
const marksToStr = (m) => { let s = ''; for (let d = 1; d <= 9; d++) if (m & (1 << d)) s += d; return s; };
const marksFromStr = (s) => { let m = 0; for (const ch of s || '') if (ch >= '1' && ch <= '9') m |= 1 << (ch.charCodeAt(0) - 48); return m; };
const houseName = (h) => t('s.house.' + h.kind, { n: h.index + 1 });

// allowed returns the digits none of cell i's peers holds.
function allowed(i, grid) {
  const g = grid || S.grid;
  let m = ALL;
  for (const p of PEERS[i]) if (g[p]) m &= ~(1 << g[p]);
  return m;
}

// ---- Board ----

function buildBoard() {
  const board = $('board');
  for (let r = 0; r < 9; r++) {
    const row = el('div', { role: 'row' });
    for (let c = 0; c < 9; c++) {
      const i = r * 9 + c;
      const cell = el('div', { class: 'cell', role: 'gridcell', 'data-row': r, 'data-col': c, tabindex: '-1' });
      const cands = el('div', { class: 'cands', 'aria-hidden': 'true' });
      for (let d = 1; d <= 9; d++) cands.append(el('span', { class: 'm', 'data-d': d }));
      cell.append(el('span', { class: 'v' }), el('span', { class: 'hv' }), cands);
      cell.addEventListener('pointerdown', (e) => { e.preventDefault(); select(i, true); });
      row.append(cell);
      cells.push(cell);
    }
    board.append(row);
  }
  board.addEventListener('keydown', onKey);
  const pad = $('pad');
  for (let d = 1; d <= 9; d++) {
    const b = el('button', { class: 'btn', 'aria-label': t('s.pad.digit', { d }), text: String(d) });
    b.addEventListener('click', () => { S.lastDigit = d; input(d, false); render(); });
    pad.append(b);
  }
  new ResizeObserver(() => drawLinks()).observe($('boardbox'));
}

// clashSet returns the cells whose digit is also in their row, column or box.
function clashSet(g) {
  const bad = new Set();
  for (let i = 0; i < 81; i++) {
    if (!g[i]) continue;
    for (const p of PEERS[i]) if (g[p] === g[i]) { bad.add(i); bad.add(p); }
  }
  return bad;
}

// hintView returns what the hint shows at its stage: cells and houses
// lit, candidates coloured, struck and placed, and whether cells without
// marks show their candidates (the step is worked out on them).
function hintView() {
  const v = { houses: new Set(), cells: new Set(), colors: new Map(), elim: new Set(), place: new Map(), ghosts: false, bad: new Set(), extra: new Set() };
  const h = S.hint;
  if (!h) return v;
  const st = h.st;
  if (['mistake', 'clash'].includes(st.technique)) {
    st.cells.forEach((i) => v.bad.add(i));
    // Candidates removed by mistake: shown where they belong.
    for (const m of st.marks) { v.colors.set(m.cell * 10 + m.digit, m.color); v.extra.add(m.cell * 10 + m.digit); }
    v.ghosts = st.marks.length > 0;
    return v;
  }
  if (h.stage >= 2) {
    for (const hs of st.houses) {
      for (let i = 0; i < 81; i++) {
        const [r, c, b] = houseOf(i);
        if ((hs.kind === 'row' && r === hs.index) || (hs.kind === 'column' && c === 9 + hs.index) || (hs.kind === 'box' && b === 18 + hs.index)) v.houses.add(i);
      }
    }
    st.cells.forEach((i) => v.cells.add(i));
    for (const m of st.marks) v.colors.set(m.cell * 10 + m.digit, m.color);
    v.ghosts = st.marks.length > 0 || st.eliminations.length > 0;
  }
  if (h.stage >= 3) {
    for (const m of st.eliminations) v.elim.add(m.cell * 10 + m.digit);
    for (const m of st.placements) v.place.set(m.cell, m.digit);
    for (const m of st.eliminations) v.cells.add(m.cell);
  }
  return v;
}

function render() {
  const clash = clashSet(S.grid);
  const sel = S.sel;
  const selV = S.grid[sel];
  const hv = hintView();
  // The digit whose candidates are lit: the selected cell's, else the
  // one last entered or chosen on the pad.
  const hl = S.mode === 'play' ? selV || S.lastDigit : 0;
  for (let i = 0; i < 81; i++) {
    const c = cells[i];
    const v = S.grid[i];
    const given = S.mode === 'play' && S.puzzle[i] !== 0;
    const txt = v ? String(v) : '';
    const vs = c.firstChild;
    if (vs.textContent !== txt) vs.textContent = txt;
    c.dataset.value = txt;
    const hd = hv.place.has(i) && !v ? String(hv.place.get(i)) : '';
    if (c.children[1].textContent !== hd) c.children[1].textContent = hd;
    // The candidates shown: the player's marks, or, while a hint works on
    // a cell the player has not pencilled, the candidates it starts from.
    let m = v ? 0 : S.marks[i];
    const ghost = !v && !m && hv.ghosts && S.mode === 'play';
    if (ghost) m = allowed(i);
    if (!v) for (let d = 1; d <= 9; d++) if (hv.extra.has(i * 10 + d)) m |= 1 << d;
    if (v || !S.marks[i]) delete c.dataset.marks; else c.dataset.marks = marksToStr(S.marks[i]);
    const cands = c.children[2];
    cands.hidden = !m || hd !== '';
    cands.classList.toggle('ghost', ghost);
    for (let d = 1; d <= 9; d++) {
      const span = cands.children[d - 1];
      const on = (m & (1 << d)) !== 0;
      const t = on ? String(d) : '';
      if (span.textContent !== t) span.textContent = t;
      const k = i * 10 + d;
      let cls = 'm';
      if (on && hv.colors.has(k)) cls += ' c' + hv.colors.get(k);
      else if (on && S.colors[k] !== undefined) cls += ' u' + S.colors[k];
      else if (on && d === hl) cls += ' hl';
      if (on && hv.elim.has(k)) cls += ' elim';
      if (cls !== span.className) span.className = cls;
    }
    const peer = PEERS[sel].includes(i);
    c.className = 'cell' +
      (given ? ' given' : '') +
      (i === sel ? ' sel' : peer ? ' peer' : '') +
      (selV && v === selV && i !== sel ? ' same' : '') +
      (hv.cells.has(i) || hv.place.has(i) ? ' hint-cell' : hv.houses.has(i) ? ' hint-house' : '') +
      (clash.has(i) || hv.bad.has(i) ? ' clash' : '') +
      (S.wrong.has(i) && v ? ' wrong' : '');
    c.tabIndex = i === sel ? 0 : -1;
    let label = t('s.cell', { r: Math.floor(i / 9) + 1, c: (i % 9) + 1 });
    if (v) label += v + (given ? t('s.cell.given') : '') + (clash.has(i) ? t('s.cell.clashes') : '') + (S.wrong.has(i) ? t('s.cell.wrong') : '');
    else label += t('s.cell.empty') + (S.marks[i] ? t('s.cell.cands', { list: marksToStr(S.marks[i]).split('').join(' ') }) : '');
    c.setAttribute('aria-label', label);
  }
  // The pad: a digit whose nine places are all filled (without a clash)
  // is complete.
  const count = new Array(10).fill(0);
  for (let i = 0; i < 81; i++) if (S.grid[i] && !clash.has(i)) count[S.grid[i]]++;
  for (let d = 1; d <= 9; d++) {
    const b = $('pad').children[d - 1];
    const done = S.mode === 'play' && count[d] === 9;
    b.classList.toggle('done', done);
    b.classList.toggle('hl', d === hl && !done);
    b.setAttribute('aria-label', t(done ? 's.pad.done' : 's.pad.digit', { d }));
  }
  $('colour').setAttribute('aria-pressed', String(S.colouring));
  $('undo').disabled = S.undo.length === 0;
  $('redo').disabled = S.redo.length === 0;
  $('pencil').setAttribute('aria-pressed', String(S.pencil));
  $('pause').setAttribute('aria-pressed', String(S.paused));
  $('cover').hidden = !S.paused;
  $('autocands').checked = S.auto;
  document.body.classList.toggle('entering', S.mode === 'enter');
  $('start').hidden = S.mode !== 'enter';
  $('timer').textContent = fmtTime(S.seconds);
  const h = S.hint && S.hint.key === boardKey() && solving(S.hint.st) ? S.hint.stage : 0;
  $('hint').textContent = [t('s.hint.label0'), t('s.hint.label1'), t('s.hint.label2'), t('s.hint.label3')][h];
  drawLinks();
}

// drawLinks draws the links of a chain shown by a hint as lines between
// the very candidates they join (their spans on the board): every branch
// of a forcing chain in a colour of its own, or the branch chosen. A line
// that would run over another candidate bends around it (route).
function drawLinks() {
  const svg = $('overlay');
  const h = S.hint;
  const shown = h && h.stage >= 3 ? linksShown(h).filter(([, l]) => l && l.length) : [];
  if (!shown.length) { if (svg.firstChild) svg.replaceChildren(); return; }
  const box = $('boardbox').getBoundingClientRect();
  svg.setAttribute('viewBox', '0 0 ' + box.width + ' ' + box.height);
  const centers = new Map();
  const center = (cell, digit) => {
    const k = cell * 10 + digit;
    if (!centers.has(k)) {
      const r = cells[cell].children[2].children[digit - 1].getBoundingClientRect();
      centers.set(k, [r.left - box.left + r.width / 2, r.top - box.top + r.height / 2, Math.min(r.width, r.height) / 2]);
    }
    return centers.get(k);
  };
  // The candidates shown, which lines keep off.
  const obstacles = [];
  for (let i = 0; i < 81; i++) {
    const cs = cells[i].children[2];
    if (cs.hidden) continue;
    for (let d = 1; d <= 9; d++) if (cs.children[d - 1].textContent) obstacles.push([i * 10 + d, ...center(i, d)]);
  }
  const parts = [];
  const multi = h.st.branches && h.st.branches.length > 1;
  for (const [k, links] of shown) {
    for (const l of links) {
      const [x1, y1, r1] = center(l.from.cell, l.from.digit);
      const [x2, y2, r2] = center(l.to.cell, l.to.digit);
      const skip = [l.from.cell * 10 + l.from.digit, l.to.cell * 10 + l.to.digit];
      const path = document.createElementNS(SVGNS, 'path');
      path.setAttribute('class', 'link ' + (l.strong ? 'strong' : 'weak') + (multi ? ' b' + (k % 4) : ''));
      path.setAttribute('d', route(x1, y1, r1, x2, y2, r2, obstacles.filter((o) => !skip.includes(o[0]))));
      path.dataset.from = l.from.cell + ':' + l.from.digit;
      path.dataset.to = l.to.cell + ':' + l.to.digit;
      path.dataset.branch = String(k);
      parts.push(path);
    }
  }
  svg.replaceChildren(...parts);
}

// CLEAR is how close to a candidate's centre a line may pass, as a part
// of the candidate's radius: further out it crosses no digit's glyph
// (the browser test measures the same).
const CLEAR = 0.6;

// hitsOf counts the points of a polyline or curve (given as a function
// of t in [0, 1], sampled every pixel or so) that come within CLEAR of a
// candidate's radius of its centre.
function hitsOf(at, len, obstacles) {
  const n = Math.max(8, Math.ceil(len));
  let hits = 0;
  for (let s = 0; s <= n; s++) {
    const [px, py] = at(s / n);
    for (const [, ox, oy, or] of obstacles) if (Math.hypot(px - ox, py - oy) < or * CLEAR) { hits++; break; }
  }
  return hits;
}

// route returns the SVG path of a link from (x1, y1) to (x2, y2), its ends
// on the two candidates' circles: straight when that runs over no other
// candidate, else the least bent curve that does not, else a path around
// them (routeAround).
function route(x1, y1, r1, x2, y2, r2, obstacles) {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const nx = -uy, ny = ux;
  const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
  const near = obstacles.filter(([, ox, oy]) => Math.abs((ox - mx) * ux + (oy - my) * uy) < len / 2 + 20);
  const f = (v) => v.toFixed(1);
  for (const bend of [0, 0.12, -0.12, 0.22, -0.22, 0.32, -0.32, 0.45, -0.45]) {
    const off = bend * len + Math.sign(bend) * 6;
    const cx = mx + nx * off, cy = my + ny * off;
    // Leave the circles towards the control point.
    const a = Math.atan2(cy - y1, cx - x1), b = Math.atan2(cy - y2, cx - x2);
    const sx = x1 + Math.cos(a) * r1, sy = y1 + Math.sin(a) * r1;
    const ex = x2 + Math.cos(b) * r2, ey = y2 + Math.sin(b) * r2;
    const at = (t) => [(1 - t) * (1 - t) * sx + 2 * t * (1 - t) * cx + t * t * ex, (1 - t) * (1 - t) * sy + 2 * t * (1 - t) * cy + t * t * ey];
    if (hitsOf(at, len * (1 + Math.abs(bend)), near)) continue;
    return bend === 0 ? 'M' + f(sx) + ' ' + f(sy) + 'L' + f(ex) + ' ' + f(ey) : 'M' + f(sx) + ' ' + f(sy) + 'Q' + f(cx) + ' ' + f(cy) + ' ' + f(ex) + ' ' + f(ey);
  }
  const pts = routeAround(x1, y1, x2, y2, obstacles);
  // The ends on the circles.
  const trim = (p, q, r) => { const l = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1; return [p[0] + (q[0] - p[0]) / l * r, p[1] + (q[1] - p[1]) / l * r]; };
  pts[0] = trim(pts[0], pts[1], r1);
  pts[pts.length - 1] = trim(pts[pts.length - 1], pts[pts.length - 2], r2);
  return pts.map((p, i) => (i ? 'L' : 'M') + f(p[0]) + ' ' + f(p[1])).join('');
}

// routeAround finds a way from (x1, y1) to (x2, y2) that keeps off the
// candidates: the shortest on a grid of 2 px (A*), then only the corners
// it needs (each leg straight and clear). Without one it is the straight
// line.
function routeAround(x1, y1, x2, y2, obstacles) {
  const box = $('boardbox').getBoundingClientRect();
  const st = 2;
  const nx = Math.ceil(box.width / st) + 1, ny = Math.ceil(box.height / st) + 1;
  const blocked = new Uint8Array(nx * ny);
  for (const [, ox, oy, or] of obstacles) {
    const rr = or * CLEAR + 1;
    for (let j = Math.max(0, Math.floor((oy - rr) / st)); j <= Math.min(ny - 1, Math.ceil((oy + rr) / st)); j++) {
      for (let i = Math.max(0, Math.floor((ox - rr) / st)); i <= Math.min(nx - 1, Math.ceil((ox + rr) / st)); i++) {
        if (Math.hypot(i * st - ox, j * st - oy) < rr) blocked[j * nx + i] = 1;
      }
    }
  }
  const node = (x, y) => Math.min(ny - 1, Math.max(0, Math.round(y / st))) * nx + Math.min(nx - 1, Math.max(0, Math.round(x / st)));
  const s0 = node(x1, y1), g0 = node(x2, y2);
  blocked[s0] = 0;
  blocked[g0] = 0;
  const gx = g0 % nx, gy = Math.floor(g0 / nx);
  const h = (k) => { const dx = Math.abs(k % nx - gx), dy = Math.abs(Math.floor(k / nx) - gy); return Math.max(dx, dy) + 0.4142 * Math.min(dx, dy); };
  const cost = new Float32Array(nx * ny).fill(Infinity);
  const from = new Int32Array(nx * ny).fill(-1);
  // A binary heap of [f, node].
  const heap = [];
  const push = (f, k) => { heap.push([f, k]); let i = heap.length - 1; while (i > 0) { const p = (i - 1) >> 1; if (heap[p][0] <= heap[i][0]) break; [heap[p], heap[i]] = [heap[i], heap[p]]; i = p; } };
  const pop = () => { const top = heap[0], last = heap.pop(); if (heap.length) { heap[0] = last; let i = 0; for (;;) { const l = 2 * i + 1, r = l + 1; let m = i; if (l < heap.length && heap[l][0] < heap[m][0]) m = l; if (r < heap.length && heap[r][0] < heap[m][0]) m = r; if (m === i) break; [heap[m], heap[i]] = [heap[i], heap[m]]; i = m; } } return top; };
  cost[s0] = 0;
  push(h(s0), s0);
  let found = false;
  while (heap.length) {
    const [fk, k] = pop();
    if (k === g0) { found = true; break; }
    if (fk - h(k) > cost[k] + 1e-6) continue;
    const x = k % nx, y = Math.floor(k / nx);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!dx && !dy) continue;
        const x2n = x + dx, y2n = y + dy;
        if (x2n < 0 || y2n < 0 || x2n >= nx || y2n >= ny) continue;
        const k2 = y2n * nx + x2n;
        if (blocked[k2]) continue;
        const c = cost[k] + (dx && dy ? 1.4142 : 1);
        if (c < cost[k2]) { cost[k2] = c; from[k2] = k; push(c + h(k2), k2); }
      }
    }
  }
  if (!found) return [[x1, y1], [x2, y2]];
  const path = [];
  for (let k = g0; k !== -1; k = from[k]) path.push([(k % nx) * st, Math.floor(k / nx) * st]);
  path.reverse();
  path[0] = [x1, y1];
  path[path.length - 1] = [x2, y2];
  // Keep the corners needed: from each point, the farthest one in sight.
  // (Sight on the grid: every pixel of the leg on a free node.)
  const clear = (p, q) => {
    const n = Math.ceil(Math.hypot(q[0] - p[0], q[1] - p[1]));
    for (let s = 1; s < n; s++) if (blocked[node(p[0] + (q[0] - p[0]) * s / n, p[1] + (q[1] - p[1]) * s / n)]) return false;
    return true;
  };
  const out = [path[0]];
  for (let i = 0; i < path.length - 1;) {
    let j = i + 1;
    while (j + 1 < path.length && clear(path[i], path[j + 1])) j++;
    out.push(path[j]);
    i = j;
  }
  return out;
}

// applyTheme sets the page's theme: 'light', 'dark' or 'auto' (the
// system's), read from the browser when not given.
function applyTheme(theme) {
  if (!theme) { try { theme = localStorage.getItem(THEME) || 'auto'; } catch (e) { theme = 'auto'; } }
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  const b = $('theme');
  if (theme !== 'light' && theme !== 'dark') theme = 'auto';
  const icon = { auto: '◐', light: '☀', dark: '☾' }[theme];
  b.replaceChildren(icon, el('span', { class: 'tlabel', text: ' ' + t('s.theme.' + theme) }));
  b.setAttribute('aria-label', t('s.theme.label.' + theme));
}

function select(i, focus) {
  S.sel = i;
  render();
  if (focus) cells[i].focus({ preventScroll: true });
}

// status shows a message with buttons: actions are {id, label, run}.
function status(text, kind, ...actions) {
  const p = $('status');
  p.className = 'status' + (kind ? ' ' + kind : '');
  p.replaceChildren();
  if (typeof text === 'string') p.append(text); else p.append(...text);
  const acts = actions.filter(Boolean);
  if (acts.length) {
    const box = el('span', { class: 'acts' });
    for (const a of acts) {
      const b = el('button', { class: 'btn' + (a.primary ? ' primary' : ''), id: a.id, text: a.label });
      b.addEventListener('click', a.run);
      box.append(b);
    }
    p.append(box);
  }
}

// ---- Changes, undo and redo ----

// apply makes one undoable change: a list of [cell, value, marks]. With
// the candidates kept updated, cells left without candidates get theirs
// in the same change.
function apply(changes, record = true) {
  const list = new Map(changes.map((c) => [c[0], c]));
  if (S.auto && S.mode === 'play') {
    const g = S.grid.slice();
    for (const [i, v] of list.values()) g[i] = v;
    for (let i = 0; i < 81; i++) {
      const cur = list.get(i) || [i, S.grid[i], S.marks[i]];
      if (!g[i] && !cur[2]) list.set(i, [i, 0, allowed(i, g)]);
    }
  }
  const all = [...list.values()];
  const before = all.map(([i]) => [i, S.grid[i], S.marks[i]]);
  for (const [i, v, m] of all) {
    S.grid[i] = v;
    S.marks[i] = m;
    if (S.mode === 'enter') S.puzzle[i] = v;
    S.wrong.delete(i);
  }
  if (record) {
    S.undo.push({ before, after: all.map(([i, v, m]) => [i, v, m]) });
    if (S.undo.length > 2000) S.undo.shift();
    S.redo = [];
  }
  S.hint = null;
  changed();
}

function replay(list) {
  for (const [i, v, m] of list) {
    S.grid[i] = v;
    S.marks[i] = m;
    if (S.mode === 'enter') S.puzzle[i] = v;
  }
  S.hint = null;
  changed();
}

function undo() {
  const a = S.undo.pop();
  if (!a) return;
  S.redo.push(a);
  replay(a.before);
  if (!S.finished) status(t('s.st.undone'), '');
}

function redo() {
  const a = S.redo.pop();
  if (!a) return;
  S.undo.push(a);
  replay(a.after);
  if (!S.finished) status(t('s.st.redone'), '');
}

// placing returns the changes that put digit d in cell i: the digit, and
// d taken out of the peers' candidates.
function placing(i, d, cur) {
  const get = (j) => (cur && cur.get(j)) || [j, S.grid[j], S.marks[j]];
  const ch = [[i, d, 0]];
  for (const p of PEERS[i]) {
    const [, v, m] = get(p);
    if (m & (1 << d)) ch.push([p, v, m & ~(1 << d)]);
  }
  return ch;
}

// input enters digit d (0 erases) in the selected cell, or toggles its
// pencil mark.
function input(d, pencil) {
  if (S.paused) return;
  const i = S.sel;
  if (d) S.lastDigit = d;
  if (S.mode === 'play' && S.puzzle[i]) { status(t('s.st.given', { cell: name(i) }), ''); return; }
  if (S.finished && S.mode === 'play') { status(t('s.st.solvedlocked'), 'good'); return; }
  if (d === 0) {
    if (S.grid[i] || S.marks[i]) apply(S.grid[i] && S.mode === 'play' ? erasing(i) : [[i, 0, 0]]);
    else if (S.mode === 'enter' && i > 0) {
      // Typing a puzzle: Backspace on an empty cell erases the one before.
      select(i - 1, true);
      if (S.grid[i - 1]) apply([[i - 1, 0, 0]]);
    }
    return;
  }
  if (S.colouring && S.mode === 'play') {
    if (S.grid[i] || !((S.marks[i] || allowed(i)) & (1 << d))) { status(t('s.st.nocolour', { cell: name(i), d }), ''); return; }
    const k = i * 10 + d;
    const c = S.colors[k];
    if (c === undefined) S.colors[k] = 0; else if (c === 0) S.colors[k] = 1; else delete S.colors[k];
    autosave();
    render();
    return;
  }
  if ((pencil || S.pencil) && S.mode === 'play') {
    if (S.grid[i]) return;
    apply([[i, 0, S.marks[i] ^ (1 << d)]]);
    return;
  }
  if (S.grid[i] === d) { if (S.mode === 'enter') select((i + 1) % 81, true); return; }
  apply(S.mode === 'play' ? placing(i, d) : [[i, d, 0]]);
  // Typing a puzzle: the cursor moves on, as in a text field.
  if (S.mode === 'enter') select((i + 1) % 81, true);
  const clash = clashSet(S.grid);
  if (clash.has(i)) {
    const other = PEERS[i].find((p) => S.grid[p] === d);
    status(t('s.st.already', { cell: name(i), d, house: where(i, other), other: name(other) }), 'bad');
  }
}

// erasing returns the changes that empty cell i: its digit goes back
// into the candidates of the peers its placing took it from (the undo
// history says which, and only where no other peer holds it now), and the
// cell gets back the candidates it had before. cur holds changes already
// made (several cells erased at once).
function erasing(i, cur) {
  const get = (j) => (cur && cur.get(j)) || [j, S.grid[j], S.marks[j]];
  const d = get(i)[1];
  const ch = [[i, 0, 0]];
  if (!d) return ch;
  let entry = null;
  for (let k = S.undo.length - 1; k >= 0 && !entry; k--) {
    const a = S.undo[k];
    const after = a.after.find((c) => c[0] === i);
    const before = a.before.find((c) => c[0] === i);
    if (after && after[1] === d && before && before[1] !== d) entry = a;
  }
  if (!entry) return ch;
  const before = new Map(entry.before.map((c) => [c[0], c]));
  const after = new Map(entry.after.map((c) => [c[0], c]));
  if (!before.get(i)[1]) ch[0][2] = before.get(i)[2];
  const g = S.grid.slice();
  if (cur) for (const [j, v] of cur.values()) g[j] = v;
  g[i] = 0;
  for (const p of PEERS[i]) {
    const b = before.get(p), a = after.get(p);
    if (!b || !a || !(b[2] & (1 << d)) || (a[2] & (1 << d))) continue;
    const [, v, m] = get(p);
    if (v || !m || (m & (1 << d)) || !(allowed(p, g) & (1 << d))) continue;
    ch.push([p, 0, m | (1 << d)]);
  }
  return ch;
}

// eraseWrong erases the digits a hint found wrong, and what they did to
// their peers' candidates.
function eraseWrong(list) {
  const cur = new Map();
  let back = 0;
  for (const i of list) for (const c of erasing(i, cur)) { if (c[0] !== i) back++; cur.set(c[0], c); }
  apply([...cur.values()]);
  const erased = list.map(name).join(', ');
  status((back ? t(list.length > 1 ? 's.st.erasedbackmany' : 's.st.erasedback', { list: erased, n: back }) : t('s.st.erased', { list: erased })) + t('s.st.presshint'), '');
}

function where(a, b) {
  if (Math.floor(a / 9) === Math.floor(b / 9)) return t('s.house.row', { n: Math.floor(a / 9) + 1 });
  if (a % 9 === b % 9) return t('s.house.column', { n: (a % 9) + 1 });
  return t('s.house.box', { n: Math.floor(a / 27) * 3 + Math.floor((a % 9) / 3) + 1 });
}

// complete reports whether the board is full without a clash: then it is
// a solution of the puzzle (it keeps the givens), the only one of a
// proper puzzle.
const complete = () => S.grid.every((v) => v) && clashSet(S.grid).size === 0;

// changed runs after every change: render, save, and see whether the
// puzzle is solved (or, after an undo, no longer).
function changed() {
  if (S.mode === 'enter') {
    render();
    autosave();
    clearTimeout(validateTimer);
    validateTimer = setTimeout(verdict, 120);
    return;
  }
  const was = S.finished;
  S.finished = complete();
  if (!S.finished) S.assisted = false;
  render();
  autosave();
  if (S.finished && !was) {
    if (S.assisted) status(t('s.st.solvedcomputer'), 'good');
    else status(t('s.st.solvedin', { time: fmtTime(S.seconds) }), 'good');
  }
}

// ---- Candidates ----

// fillCandidates gives every empty cell without candidates the digits
// none of its peers holds; the player's own candidates are kept.
function fillCandidates() {
  if (S.mode !== 'play' || S.paused) return;
  const ch = [];
  for (let i = 0; i < 81; i++) if (!S.grid[i] && !S.marks[i]) ch.push([i, 0, allowed(i)]);
  if (!ch.length) { status(t('s.st.allcands'), ''); return; }
  apply(ch);
  status(t('s.st.filled', { n: ch.length }) + (S.auto ? '' : t('s.st.filledtick')), '');
}

function setAuto(on) {
  S.auto = on;
  saveSettings();
  if (on && S.mode === 'play' && S.grid.some((v, i) => !v && !S.marks[i])) apply([]);
  else render();
}

// candidates are the board's candidates as the hint request carries them.
const candidates = () => S.marks.map((m, i) => (S.grid[i] ? '' : marksToStr(m)));

// ---- Keyboard ----

function onKey(e) {
  const k = e.key;
  if ((e.ctrlKey || e.metaKey) && !e.altKey) {
    if (k === 'z' || k === 'Z') { e.preventDefault(); if (e.shiftKey) redo(); else undo(); }
    else if (k === 'y' || k === 'Y') { e.preventDefault(); redo(); }
    return;
  }
  if (k === 'Escape') { e.preventDefault(); togglePause(); return; }
  if (S.paused) return;
  const r = Math.floor(S.sel / 9), c = S.sel % 9;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[k]) {
    e.preventDefault();
    const [dr, dc] = moves[k];
    select(((r + dr + 9) % 9) * 9 + ((c + dc + 9) % 9), true);
    return;
  }
  const m = /^(?:Digit|Numpad)([0-9])$/.exec(e.code || '');
  const digit = m ? Number(m[1]) : (k >= '0' && k <= '9' ? Number(k) : -1);
  if (digit >= 0) { e.preventDefault(); input(digit, e.shiftKey || e.altKey); return; }
  if (k === 'Backspace' || k === 'Delete' || k === '.') { e.preventDefault(); input(0, false); return; }
  if (k === 'p' || k === 'P') { S.pencil = !S.pencil; render(); return; }
  if (k === 'o' || k === 'O') { $('colour').click(); return; }
  if (k === 'h' || k === 'H') { hint(); return; }
  if (k === 'c' || k === 'C') { fillCandidates(); return; }
  if (k === 'k' || k === 'K') { check(); return; }
}

// ---- Timer, pause and autosave ----

const ticking = () => S.mode === 'play' && !S.finished && !S.paused && !document.hidden && S.puzzle.some((v) => v);

setInterval(() => {
  if (ticking()) {
    S.seconds++;
    $('timer').textContent = fmtTime(S.seconds);
    autosave();
  }
}, 1000);

function togglePause() {
  if (S.mode !== 'play' || S.finished) { S.paused = false; render(); return; }
  S.paused = !S.paused;
  render();
  if (S.paused) status(t('s.st.paused', { time: fmtTime(S.seconds) }), '', { id: 'resume2', label: t('s.btn.resume'), run: togglePause });
  else { status(t('s.st.resumed'), ''); cells[S.sel].focus({ preventScroll: true }); }
}

// autosave keeps the game in the browser: every second (the timer) and
// after every change; the undo history with it when it changed.
let savedHistory = null;
function autosave() {
  try {
    localStorage.setItem(STORE, JSON.stringify({
      puzzle: toStr(S.puzzle), grid: toStr(S.grid), marks: S.marks.map(marksToStr),
      seconds: S.seconds, mode: S.mode, source: S.source, assisted: S.assisted, colors: S.colors,
    }));
    const u = S.undo[S.undo.length - 1], r = S.redo[S.redo.length - 1];
    if (!savedHistory || savedHistory[0] !== u || savedHistory[1] !== r || savedHistory[2] !== S.undo.length + S.redo.length) {
      savedHistory = [u, r, S.undo.length + S.redo.length];
      localStorage.setItem(HISTORY, JSON.stringify({ puzzle: toStr(S.puzzle), undo: S.undo.slice(-KEPT), redo: S.redo.slice(-KEPT) }));
    }
  } catch (e) { /* private mode or full: the game just is not kept */ }
}

function restore() {
  let g;
  try { g = JSON.parse(localStorage.getItem(STORE) || 'null'); } catch (e) { return false; }
  if (!g || typeof g.puzzle !== 'string' || g.puzzle.length !== 81 || typeof g.grid !== 'string' || g.grid.length !== 81) return false;
  S.puzzle = fromStr(g.puzzle);
  S.grid = fromStr(g.grid);
  S.marks = Array.isArray(g.marks) && g.marks.length === 81 ? g.marks.map(marksFromStr) : new Array(81).fill(0);
  S.seconds = Number(g.seconds) || 0;
  S.mode = g.mode === 'enter' ? 'enter' : 'play';
  S.source = g.source || null;
  S.colors = g.colors && typeof g.colors === 'object' ? g.colors : {};
  try {
    const h = JSON.parse(localStorage.getItem(HISTORY) || 'null');
    const ok = (l) => Array.isArray(l) && l.every((a) => a && Array.isArray(a.before) && Array.isArray(a.after));
    if (h && h.puzzle === g.puzzle && ok(h.undo) && ok(h.redo)) { S.undo = h.undo; S.redo = h.redo; }
  } catch (e) { /* no history then */ }
  // Solved or not is the board's, never a flag read back.
  S.finished = S.mode === 'play' && complete();
  S.assisted = S.finished && !!g.assisted;
  showSource();
  return true;
}

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS, JSON.stringify({ level: $('level').value, symmetry: $('symmetry').value, auto: S.auto, format: $('format').value }));
  } catch (e) { /* not kept */ }
}

function restoreSettings() {
  let s;
  try { s = JSON.parse(localStorage.getItem(SETTINGS) || 'null'); } catch (e) { return; }
  if (!s) return;
  const set = (id, v) => { if (v && Array.from($(id).options).some((o) => o.value === v)) $(id).value = v; };
  set('level', s.level);
  set('symmetry', s.symmetry);
  set('format', s.format);
  S.auto = !!s.auto;
}

// ---- Games ----

// inProgress reports whether a game would be lost: digits or candidates
// entered in a puzzle not yet solved, or a puzzle being typed.
function inProgress() {
  if (S.mode === 'enter') return S.grid.some((v) => v);
  if (S.finished) return false;
  return S.grid.some((v, i) => v && !S.puzzle[i]) || S.marks.some((m) => m);
}

// confirmDiscard runs proceed at once when no game would be lost, and
// otherwise asks first.
function confirmDiscard(what, proceed) {
  if (!inProgress()) { proceed(); return; }
  const n = S.grid.filter((v, i) => v && !S.puzzle[i]).length;
  const game = S.mode === 'enter' ? t('s.discard.typing') : t('s.discard.game', { n, time: fmtTime(S.seconds) });
  status(t('s.discard.q', { game, what }), 'bad',
    { id: 'discard', label: t('s.btn.discard'), primary: true, run: proceed },
    { id: 'keep', label: t('s.btn.keep'), run: () => { status(t('s.st.carryon'), ''); cells[S.sel].focus({ preventScroll: true }); } });
  // The question gets the focus (on the choice that loses nothing).
  $('keep').focus();
}

function newGame(puzzle, source, progress, marks, seconds) {
  S.puzzle = fromStr(puzzle);
  S.grid = fromStr(progress || puzzle);
  S.marks = marks ? marks.map(marksFromStr) : new Array(81).fill(0);
  S.seconds = seconds || 0;
  S.mode = 'play';
  S.undo = [];
  S.redo = [];
  S.source = source;
  S.solution = null;
  S.wrong = new Set();
  S.hint = null;
  S.paused = false;
  S.assisted = false;
  S.colors = {};
  S.finished = complete();
  if (S.auto) for (let i = 0; i < 81; i++) if (!S.grid[i] && !S.marks[i]) S.marks[i] = allowed(i);
  showSource();
  const first = S.grid.findIndex((v) => !v);
  select(first >= 0 ? first : 0, false);
  autosave();
  markContent();
}

function showSource() {
  const s = S.source;
  if (s && s.seed) {
    $('source').textContent = levelWords(s.level) + scoreWords(s) + ' · ' + t('s.src.seed', { seed: s.seed }) + (s.index ? ' #' + s.index : '') +
      (s.symmetry && s.symmetry !== 'none' ? ' · ' + symWords(s) : '');
    const cmd = s.command || 'sudoku generate --difficulty ' + s.level + ' --seed ' + s.seed + (s.index ? ' --first ' + s.index : '') +
      (s.symmetry && s.symmetry !== 'none' ? ' --symmetry ' + s.symmetry : '');
    $('share').replaceChildren(t('s.share'), el('a', { href: shareURL(s), text: t('s.share.link') }), t('s.share.or'), el('code', { class: 'cmd', text: cmd }));
  } else {
    $('source').textContent = s && s.level ? t('s.src.yours') + ' · ' + levelWords(s.level) + scoreWords(s) : t(S.mode === 'enter' ? 's.src.typing' : 's.src.yours');
    $('share').textContent = '\u00a0';
  }
}

// scoreWords writes a puzzle's score after its level (" 8.3"), the
// language's way.
const scoreWords = (s) => (s.score ? ' ' + s.score.toLocaleString(I18N.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) : '');

// SYMMETRY are the symmetries the catalogue names (s.sym.NAME), as the
// menu does.
const SYMMETRY = new Set(['rot180', 'rot90', 'mirror', 'diagonal', 'none']);

// symWords says a puzzle's symmetry: "half turn", or "half turn (drawn
// at random)" for the one a random symmetry drew.
// levelWords names a level ("singles") in the page's language.
const levelWords = (level) => (['singles', 'hidden', 'intermediate', 'hard'].includes(level) ? t('s.lv.' + level) : level);

function symWords(s) {
  if (s.symmetry === 'random') return s.drawn && SYMMETRY.has(s.drawn) ? t('s.st.symdrawn', { sym: t('s.sym.' + s.drawn) }) : t('s.sym.random');
  return SYMMETRY.has(s.symmetry) ? t('s.sym.' + s.symmetry) : s.symmetry;
}

function shareURL(s) {
  const q = new URLSearchParams({ level: s.level, seed: s.seed });
  if (s.index) q.set('index', s.index);
  if (s.symmetry && s.symmetry !== 'none') q.set('symmetry', s.symmetry);
  return '/sudoku?' + q.toString();
}

function requestPuzzle(level, seed, index, symmetry) {
  return api('/api/sudoku/generate', { difficulty: level, seed: seed || '', index: index || 0, symmetry: symmetry || 'none' });
}

// generate shows a new puzzle; pending is the request when it was made
// already (at start, before the board was built).
async function generate(level, seed, index, symmetry, pending) {
  status(t('s.st.making', { level: levelWords(level) }), '');
  try {
    const g = await (pending || requestPuzzle(level, seed, index, symmetry));
    const src = { seed: g.seed, level: g.level, score: g.score, symmetry: g.symmetry, drawn: g.drawn, index: g.index, command: g.command };
    newGame(g.puzzle, src);
    $('seed').value = '';
    $('level').value = g.level;
    const sym = g.symmetry && g.symmetry !== 'none' ? t('s.st.sym', { sym: symWords(src) }) : '';
    status(t('s.st.newpuzzle', { level: levelWords(g.level), score: g.score.toLocaleString(I18N.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }), n: g.clues, sym }), '');
  } catch (e) {
    status(e.message, 'bad');
  }
}

// solution returns the puzzle's verdict and a solution: the one of a
// proper puzzle, one of several (the first found), or none.
async function solution() {
  if (S.solution) return S.solution;
  try {
    const r = await api('/api/sudoku/solve', { grid: toStr(S.puzzle) });
    S.solution = { verdict: r.verdict, solution: r.solution || '', message: r.message };
  } catch (e) {
    status(e.message, 'bad');
    return null;
  }
  return S.solution;
}

const solving = (st) => !['mistake', 'clash', 'solved', 'none'].includes(st.technique);
const boardKey = () => toStr(S.grid) + S.marks.join(',');

// techPhrase names a technique the way a sentence does ("an X-Wing").
// Plural names ("Cell Forcing Chains", "3 Strong Links") take no article.
const plural3 = (name) => /Chains|Links|Skyscrapers/.test(name);
const techPhrase = (name) => (plural3(name) ? '' : /^(?:[AEIO]|X-|XY|8)/.test(name) ? 'an ' : 'a ') + name;
// techWords is a technique's name in a sentence: with its article in
// English; as it is in the languages without one.
const techWords = (name, gloss) => (I18N.lang === 'en' ? techPhrase(name) : techName(name, gloss));

// techName is a technique's name in the page's language where the
// catalogue has it (s.tn.NAME, sudokupage.TechniqueKey), else, in
// another language than English, the name of its glossary entry (gloss,
// the hint's glossary key: a family's name, "Forcing Chain" for a
// "Dynamic Forcing Chain(+)"), else as the engine's players call it.
function techName(name, gloss) {
  const key = 's.tn.' + name.toLowerCase().replace(/ /g, '-');
  if (key in I18N.msgs || key in I18N.en) return t(key);
  return I18N.lang !== 'en' && gloss ? t('s.gl.' + gloss) : name;
}

// listOf joins a list the language's way ("3, 5 and 8", "3 or 5"):
// English as the engine writes it, without the serial comma.
function listOf(items, or) {
  const strs = items.map(String);
  try {
    return new Intl.ListFormat(I18N.lang === 'en' ? 'en-GB' : I18N.lang, { type: or ? 'disjunction' : 'conjunction' }).format(strs);
  } catch (e) {
    return strs.join(', ');
  }
}

// argWords says a value of a hint's message (logic.Arg) in the page's
// language.
function argWords(a, gloss, digit) {
  switch (a.kind) {
    case 'cell': return name(a.cells[0]);
    case 'cells': return a.or || a.and ? listOf(a.cells.map(name), a.or) : a.cells.map(name).join(', ');
    case 'digit': return String(a.digits[0]);
    case 'digits': return listOf(a.digits, a.or);
    case 'house': return houseName(a.houses[0]);
    case 'houses': return t('s.houses.' + a.houses[0].kind, { list: listOf(a.houses.map((h) => h.index + 1), false) });
    case 'technique': return techName(a.text, gloss);
    case 'cannot': return cannotWords(a.moves);
    case 'placed': return t('s.step.is', { cell: name(a.cells[0]), digit: String(a.digits[0]) });
    case 'node': return nodeWords(a.chains[0].nodes[0]);
    case 'chain': return chainWords(a.chains[0], true);
    case 'chains': return a.chains.map((c) => chainWords(c, true)).join('; ');
    case 'message': return msgWords(a.message, gloss);
    case 'moves': return a.moves.map((m) => t('s.ans.candidate', { digit: String(m.digit), cell: name(m.cell) })).join(', ');
    case 'cellcands': {
      const parts = [];
      for (let i = 0; i < a.moves.length;) {
        let j = i;
        const ds = [];
        for (; j < a.moves.length && a.moves[j].cell === a.moves[i].cell; j++) ds.push(a.moves[j].digit);
        parts.push(name(a.moves[i].cell) + ' (' + listOf(ds, true) + ')');
        i = j;
      }
      return parts.join(', ');
    }
    case 'candidates': return a.moves.map((m) => t('s.ans.candidate', { digit: String(m.digit), cell: name(m.cell) })).join(', ');
    case 'links': return linksWords(a.links, digit);
  }
  return '';
}

// placeWords names a place of a strong link: a cell, or a group as
// "(r1c2, r1c3)".
const placeWords = (cs) => (cs.length === 1 ? name(cs[0]) : '(' + cs.map(name).join(', ') + ')');

// linksWords says a chain of strong links of digit as the places it can
// go: "1 is in r7c9 or r7c2 (the only places in row 7); r7c2 sees r9c1,
// and 1 is in ...".
function linksWords(links, digit) {
  return links.map((l, i) => {
    const link = t('s.step.link', { digit, a: placeWords(l.from), b: placeWords(l.to), house: houseName(l.house) });
    return i === 0 ? link : t('s.step.link-sees', { prev: placeWords(links[i - 1].to), next: placeWords(l.from), link });
  }).join('; ');
}

// nodeWords says a chain's candidate: "r5c4 is 1", "r5c4 cannot be 7".
const nodeWords = (n) => t(n.on ? 's.step.is' : 's.step.isnot', { cell: name(n.cell), digit: String(n.digit) });

// chainWords says a chain as a sentence: "if r5c4 is 1, then r5c4
// cannot be 7, so ..." (withIf), or its candidates as consequences
// ("r5c4 is 1, so r5c4 cannot be 7, so ..."); with a note of the
// removals nested techniques prove.
function chainWords(c, withIf) {
  const ws = c.nodes.map(nodeWords);
  const so = (xs) => xs.reduce((a, b) => t('s.step.so', { a, b }));
  let s = withIf && ws.length > 1 ? t('s.step.if', { first: ws[0], rest: so(ws.slice(1)) }) : so(ws);
  if (c.nested) s = t('s.step.nested', { chain: s, n: c.nested });
  return s;
}

// chainsOf returns a hint's chains of two or more candidates, in the
// order of its sentence: its branches.
const chainsOf = (m) => m.args.flatMap((a) => (a.kind === 'chain' || a.kind === 'chains' ? a.chains : [])).filter((c) => c.nodes.length > 1);

// branchWords says branch k of a hint's chain in the page's language.
function branchWords(st, k) {
  if (!st.message) return st.branch_words[k];
  const cs = chainsOf(st.message);
  return k < cs.length ? chainWords({ nodes: cs[k].nodes }, true) : st.branch_words[k];
}

// cannotWords says which candidates go, as the engine does: the cells of
// one digit together, else cell by cell.
function cannotWords(moves) {
  const ms = moves.slice().sort((x, y) => x.cell - y.cell || x.digit - y.digit);
  if (ms.every((m) => m.digit === ms[0].digit)) {
    return t('s.step.cannot', { cells: ms.map((m) => name(m.cell)).join(', '), digit: String(ms[0].digit), n: ms.length });
  }
  const parts = [];
  for (let i = 0; i < ms.length;) {
    let j = i;
    const ds = [];
    for (; j < ms.length && ms[j].cell === ms[i].cell; j++) ds.push(ms[j].digit);
    parts.push(t('s.step.cannot-cell', { cell: name(ms[i].cell), digits: listOf(ds, true) }));
    i = j;
  }
  return parts.join(', ');
}

// msgValues says the values of a message (logic.Message); a chain of
// strong links names the message's digit.
function msgValues(m, gloss) {
  const d = m.args.find((a) => a.name === 'digit');
  const vals = {};
  for (const a of m.args) vals[a.name] = argWords(a, gloss, d ? String(d.digits[0]) : '');
  return vals;
}

// msgWords says a message (a clause of a hint's sentence).
const msgWords = (m, gloss) => t(m.key, msgValues(m, gloss));

// stepWords is a hint's sentence in the page's language: its message
// from the catalogue, else (a step the engine has no message for yet)
// the engine's sentence in words.
function stepWords(st) {
  if (!st.message) return st.words || st.text;
  const m = st.message;
  const vals = msgValues(m, st.glossary);
  // A sentence that opens with the technique's name opens with a capital.
  if (vals.technique && t(m.key).startsWith('{technique}')) vals.technique = vals.technique.charAt(0).toLocaleUpperCase(I18N.lang) + vals.technique.slice(1);
  if (m.key === 's.step.chain-contradiction') {
    // "both r1c2 is 4, so ... and ...": the chains from the assumption
    // named before them, as consequences.
    for (const a of m.args) if (a.kind === 'chain') vals[a.name] = chainWords(a.chains[0], false);
  }
  if (m.key === 's.step.chain') {
    // "..., so r2c3 cannot be 4, so r2c3 cannot be 4": the conclusion
    // once.
    const c = m.args.find((a) => a.kind === 'chain').chains[0];
    const concl = m.args.find((a) => a.name === 'concl');
    const last = c.nodes[c.nodes.length - 1];
    const same = concl.kind === 'placed' ? last.on && concl.cells[0] === last.cell && concl.digits[0] === last.digit
      : concl.moves.length === 1 && !last.on && concl.moves[0].cell === last.cell && concl.moves[0].digit === last.digit;
    if (same && c.nodes.length > 2 && !c.nested) vals.chain = chainWords({ nodes: c.nodes.slice(0, -1) }, true);
  }
  return t(m.key, vals);
}

// The glossary: one entry per family of techniques, keyed as the hint's
// glossary field (sudokupage's glossaryKeys), in the glossary's order; the
// catalogue has each entry's name (s.gl.KEY) and text (s.gl.KEY.text).
const GLOSSARY = [
  'full-house', 'hidden-single', 'naked-single', 'direct', 'pointing',
  'claiming', 'naked-subset', 'hidden-subset', 'fish', 'skyscraper', 'kite',
  'turbot-fish', 'strong-links', 'x-loop', 'coloring', 'xy-wing', 'xyz-wing',
  'big-wing', 'unique-rectangle', 'bug', 'aligned-exclusion',
  'forcing-chain', 'cycle', 'cell-forcing', 'region-forcing',
  'contradiction', 'double-forcing', 'dynamic', 'nested', 'guess',
];

// buildExtras adds what the page's HTML leaves to the script: the theme
// switch in the header, Colour beside Pencil, and the glossary panel.
function buildExtras() {
  const nav = document.querySelector('.top nav');
  const box = el('div', { class: 'topright' });
  nav.replaceWith(box);
  box.append(el('button', { class: 'btn icon theme', id: 'theme', title: t('s.theme.title') }), nav);
  $('pencil').after(el('button', { class: 'btn', id: 'colour', 'aria-pressed': 'false', title: t('s.colour.title'), text: t('s.colour.btn') }));
  const gloss = el('details', { class: 'panel glossary', id: 'glossary' },
    el('summary', {}, el('h2', { id: 'h-gloss', text: t('s.gl.title') })),
    el('p', { class: 'small muted', text: t('s.gl.intro') }),
    el('dl', { id: 'glosslist' }));
  document.querySelector('section[aria-labelledby="h-file"]').before(gloss);
}

function buildGlossary() {
  const dl = $('glosslist');
  for (const key of GLOSSARY) {
    dl.append(el('dt', { id: 'g-' + key, tabindex: '-1', text: t('s.gl.' + key) }), el('dd', { text: t('s.gl.' + key + '.text') }));
  }
}

// showGlossary opens the glossary at an entry.
function showGlossary(key) {
  const d = $('glossary');
  d.open = true;
  const dt = $('g-' + key);
  if (!dt) return;
  for (const x of d.querySelectorAll('.lit')) x.classList.remove('lit');
  dt.classList.add('lit');
  dt.nextElementSibling.classList.add('lit');
  dt.scrollIntoView({ block: 'center' });
  dt.focus({ preventScroll: true });
}

// hint asks for the next step, or, pressed again on the same board, goes
// from the technique to where it is, to the move, to applying it.
async function hint() {
  if (S.mode !== 'play') { status(t('s.st.startfirst'), ''); return; }
  if (S.paused) { pausedSay('a hint'); return; }
  const key = boardKey();
  if (S.hint && S.hint.key === key && solving(S.hint.st)) {
    if (S.hint.stage < 3) { S.hint.stage++; showHint(); } else applyHint(S.hint.st);
    return;
  }
  try {
    const st = await api('/api/sudoku/hint', { puzzle: toStr(S.puzzle), grid: toStr(S.grid), candidates: candidates() });
    if (boardKey() !== key) return; // the board changed meanwhile
    S.hint = { st, stage: solving(st) ? 1 : 3, key, branch: -1 };
    if (st.technique === 'mistake') st.cells.forEach((i) => { if (S.grid[i]) S.wrong.add(i); });
    showHint();
  } catch (e) {
    status(e.message, 'bad');
  }
}

// pausedSay tells why a button does nothing while the clock is paused.
function pausedSay(what) {
  status(t('s.st.pausedask', { what }), '', { id: 'resume2', label: t('s.btn.resume'), run: togglePause });
}

// glossLink is the hint's link to its technique's glossary entry.
function glossLink(st) {
  if (!st.glossary) return null;
  const a = el('a', { href: '#g-' + st.glossary, class: 'gloss', text: t(plural3(st.name) ? 's.hint.whatare' : 's.hint.whatis', { tech: techWords(st.name, st.glossary) }) });
  a.addEventListener('click', (e) => { e.preventDefault(); showGlossary(st.glossary); });
  return a;
}

// linksShown are the chain links the hint draws: every branch of a
// forcing chain, or the one chosen; [branch, links] pairs.
function linksShown(h) {
  const bs = h.st.branches && h.st.branches.length > 1 ? h.st.branches : [h.st.links];
  return bs.map((l, k) => [k, l]).filter(([k]) => h.branch < 0 || h.branch === k);
}

function showHint() {
  const h = S.hint;
  const st = h.st;
  render();
  const next = (label) => ({ id: 'hintnext', label, run: hint });
  if (!solving(st)) {
    const kind = { mistake: 'bad', clash: 'bad', solved: 'good' }[st.technique] || '';
    const acts = [];
    if (st.technique === 'mistake' && st.marks.length) acts.push({ id: 'apply', label: t('s.btn.putback'), primary: true, run: () => putBack(st) });
    else if (st.technique === 'mistake' && st.cells.some((i) => S.grid[i] && !S.puzzle[i])) acts.push({ id: 'apply', label: t('s.btn.erasethem'), primary: true, run: () => eraseWrong(st.cells.filter((i) => S.grid[i] && !S.puzzle[i])) });
    status(stepWords(st), kind, ...acts);
  } else if (h.stage === 1) {
    const what = st.technique === 'guess'
      ? t('s.hint.guess')
      : t('s.hint.lookfor', { tech: techWords(st.name, st.glossary), score: st.score.toLocaleString(I18N.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
    status([el('span', { class: 'stage', text: t('s.hint.stage', { k: 1 }) }), what, glossLink(st) || ''], 'hint', next(t('s.hint.btn.where')));
  } else if (h.stage === 2) {
    let w;
    if (st.houses.length) w = t('s.hint.lookin', { where: st.houses.map(houseName).join(', ') });
    else if (st.cells.length) w = t('s.hint.lookat', { where: st.cells.slice(0, 6).map(name).join(', ') + (st.cells.length > 6 ? '…' : '') });
    else w = t('s.hint.lookhl');
    status([el('span', { class: 'stage', text: t('s.hint.stage', { k: 2 }) }), t(st.marks.length ? 's.hint.wherecol' : 's.hint.where', { where: w })], 'hint', next(t('s.hint.btn.move')));
  } else {
    const parts = [el('span', { class: 'stage', text: t('s.hint.stage', { k: 3 }) }), el('span', { class: 'steptext', text: stepWords(st) })];
    const bs = st.branches || [];
    if (bs.length > 1) {
      // Every branch drawn at once, or one at a time.
      const pick = el('span', { class: 'branches', role: 'group', 'aria-label': t('s.hint.branches') });
      const opts = [[-1, t('s.hint.allbranches', { n: bs.length })]].concat(bs.map((_, k) => [k, t('s.hint.branch', { k: k + 1 })]));
      for (const [k, label] of opts) {
        const b = el('button', { class: 'btn' + (k >= 0 ? ' br b' + (k % 4) : ''), id: k < 0 ? 'branch-all' : 'branch-' + k, 'aria-pressed': String(h.branch === k), text: label });
        b.addEventListener('click', () => { h.branch = k; showHint(); $(b.id).focus(); });
        pick.append(b);
      }
      parts.push(' ', pick);
      if (h.branch >= 0 && st.branch_words) parts.push(el('span', { class: 'branchtext b' + (h.branch % 4), text: t('s.hint.branchtext', { k: h.branch + 1, words: branchWords(st, h.branch) }) }));
    }
    status(parts, 'hint', { id: 'apply', label: t('s.btn.apply'), primary: true, run: () => applyHint(st) });
  }
  // On a phone the explanation sits under the pad: keep it on screen.
  $('status').scrollIntoView({ block: 'nearest' });
}

// applyHint places the step's digits and takes its eliminated candidates
// out of the candidates. An elimination needs candidates to work on: cells
// the player has not pencilled get theirs first, so that the next hint
// starts from the board the step left.
function applyHint(st) {
  const ch = new Map();
  const cur = (i) => ch.get(i) || [i, S.grid[i], S.marks[i]];
  let filled = 0;
  if (st.eliminations.length) {
    for (let i = 0; i < 81; i++) if (!S.grid[i] && !S.marks[i]) { ch.set(i, [i, 0, allowed(i)]); filled++; }
  }
  for (const m of st.placements) for (const c of placing(m.cell, m.digit, ch)) ch.set(c[0], c);
  let removed = 0;
  for (const m of st.eliminations) {
    const c = cur(m.cell);
    if (c[1]) continue;
    if (c[2] & (1 << m.digit)) removed++;
    ch.set(m.cell, [m.cell, 0, c[2] & ~(1 << m.digit)]);
  }
  const list = [...ch.values()].filter(([i, v, mk]) => v !== S.grid[i] || mk !== S.marks[i]);
  if (list.length) apply(list);
  if (S.finished) return;
  const parts = [];
  if (st.placements.length) parts.push(t('s.applied.placed', { list: st.placements.map((m) => name(m.cell) + ' = ' + m.digit).join(', ') }));
  if (removed) parts.push(t('s.applied.removed', { n: removed }));
  let what = parts.length === 2 ? t('s.and', { a: parts[0], b: parts[1] }) : parts[0] || t('s.applied.nothing');
  what = what[0].toLocaleUpperCase(I18N.lang) + what.slice(1);
  status(t('s.applied', { what, filled: filled ? t('s.applied.filled', { n: filled }) : '' }), '');
  if (st.placements.length) select(st.placements[0].cell, true);
}

// putBack restores candidates removed by mistake (a hint's marks).
function putBack(st) {
  const ch = new Map();
  for (const m of st.marks) {
    const c = ch.get(m.cell) || [m.cell, 0, S.marks[m.cell]];
    c[2] |= 1 << m.digit;
    ch.set(m.cell, c);
  }
  apply([...ch.values()]);
  status(t('s.putback', { list: st.marks.map((m) => t('s.digitin', { d: m.digit, cell: name(m.cell) })).join(', ') }), '');
}

async function check() {
  if (S.mode !== 'play') { status(t('s.st.nocheck'), ''); return; }
  const s = await solution();
  if (!s) return;
  if (s.verdict === 'several') {
    // No one solution to compare with: say whether the digits still lead
    // to one.
    try {
      const v = await api('/api/sudoku/validate', { grid: toStr(S.grid) });
      if (v.verdict === 'none') status(t('s.st.leadsnone'), 'bad');
      else status(t(v.verdict === 'unique' ? 's.st.leadsone' : 's.st.leadssome'), 'good');
    } catch (e) { status(e.message, 'bad'); }
    return;
  }
  if (s.verdict !== 'unique') { status(s.message, 'bad'); return; }
  const sol = fromStr(s.solution);
  S.wrong = new Set();
  let empty = 0, lost = 0;
  for (let i = 0; i < 81; i++) {
    if (!S.grid[i]) { empty++; if (S.marks[i] && !(S.marks[i] & (1 << sol[i]))) lost++; }
    else if (S.grid[i] !== sol[i]) S.wrong.add(i);
  }
  S.hint = null;
  render();
  const lostText = lost ? t('s.st.lost', { n: lost }) : '';
  if (S.wrong.size) status(t('s.st.wrong', { n: S.wrong.size }) + lostText, 'bad');
  else if (empty) status(t('s.st.nomistakes') + ' ' + t('s.st.togo', { n: empty }) + lostText, lost ? 'bad' : 'good');
  else status(t('s.st.allright'), 'good');
}

async function solveAll() {
  if (S.mode === 'enter') { await startPlaying(); if (S.mode !== 'play') return; }
  if (S.paused) { pausedSay('the solution'); return; }
  const s = await solution();
  if (!s) return;
  let sol = s.solution;
  if (s.verdict === 'several') {
    // One of the solutions, the one the digits entered lead to if any.
    try {
      const r = await api('/api/sudoku/solve', { grid: toStr(S.grid) });
      if (r.solution) sol = r.solution;
    } catch (e) { /* the puzzle's first solution then */ }
  }
  if (!sol) { status(s.message, 'bad'); return; }
  const g = fromStr(sol);
  const ch = [];
  for (let i = 0; i < 81; i++) if (S.grid[i] !== g[i] || S.marks[i]) ch.push([i, g[i], 0]);
  S.assisted = true;
  if (ch.length) apply(ch);
  S.assisted = S.finished;
  render();
  autosave();
  status(t(s.verdict === 'several' ? 's.st.solvedone' : 's.st.solvedcomputer'), 'good');
}

function restart() {
  if (S.mode !== 'play') return;
  const ch = [];
  for (let i = 0; i < 81; i++) if ((!S.puzzle[i] && S.grid[i]) || S.marks[i]) ch.push([i, S.puzzle[i], 0]);
  S.paused = false;
  if (ch.length) apply(ch);
  render();
  status(t('s.st.back'), '');
}

// ---- Typing in a puzzle ----

function enterMode() {
  S.mode = 'enter';
  S.puzzle = new Array(81).fill(0);
  S.grid = new Array(81).fill(0);
  S.marks = new Array(81).fill(0);
  S.undo = [];
  S.redo = [];
  S.source = null;
  S.solution = null;
  S.wrong = new Set();
  S.hint = null;
  S.finished = false;
  S.assisted = false;
  S.paused = false;
  S.seconds = 0;
  S.colors = {};
  showSource();
  select(0, true);
  autosave();
  status(t('s.st.typegivens'), '');
}

let verdictSeq = 0;
async function verdict() {
  const seq = ++verdictSeq;
  try {
    const v = await api('/api/sudoku/validate', { grid: toStr(S.grid) });
    if (seq !== verdictSeq || S.mode !== 'enter') return;
    const kind = v.verdict === 'unique' ? 'good' : v.verdict === 'none' ? 'bad' : '';
    status(plural(v.clues, 'clue') + '. ' + v.message, kind);
  } catch (e) {
    status(e.message, 'bad');
  }
}

// rating rates a puzzle with exactly one solution; null if it cannot.
async function rating(puzzle) {
  try { return await api('/api/sudoku/rate', { grid: puzzle }); } catch (e) { return null; }
}

// ratingWords says a rating (the rate answer) as its text does: "hard,
// score 8.3: 52 steps, using Hidden Single, ...", the techniques by the
// names the catalogue has.
function ratingWords(r) {
  return t('s.st.rating', {
    level: levelWords(r.level), score: scoreWords(r).trim(), n: r.steps,
    techs: r.techniques.map((x) => techName(x.name.replace(/\s\d{3,}$/, ''), '')).join(', '),
  });
}

async function startPlaying() {
  try {
    const v = await api('/api/sudoku/validate', { grid: toStr(S.grid) });
    if (v.verdict === 'none') { status(t('s.st.cannotstart', { why: v.message }), 'bad'); return; }
    const r = v.verdict === 'unique' ? await rating(toStr(S.grid)) : null;
    newGame(toStr(S.grid), r ? { level: r.level, score: r.score } : null);
    status(v.verdict === 'unique'
      ? (r ? t('s.st.yoursrated', { rating: ratingWords(r) }) : t('s.st.yoursone'))
      : t('s.st.yoursseveral'), v.verdict === 'unique' ? 'good' : '');
  } catch (e) {
    status(e.message, 'bad');
  }
}

// ---- Pasting, loading and saving ----

async function loadText(text, what) {
  let g;
  try {
    g = await api('/api/sudoku/parse', { text });
  } catch (e) {
    status(what + ': ' + e.message, 'bad');
    return;
  }
  if (g.verdict === 'none' && !g.progress) {
    // Show it for fixing, as if typed.
    enterMode();
    S.puzzle = fromStr(g.puzzle);
    S.grid = fromStr(g.puzzle);
    render();
    autosave();
    status(what + ': ' + g.message + ' Fix it on the board, then Start playing.', 'bad');
    return;
  }
  let src = g.seed ? { seed: g.seed, level: g.level, symmetry: g.symmetry || 'none', index: g.index || 0 } : g.level ? { level: g.level } : null;
  let rated = '';
  if (!src && g.verdict === 'unique') {
    const r = await rating(g.puzzle);
    if (r) { src = { level: r.level, score: r.score }; rated = ' ' + r.text[0].toUpperCase() + r.text.slice(1) + '.'; }
  }
  newGame(g.puzzle, src, g.progress, g.marks, g.seconds);
  const more = g.puzzles > 1 ? ' (the first of ' + g.puzzles.toLocaleString('en') + ' puzzles)' : '';
  status(what + more + ': ' + plural(g.clues, 'clue') + '. ' + g.message + rated, g.verdict === 'unique' ? 'good' : '');
}

async function save() {
  if (S.mode !== 'play') { status(t('s.st.savefirst'), ''); return; }
  const s = S.source || {};
  const body = {
    puzzle: toStr(S.puzzle), progress: toStr(S.grid), seconds: S.seconds, format: $('format').value,
    seed: s.seed || '', level: s.level || '', index: s.seed ? s.index || 0 : 0,
    symmetry: s.seed && s.symmetry ? s.symmetry : '',
  };
  if (S.marks.some((m) => m)) body.marks = S.marks.map(marksToStr);
  try {
    const f = await api('/api/sudoku/save', body);
    const url = URL.createObjectURL(new Blob([f.text], { type: 'text/plain' }));
    const a = el('a', { href: url, download: f.filename });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    status(t('s.st.saved', { file: f.filename }), 'good');
  } catch (e) {
    status(e.message, 'bad');
  }
}

// ---- Start ----

async function init() {
  // The puzzle to show first is asked for before anything else, so that
  // the request runs while the catalogue loads and the board is built.
  restoreSettings();
  const q = new URLSearchParams(location.search);
  const shared = q.get('seed');
  let pending = null, first = null;
  if (shared && /^\d+$/.test(shared)) {
    const level = q.get('level') || 'hard';
    const index = Number(q.get('index')) || 0;
    const sym = q.get('symmetry') || 'none';
    const same = restore() && S.source && S.source.seed === shared && S.source.level === level && (S.source.index || 0) === index && (S.source.symmetry || 'none') === sym;
    if (same) first = 's.st.welcome';
    else pending = [level, shared, index, sym, requestPuzzle(level, shared, index, sym)];
  } else if (restore()) {
    first = S.mode === 'enter' ? 's.st.goontyping' : S.finished ? 's.st.solvednew' : 's.st.welcome';
  } else {
    const level = $('level').value;
    pending = [level, '', 0, $('symmetry').value, requestPuzzle(level, '', 0, $('symmetry').value)];
  }
  pending && pending[4].catch(() => {}); // handled in generate

  await i18nReady; // the page's words, in its language
  buildExtras();
  buildBoard();
  buildGlossary();
  showSource(); // in the catalogue's words: a game restored showed it before
  applyTheme();
  $('theme').addEventListener('click', () => {
    const order = ['auto', 'light', 'dark'];
    let t = 'auto';
    try { t = localStorage.getItem(THEME) || 'auto'; } catch (e) { /* auto */ }
    t = order[(order.indexOf(t) + 1) % order.length];
    try { localStorage.setItem(THEME, t); } catch (e) { /* for this page only */ }
    applyTheme(t);
  });
  $('colour').addEventListener('click', () => { S.colouring = !S.colouring; render(); status(t(S.colouring ? 's.st.colouron' : 's.st.colouroff'), ''); });
  window.addEventListener('pagehide', autosave);
  $('new').addEventListener('click', () => confirmDiscard(t('s.discard.new'), () => generate($('level').value, $('seed').value.trim(), 0, $('symmetry').value)));
  $('pencil').addEventListener('click', () => { S.pencil = !S.pencil; render(); });
  $('erase').addEventListener('click', () => input(0, false));
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('fill').addEventListener('click', fillCandidates);
  $('autocands').addEventListener('change', (e) => setAuto(e.target.checked));
  $('hint').addEventListener('click', hint);
  $('check').addEventListener('click', check);
  $('solve').addEventListener('click', solveAll);
  $('restart').addEventListener('click', restart);
  $('pause').addEventListener('click', togglePause);
  $('resume').addEventListener('click', togglePause);
  $('enter').addEventListener('click', () => confirmDiscard(t('s.discard.enter'), enterMode));
  $('start').addEventListener('click', startPlaying);
  const usePaste = () => confirmDiscard(t('s.discard.paste'), () => loadText($('paste').value, 'Pasted puzzle'));
  $('usepaste').addEventListener('click', usePaste);
  $('paste').addEventListener('paste', () => setTimeout(usePaste, 0));
  $('save').addEventListener('click', save);
  for (const id of ['level', 'symmetry', 'format']) $(id).addEventListener('change', saveSettings);
  $('load').addEventListener('change', async (e) => {
    const f = e.target.files && e.target.files[0];
    if (!f) return;
    if (f.size > 60000) { status(t('s.st.toolarge', { file: f.name }), 'bad'); return; }
    const text = await f.text();
    e.target.value = '';
    confirmDiscard(t('s.discard.file', { file: f.name }), () => loadText(text, f.name));
  });
  document.addEventListener('keydown', (e) => {
    // Keys typed anywhere but in a text field go to the board (the board
    // handles its own).
    const t = e.target;
    if (t.closest('#board') || t.matches('input, textarea, select')) return;
    if (t.matches('button') && (e.key === 'Enter' || e.key === ' ')) return;
    onKey(e);
  });

  render();
  markReady();
  if (pending) {
    generate(...pending);
  } else {
    markContent();
    status(t(first), S.finished ? 'good' : '');
    if (S.mode === 'enter') verdict();
  }
}

init();
