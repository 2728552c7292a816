// queens.js: the n-queens lesson. The textbook search (lesson.js) played
// one line of the algorithm at a time: the board, the three marking
// arrays, the square being checked, the call stack and the search tree so
// far, with every step kept so that it can be stepped back through; the
// mistake of not clearing the marks, on purpose; depth-first against
// breadth-first on the tree of 4 × 4; and the live count of a large board
// (see docs/web.md). Every word comes from the catalogue (i18n.js).
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const MAXN = 12; // the largest board the lesson animates
const MAXLIVE = 32; // the largest the live count counts (queens.MaxN)
const WARN_N = 23; // from here a live count takes hours: warn first
const TREE_MAX = 600; // nodes drawn in the tree view: the last ones
const SOLS_MAX = 500; // solutions listed
const DX = 20, DY = 24, R = 8; // the tree's geometry
const TOTAL_MAX_N = 11; // the whole search's steps are counted up to here
// The solutions of n × n, OEIS A000170, for the boards the lesson animates.
const KNOWN = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

const Q = {
  n: 8,
  order: 'topdown',
  mistake: false,
  search: null, // the machine making the steps (lesson.js)
  done: false, // the machine has made its last step
  hist: new Int32Array(4096), // every step seen, packed
  hlen: 0, // steps in hist
  pos: 0, // steps played: the page shows the state after hist[0..pos)
  board: [], // the column of each row's queen, -1: none
  stack: [], // queens on the board, in the order placed: [row, col]
  marks: null, // {col, d1, d2}: 0 free, else 1 + the row of the queen that marked it
  frames: [], // the call stack: {row, col, end} (end: 'found' or 'return')
  nodes: 0,
  backtracks: 0,
  sols: 0,
  solList: [], // the first SOLS_MAX solutions, columns from 1
  solSet: new Map(), // solution text -> its number
  last: null, // the last step played
  astrayAt: -1, // the step (from 1) where the mistaken search first goes astray
  playing: false,
  untilSolution: false,
  gen: 0,
  total: 0, // steps of the whole search (0: not counted)
};

// The tree so far: node j is the j-th queen placed.
const T = {
  depth: new Int8Array(1024), col: new Int8Array(1024), row: new Int8Array(1024),
  parent: new Int32Array(1024), step: new Int32Array(1024), state: new Int8Array(1024), // 0 open, 1 dead, 2 a solution below, 3 a solution
  x: new Int32Array(1024),
  count: 0,
  path: [],
  drawn: new Map(),
  dirty: new Set(),
};
let squares = [];

function grow(a, n) {
  if (n <= a.length) return a;
  const b = new a.constructor(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

const num = (v) => fmtNum(v);
const rc = (r, c) => t('q.square', { r: r + 1, c: c + 1 });

// ---- Board ----

function build() {
  const b = $('qboard');
  for (const id of ['qboard', 'rowinfo', 'qcols', 'qrows']) $(id).style.setProperty('--n', Q.n);
  b.replaceChildren();
  squares = [];
  for (let r = 0; r < Q.n; r++) {
    const row = el('div', { role: 'row' });
    for (let c = 0; c < Q.n; c++) {
      const sq = el('div', { class: 'sq' + ((r + c) % 2 ? ' dark' : ''), role: 'gridcell', 'data-row': r, 'data-col': c });
      row.append(sq);
      squares.push(sq);
    }
    b.append(row);
  }
  const info = $('rowinfo'), cols = $('qcols'), rows = $('qrows');
  info.replaceChildren();
  cols.replaceChildren();
  rows.replaceChildren();
  for (let r = 0; r < Q.n; r++) {
    info.append(el('li', { 'data-row': r }));
    cols.append(el('li', { 'data-col': r, text: String(r + 1) }));
    rows.append(el('li', { 'data-row': r, text: String(r + 1) }));
  }
  // The arrays: col[1..n], d1[2..2n], d2[1..2n-1].
  const arr = $('arrays');
  arr.replaceChildren();
  for (const [name, lo, hi] of [['col', 1, Q.n], ['d1', 2, 2 * Q.n], ['d2', 1, 2 * Q.n - 1]]) {
    const line = el('div', { class: 'arr', 'data-arr': name });
    line.append(el('span', { class: 'arrname', text: t('q.arr.' + name) }));
    const cells = el('span', { class: 'cells' });
    for (let i = lo; i <= hi; i++) cells.append(el('span', { class: 'ac', 'data-i': i }, el('i', { text: String(i) }), el('b', {})));
    line.append(cells);
    arr.append(line);
  }
  $('tree').replaceChildren();
  T.drawn.clear();
}

// attackedBy returns the queens on the board attacking (r, c).
function attackers(r, c, stack) {
  return (stack || Q.stack).filter(([qr, qc]) => !(qr === r && qc === c) && (qc === c || qr === r || qr - qc === r - c || qr + qc === r + c));
}

function openCols(r, stack) {
  const out = [];
  for (let c = 0; c < Q.n; c++) if (attackers(r, c, stack).length === 0) out.push(c);
  return out;
}

// The lines (col, d1, d2) through square (r, c), as sets of squares.
function onLine(which, r, c, rr, cc) {
  if (which === 'col') return cc === c;
  if (which === 'd1') return rr + cc === r + c;
  return rr - cc === r - c;
}

const LINES = [['col', HIT_COL], ['d1', HIT_D1], ['d2', HIT_D2]];

function render() {
  const n = Q.n;
  const ev = Q.last;
  const [k, er, ec, ed, ef] = ev || [-1, -1, -1, -1, 0];
  const attacked = new Set();
  for (const [qr, qc] of Q.stack) {
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        if (r === qr && c === qc) continue;
        if (r === qr || c === qc || r - c === qr - qc || r + c === qr + qc) attacked.add(r * n + c);
      }
    }
  }
  // The lines a step marks, clears or finds marked.
  let rays = [], rayKind = '';
  if (k === STEP.PLACE) { rays = ['col', 'd1', 'd2']; rayKind = ' ray'; }
  else if (k === STEP.UNCHOOSE) { rays = ['col', 'd1', 'd2']; rayKind = Q.mistake ? ' ray stale' : ' ray clr'; }
  else if (k === STEP.CHECK) { rays = LINES.filter(([, b]) => ef & b).map(([w]) => w); rayKind = ef & ASTRAY ? ' ray stale' : ' ray hit'; }
  const dead = k === STEP.RETURN ? er : -1;
  const found = k === STEP.FOUND;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const sq = squares[r * n + c];
      const q = Q.board[r] === c;
      const txt = q ? '♛' : '';
      if (sq.textContent !== txt) sq.textContent = txt;
      const ray = rays.some((w) => onLine(w, er, ec, r, c)) && !(r === er && c === ec);
      sq.className = 'sq' + ((r + c) % 2 ? ' dark' : '') + (q ? ' queen' : '') +
        (!q && attacked.has(r * n + c) ? ' attacked' : '') + (r === dead ? ' dead' : '') +
        (found && q ? ' found' : '') + (q && k === STEP.PLACE && er === r ? ' last' : '') +
        (k === STEP.CHECK && er === r && ec === c ? ' check' + (ef ? ' no' : ' ok') : '') + (ray ? rayKind : '');
      sq.setAttribute('aria-label', t('q.sq.aria', { r: r + 1, c: c + 1 }) + (q ? t('q.sq.queen') : attacked.has(r * n + c) ? t('q.sq.attacked') : ''));
    }
  }
  const hotR = ev && k !== STEP.CALL && k !== STEP.FOUND ? er : -1;
  const hotC = ev && (k === STEP.CHECK || k === STEP.PLACE || k === STEP.UNCHOOSE) ? ec : -1;
  for (const li of $('qrows').children) li.className = Number(li.dataset.row) === hotR ? 'hot' : '';
  for (const li of $('qcols').children) li.className = Number(li.dataset.col) === hotC ? 'hot' : '';
  // Open squares per free row; the row the frame on top fills.
  const top = Q.frames[Q.frames.length - 1];
  const chosen = top && !top.end ? top.row : -1;
  const items = $('rowinfo').children;
  for (let r = 0; r < n; r++) {
    const li = items[r];
    if (Q.board[r] >= 0) { li.textContent = ''; li.className = ''; continue; }
    const cnt = openCols(r).length;
    li.textContent = String(cnt);
    li.title = t('q.rowinfo.title', { r: r + 1, n: cnt });
    li.className = (r === chosen ? 'chosen' : '') + (cnt === 0 ? ' zero' : '');
  }
  $('nodes').textContent = num(Q.nodes);
  $('backtracks').textContent = num(Q.backtracks);
  $('found').textContent = num(Q.sols);
  $('stepno').textContent = num(Q.pos);
  $('stepof').textContent = Q.total ? t('q.stat.stepsof', { n: Q.total }) : t('q.stat.steps');
  $('play').textContent = Q.playing ? '❚❚ ' + t('q.btn.pause') : '▶ ' + t('q.btn.play');
  $('play').setAttribute('aria-pressed', String(Q.playing));
  $('back').disabled = Q.pos === 0;
  const scrub = $('scrub');
  scrub.max = String(Q.hlen);
  scrub.value = String(Q.pos);
  $('scrubtxt').textContent = t('q.scrub.txt', { pos: Q.pos, seen: Q.hlen });
  renderCode();
  renderArrays();
  renderStack();
  renderSols();
  renderTree();
}

// The lines of the algorithm each kind of step lights.
const LIT = {
  [STEP.CALL]: ['call'], [STEP.FOUND]: ['found'], [STEP.CHOOSE]: ['choose'], [STEP.CHECK]: ['check'],
  [STEP.PLACE]: ['place', 'mark'], [STEP.RECURSE]: ['recurse'], [STEP.UNCHOOSE]: ['unchoose', 'clear'], [STEP.RETURN]: ['return'],
};

function renderCode() {
  const ev = Q.last;
  const lit = ev ? LIT[ev[0]] : [];
  const fix = Q.mistake && Q.astrayAt > 0 && Q.pos >= Q.astrayAt;
  for (const li of $('code').children) {
    const line = li.dataset.line;
    let cls = lit.includes(line) && !(Q.mistake && line === 'clear') ? 'lit' : '';
    if (line === 'clear' && Q.mistake) cls = fix ? 'missing fix' : 'missing';
    li.className = cls;
  }
  let cap = t('q.cap.frames', { n: Q.frames.length });
  if (Q.mistake) cap = fix ? t('q.cap.fix') : t('q.cap.missing');
  $('codecap').textContent = cap;
}

// renderArrays shows the marks, and what the last step looked up, set or
// cleared.
function renderArrays() {
  const ev = Q.last;
  const [k, r, c, , f] = ev || [-1, 0, 0, 0, 0];
  const idx = ev ? lookups(Q.n, r, c) : [];
  const touched = k === STEP.CHECK || k === STEP.PLACE || k === STEP.UNCHOOSE;
  LINES.forEach(([name], a) => {
    const marks = Q.marks[name];
    for (const cell of $('arrays').querySelector('[data-arr="' + name + '"] .cells').children) {
      const i = Number(cell.dataset.i);
      const m = marks[i];
      // A mark no queen on the board stands behind: left by the mistake.
      const stale = m && !lineHeld(name, i);
      let cls = 'ac' + (m ? ' on' : '') + (stale ? ' stale' : '');
      if (touched && idx[a] === i) {
        if (k === STEP.CHECK) cls += ' look' + (m ? ' hit' : '');
        else if (k === STEP.PLACE) cls += ' set';
        else cls += Q.mistake ? ' kept' : ' clr';
      }
      cell.className = cls;
      cell.lastChild.textContent = m ? '●' : '';
      cell.title = name + '[' + i + ']: ' + (m ? t(stale ? 'q.arr.stale' : 'q.arr.marked', { r: m }) : t('q.arr.free'));
    }
  });
  // The look-ups in words.
  const p = $('lookups');
  p.replaceChildren();
  if (!touched) { p.append(t('q.look.idle')); return; }
  const names = LINES.map(([name], a) => name + '[' + idx[a] + ']');
  if (k === STEP.CHECK) {
    p.append(el('b', { text: t('q.look.check', { sq: rc(r, c) }) }), ' ');
    LINES.forEach(([name, bit], a) => {
      const m = Q.marks[name][idx[a]];
      const stale = m && !lineHeld(name, idx[a]);
      p.append(el('span', { class: 'lk ' + (f & bit ? (stale ? 'stale' : 'hit') : 'free'), text: names[a] + ' = ' + (f & bit ? t(stale ? 'q.look.stale' : 'q.look.marked', { r: m }) : t('q.look.free')) }), ' ');
    });
    p.append(el('span', { class: 'verdict', text: !f ? t('q.look.yes') : f & ASTRAY ? t('q.look.wrong') : t('q.look.no') }));
  } else if (k === STEP.PLACE) {
    p.append(t('q.look.set', { lines: names.join(', '), sq: rc(r, c) }));
  } else {
    p.append(t(Q.mistake ? 'q.look.kept' : 'q.look.clr', { lines: names.join(', '), sq: rc(r, c) }));
  }
}

function renderStack() {
  const ol = $('callstack');
  ol.replaceChildren();
  for (let i = Q.frames.length - 1; i >= 0; i--) {
    const f = Q.frames[i];
    let text;
    if (f.end === 'found') text = t('q.stack.found', { k: i });
    else if (f.end === 'return') text = t('q.stack.ret', { k: i, r: f.row + 1 });
    else if (f.row < 0) text = t('q.stack.enter', { k: i });
    else if (f.col < 0) text = t('q.stack.choose', { k: i, r: f.row + 1 });
    else text = t('q.stack.frame', { k: i, r: f.row + 1, c: f.col + 1 });
    ol.append(el('li', { class: i === Q.frames.length - 1 ? 'cur' : '', text }));
  }
  if (!Q.frames.length) ol.append(el('li', { class: 'empty', text: t('q.stack.none') }));
  ol.setAttribute('data-frames', Q.frames.length);
}

let solsShown = -1;
function renderSols() {
  if (solsShown === Q.solList.length) return;
  const ol = $('sols');
  if (Q.solList.length < solsShown || solsShown < 0) { ol.replaceChildren(); solsShown = 0; }
  for (; solsShown < Q.solList.length; solsShown++) ol.append(el('li', { text: Q.solList[solsShown] }));
  ol.dataset.empty = t('q.sols.none');
}

// ---- The tree ----

function treeNode(j) {
  const g = document.createElementNS(SVGNS, 'g');
  const x = T.x[j] * DX + DX, y = T.depth[j] * DY;
  const p = T.parent[j];
  const px = p >= 0 ? T.x[p] * DX + DX : DX, py = p >= 0 ? T.depth[p] * DY : 4;
  const line = document.createElementNS(SVGNS, 'path');
  line.setAttribute('class', 'edge');
  line.setAttribute('d', 'M ' + px + ' ' + py + ' V ' + (y - DY / 2) + ' H ' + x + ' V ' + y);
  const c = document.createElementNS(SVGNS, 'circle');
  c.setAttribute('class', 'node');
  c.setAttribute('cx', x);
  c.setAttribute('cy', y);
  c.setAttribute('r', R);
  const tx = document.createElementNS(SVGNS, 'text');
  tx.setAttribute('x', x);
  tx.setAttribute('y', y + 3.5);
  tx.setAttribute('text-anchor', 'middle');
  tx.textContent = String(T.col[j] + 1);
  const title = document.createElementNS(SVGNS, 'title');
  const label = t('q.tree.node', { k: T.depth[j], r: T.row[j] + 1, c: T.col[j] + 1, s: T.step[j] + 1 });
  title.textContent = label;
  g.append(title, line, c, tx);
  g.dataset.node = j;
  g.dataset.parent = p;
  g.dataset.depth = T.depth[j];
  g.dataset.row = T.row[j];
  g.dataset.col = T.col[j];
  // Reachable by keyboard: Tab to a node, Enter or Space goes to it.
  g.setAttribute('tabindex', '0');
  g.setAttribute('role', 'button');
  g.setAttribute('aria-label', label);
  const go = () => { pause(); goTo(T.step[j] + 1); const back = T.drawn.get(j); if (back) back.focus(); };
  g.addEventListener('click', go);
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); go(); }
  });
  return g;
}

let pathDrawn = [];
function renderTree() {
  const svg = $('tree');
  const lo = Math.max(0, T.count - TREE_MAX);
  for (const [j, g] of T.drawn) if (j < lo || j >= T.count) { g.remove(); T.drawn.delete(j); }
  const frag = document.createDocumentFragment();
  for (let j = lo; j < T.count; j++) {
    if (!T.drawn.has(j)) { const g = treeNode(j); T.drawn.set(j, g); frag.append(g); T.dirty.add(j); }
  }
  svg.append(frag);
  const onPath = new Set(T.path);
  for (const j of pathDrawn) T.dirty.add(j);
  for (const j of T.path) T.dirty.add(j);
  pathDrawn = T.path.slice();
  const now = T.path.length ? T.path[T.path.length - 1] : -1;
  for (const j of T.dirty) {
    const g = T.drawn.get(j);
    if (!g) continue;
    const st = T.state[j];
    g.setAttribute('class', 'tn' + (st === 1 ? ' dead' : st >= 2 ? ' sol' : '') + (onPath.has(j) ? ' path' : '') + (j === now ? ' now' : ''));
  }
  T.dirty.clear();
  const x0 = T.count ? T.x[lo] * DX : 0;
  const w = T.count ? (T.x[T.count - 1] - T.x[lo]) * DX + 2 * DX : DX;
  const h = (Q.n + 1) * DY;
  svg.setAttribute('viewBox', x0 + ' 0 ' + w + ' ' + h);
  svg.setAttribute('width', w);
  svg.setAttribute('height', h);
  svg.style.width = w + 'px';
  svg.style.height = h + 'px';
  const box = $('treebox');
  if (now >= 0) {
    const x = T.x[now] * DX + DX - x0;
    if (x < box.scrollLeft + 20 || x > box.scrollLeft + box.clientWidth - 40) box.scrollLeft = Math.max(0, x - box.clientWidth * 0.7);
  }
}

// ---- Playing ----

function resetState() {
  Q.pos = 0;
  Q.board = new Array(Q.n).fill(-1);
  Q.stack = [];
  Q.marks = { col: new Uint8Array(Q.n + 2), d1: new Uint8Array(2 * Q.n + 2), d2: new Uint8Array(2 * Q.n + 2) };
  Q.frames = [];
  Q.nodes = Q.backtracks = Q.sols = 0;
  Q.solList = [];
  Q.solSet = new Map();
  Q.last = null;
  T.count = 0;
  T.path = [];
  T.dirty.clear();
}

function finishNodes(d) {
  while (T.path.length > d) {
    const j = T.path.pop();
    if (T.state[j] === 0) T.state[j] = 1;
    T.dirty.add(j);
  }
}

function setMarks(r, c, v) {
  const [a, b, d] = lookups(Q.n, r, c);
  Q.marks.col[a] = v;
  Q.marks.d1[b] = v;
  Q.marks.d2[d] = v;
}

// lineHeld says whether a queen on the board stands on the line that
// entry i of array name stands for (numbered as shown, from 1).
function lineHeld(name, i) {
  for (let r = 0; r < Q.n; r++) {
    const c = Q.board[r];
    if (c >= 0 && lookups(Q.n, r, c)[name === 'col' ? 0 : name === 'd1' ? 1 : 2] === i) return true;
  }
  return false;
}

// hitWords lists the look-ups of a check that found a mark.
function hitWords(r, c, f) {
  const idx = lookups(Q.n, r, c);
  const out = [];
  LINES.forEach(([name, bit], a) => {
    if (f & bit) out.push(t(lineHeld(name, idx[a]) ? 'q.n.hit' : 'q.n.hitstale', { line: name + '[' + idx[a] + ']', r: Q.marks[name][idx[a]] }));
  });
  return out.join(t('q.list.sep'));
}

// playEvent applies one step to the state; with narrate it says what it
// did.
function playEvent(ev, narrate) {
  const [k, r, c, d, f] = ev;
  Q.pos++;
  Q.last = ev;
  const idx = lookups(Q.n, r, c);
  const lines = { a: idx[0], b: idx[1], d: idx[2] };
  switch (k) {
    case STEP.CALL:
      Q.frames = [{ row: -1, col: -1, end: '' }];
      if (narrate) narrateText(t('q.n.call'), '');
      break;
    case STEP.CHOOSE: {
      const fr = Q.frames[d];
      fr.row = r;
      fr.col = -1;
      if (narrate) {
        const open = openCols(r).length;
        let text = Q.order === 'constrained' ? t('q.n.choosemc', { r: r + 1, n: open }) : t('q.n.choose', { r: r + 1, n: Q.n });
        if (open === 0) text += ' ' + t('q.n.choosedead', { r: r + 1 });
        narrateText(text, open === 0 ? 'bad' : '');
      }
      break;
    }
    case STEP.CHECK:
      Q.frames[d].col = c;
      if (narrate) {
        if (!f) narrateText(t('q.n.free', { sq: rc(r, c), ...lines }), '');
        else if (f & ASTRAY) narrateText(t('q.n.astray', { sq: rc(r, c), hits: hitWords(r, c, f) }), 'bad');
        else narrateText(t('q.n.attacked', { sq: rc(r, c), hits: hitWords(r, c, f) }), '');
      }
      break;
    case STEP.PLACE: {
      const open = narrate ? openCols(r).length : 0;
      Q.board[r] = c;
      Q.stack.push([r, c]);
      setMarks(r, c, r + 1);
      Q.nodes++;
      finishNodes(d);
      const j = T.count++;
      for (const key of ['depth', 'col', 'row', 'parent', 'step', 'state', 'x']) T[key] = grow(T[key], T.count);
      T.depth[j] = d + 1;
      T.col[j] = c;
      T.row[j] = r;
      T.parent[j] = d > 0 ? T.path[d - 1] : -1;
      T.step[j] = Q.pos - 1;
      T.state[j] = 0;
      T.x[j] = j === 0 ? 0 : T.parent[j] === j - 1 ? T.x[j - 1] : T.x[j - 1] + 1;
      T.path.push(j);
      if (narrate) narrateText(t('q.n.place', { r: r + 1, c: c + 1, n: open, ...lines }), '');
      break;
    }
    case STEP.RECURSE:
      Q.frames.push({ row: -1, col: -1, end: '' });
      if (narrate) narrateText(t('q.n.recurse', { k: d + 1, n: Q.frames.length }), '');
      break;
    case STEP.FOUND: {
      Q.frames[d].end = 'found';
      Q.sols++;
      const cols = Q.board.map((x) => x + 1).join(' ');
      if (Q.solList.length < SOLS_MAX) Q.solList.push(cols);
      const mirror = Q.board.map((x) => Q.n - x).join(' ');
      const twin = Q.solSet.get(mirror);
      Q.solSet.set(cols, Q.sols);
      for (const j of T.path) { T.state[j] = Math.max(T.state[j], 2); T.dirty.add(j); }
      if (T.path.length) T.state[T.path[T.path.length - 1]] = 3;
      if (narrate) {
        let text = t('q.n.found', { i: Q.sols, cols, n: Q.n });
        if (twin && twin !== Q.sols) text += ' ' + t('q.n.mirror', { j: twin });
        narrateText(text, 'good');
      }
      if (Q.untilSolution) { Q.untilSolution = false; pause(); }
      break;
    }
    case STEP.UNCHOOSE:
      Q.frames.length = d + 1;
      Q.frames[d].col = c;
      Q.board[r] = -1;
      Q.stack.pop();
      if (!Q.mistake) setMarks(r, c, 0);
      finishNodes(d);
      if (narrate) narrateText(t(Q.mistake ? 'q.n.unchoosebad' : 'q.n.unchoose', { r: r + 1, sq: rc(r, c), ...lines }), Q.mistake ? 'bad' : '');
      break;
    case STEP.RETURN:
      Q.frames[d].end = 'return';
      Q.backtracks++;
      finishNodes(d);
      if (narrate) {
        if (d === 0) narrateText(overText(), 'good');
        else narrateText(t('q.n.return', { r: r + 1, k: d - 1 }), 'bad');
      }
      break;
  }
}

function overText() {
  return t('q.n.over', { sols: t('q.count.sols', { n: Q.sols }), placed: t('q.count.queens', { n: Q.nodes }) });
}

// stepOnce plays the next step: seen before (after a step back), or the
// machine's next; false when the search is over.
function stepOnce(narrate) {
  let v;
  if (Q.pos < Q.hlen) v = Q.hist[Q.pos];
  else {
    if (Q.done) return false;
    v = Q.search.next();
    if (v < 0) { Q.done = true; return false; }
    Q.hist = grow(Q.hist, Q.hlen + 1);
    Q.hist[Q.hlen++] = v;
  }
  playEvent(unpackStep(v), narrate);
  return true;
}

function goTo(p) {
  // Steps not seen yet are made first (a walk-through going ahead).
  while (Q.hlen < p && !Q.done) {
    const v = Q.search.next();
    if (v < 0) { Q.done = true; break; }
    Q.hist = grow(Q.hist, Q.hlen + 1);
    Q.hist[Q.hlen++] = v;
  }
  p = Math.max(0, Math.min(p, Q.hlen));
  resetState();
  for (const g of T.drawn.values()) g.remove();
  T.drawn.clear();
  pathDrawn = [];
  for (let i = 0; i < p; i++) playEvent(unpackStep(Q.hist[i]), i === p - 1);
  T.dirty.clear();
  if (p === 0) narrateText(startText(), '');
  flushNarration();
  render();
}

function startText() {
  return t('q.n.start', { queens: t('q.count.queen', { n: Q.n }), order: t(Q.order === 'constrained' ? 'q.order.mc.short' : 'q.order.td.short') });
}

let narration = null;
function narrateText(text, kind) { narration = [text, kind]; }
function flushNarration() {
  if (narration) say(narration[0], narration[1]);
  narration = null;
}

function say(text, kind) {
  const p = $('narration');
  p.className = 'status' + (kind ? ' ' + kind : '');
  p.textContent = text;
}

function step() {
  pause();
  if (!stepOnce(true)) { atEnd(); return; }
  flushNarration();
  render();
}

function back() {
  pause();
  if (Q.pos > 0) goTo(Q.pos - 1);
}

function atEnd() {
  if (Q.done && Q.pos >= Q.hlen) {
    pause();
    say(overText(), 'good');
    render();
  }
}

function rate() {
  const v = Number($('speed').value);
  return Math.round(Math.pow(10, (v / 100) * Math.log10(5000)));
}

let lastFrame = 0, credit = 0;
function frame(tm) {
  if (!Q.playing) return;
  const dt = lastFrame ? Math.min(tm - lastFrame, 250) : 16;
  lastFrame = tm;
  credit += (rate() * dt) / 1000;
  const gen = Q.gen;
  let played = 0, more = true;
  while (credit >= 1 && Q.playing) {
    if (!stepOnce(true)) { more = false; break; }
    credit--;
    played++;
  }
  if (played) { flushNarration(); render(); }
  if (!more) { atEnd(); return; }
  if (gen === Q.gen && Q.playing) requestAnimationFrame(frame);
}

function play() {
  if (Q.playing) return;
  Q.playing = true;
  lastFrame = 0;
  credit = 1;
  render();
  requestAnimationFrame(frame);
}

function pause() {
  Q.playing = false;
  Q.untilSolution = false;
  render();
}

// runFast plays as fast as it goes, a screenful of frames at most, until
// the search pauses itself (a solution, with untilSolution) or ends.
function runFast() {
  Q.playing = true;
  lastFrame = 0;
  credit = 1;
  render();
  const gen = Q.gen;
  const fast = () => {
    if (!Q.playing || gen !== Q.gen) return;
    let more = true;
    for (let i = 0; i < 20000 && Q.playing; i++) if (!stepOnce(true)) { more = false; break; }
    flushNarration();
    render();
    if (!more) { atEnd(); return; }
    requestAnimationFrame(fast);
  };
  requestAnimationFrame(fast);
}

function nextSolution() {
  Q.untilSolution = true;
  if (!Q.playing) runFast();
}

function restart() {
  Q.gen++;
  Q.playing = false;
  Q.untilSolution = false;
  Q.search = new Search(Q.n, Q.order, Q.mistake);
  Q.done = false;
  Q.hlen = 0;
  Q.total = 0;
  resetState();
  solsShown = -1;
  build();
  // The whole search's steps, and where the mistaken one goes astray.
  const sum = Q.n <= TOTAL_MAX_N || Q.mistake ? summarize(Q.n, Q.order, Q.mistake) : null;
  Q.total = sum ? sum.steps : 0;
  Q.astrayAt = sum ? sum.astray : -1;
  render();
  say(startText(), '');
  markContent();
  compare();
  mistakeTable();
}

async function compare() {
  const gen = Q.gen;
  try {
    const c = await api('/api/queens/orders', { n: Q.n });
    if (gen !== Q.gen) return;
    const body = $('compare').tBodies[0];
    body.replaceChildren();
    for (const o of c.orders) {
      const tr = el('tr', {}, el('td', { text: t(o.order === 'constrained' ? 'q.order.mc.short' : 'q.order.td.short') }), el('td', { text: num(o.nodes) }),
        el('td', { text: num(o.backtracks) }), el('td', { text: num(o.solutions) }));
      if (o.order === Q.order) tr.className = 'current';
      body.append(tr);
    }
    const [a, b] = c.orders;
    const ratio = b.nodes ? a.nodes / b.nodes : 0;
    $('cmptext').textContent = ratio > 1 ? t('q.cmp.ratio', { x: ratio.toFixed(2), n: c.known }) : t('q.cmp.small');
  } catch (e) {
    $('cmptext').textContent = e.message;
  }
}

// mistakeTable: the right search against the mistaken one, for 4 × 4,
// 8 × 8 and the board shown; and where the mistaken one goes astray.
function mistakeTable() {
  const body = $('mistakes').tBodies[0];
  body.replaceChildren();
  const ns = [...new Set([4, 8, Q.n])].filter((n) => n <= 10).sort((x, y) => x - y);
  for (const n of ns) {
    const right = summarize(n, Q.order, false), wrong = summarize(n, Q.order, true);
    const tr = el('tr', { 'data-n': n }, el('td', { text: n + ' × ' + n }), el('td', { text: num(right.solutions) }),
      el('td', { class: wrong.solutions !== right.solutions ? 'wrong' : '', text: num(wrong.solutions) }), el('td', { text: num(right.nodes) + ' / ' + num(wrong.nodes) }));
    if (n === Q.n) tr.className = 'current';
    body.append(tr);
  }
  const wrong = summarize(Q.n, Q.order, true);
  const p = $('astray');
  p.replaceChildren();
  if (wrong.astray < 0) { p.textContent = t('q.mistake.never', { n: Q.n }); return; }
  const [, r, c, , f] = unpackStep(wrong.astrayEvent);
  const idx = lookups(Q.n, r, c);
  const which = LINES.map(([name, bit], a) => (f & bit ? name + '[' + idx[a] + ']' : '')).filter(Boolean).join(t('q.list.sep'));
  p.append(t('q.mistake.where', { n: Q.n, s: wrong.astray, sq: rc(r, c), lines: which, found: wrong.solutions, total: KNOWN[Q.n] }), ' ');
  const btn = el('button', { class: 'btn', id: 'showastray', text: t('q.mistake.show') });
  btn.addEventListener('click', () => {
    if (!Q.mistake) { $('mistake').checked = true; Q.mistake = true; restart(); }
    pause();
    goTo(wrong.astray);
  });
  p.append(btn);
}

// ---- Walk-through ----

async function walk(which) {
  if (which === 1) {
    setBoard(4, 'topdown', false);
    restart();
    const s = firstSolutionStep();
    goTo(s);
    $('walktxt').textContent = t('q.walk.1.txt', { s });
  } else if (which === 2) {
    if (Q.n !== 4 || Q.order !== 'topdown' || Q.mistake) { setBoard(4, 'topdown', false); restart(); }
    const s = nthSolutionStep(2);
    goTo(s);
    $('walktxt').textContent = t('q.walk.2.txt', { s });
  } else {
    setBoard(8, 'topdown', false);
    restart();
    $('walktxt').textContent = t('q.walk.3.txt');
    runFast();
  }
}

function setBoard(n, order, mistake) {
  Q.n = n;
  Q.order = order;
  Q.mistake = mistake;
  $('n').value = String(n);
  document.querySelector('input[name="order"][value="' + order + '"]').checked = true;
  $('mistake').checked = mistake;
}

function nthSolutionStep(k) {
  const s = new Search(Q.n, Q.order, Q.mistake);
  let i = 0, found = 0;
  for (let v; (v = s.next()) >= 0; ) {
    i++;
    if ((v & 7) === STEP.FOUND && ++found === k) return i;
  }
  return i;
}
const firstSolutionStep = () => nthSolutionStep(1);

// ---- Depth-first against breadth-first ----

const W = { nodes: null, walks: null, mode: 'dfs', at: 0 };
const WX = 26, WY = 34;

function buildWalkTree() {
  W.nodes = smallTree(4);
  W.walks = walks(W.nodes);
  // Leaves side by side in depth-first order; a parent over its children.
  let leaf = 0;
  const place = (id) => {
    const nd = W.nodes[id];
    if (!nd.kids.length) { nd.x = leaf++; return; }
    for (const k of nd.kids) place(k);
    nd.x = (W.nodes[nd.kids[0]].x + W.nodes[nd.kids[nd.kids.length - 1]].x) / 2;
  };
  place(0);
  const svg = $('wtree');
  svg.replaceChildren();
  const w = (leaf + 1) * WX, h = 5 * WY + 10;
  svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
  svg.style.width = w + 'px';
  svg.style.height = h + 'px';
  for (const nd of W.nodes) {
    const g = document.createElementNS(SVGNS, 'g');
    g.dataset.id = nd.id;
    const x = nd.x * WX + WX, y = nd.depth * WY + 16;
    if (nd.parent >= 0) {
      const p = W.nodes[nd.parent];
      const e = document.createElementNS(SVGNS, 'line');
      e.setAttribute('class', 'edge');
      e.setAttribute('x1', p.x * WX + WX); e.setAttribute('y1', p.depth * WY + 16);
      e.setAttribute('x2', x); e.setAttribute('y2', y);
      g.append(e);
    }
    const c = document.createElementNS(SVGNS, 'circle');
    c.setAttribute('class', 'node');
    c.setAttribute('cx', x); c.setAttribute('cy', y); c.setAttribute('r', 10);
    const tx = document.createElementNS(SVGNS, 'text');
    tx.setAttribute('x', x); tx.setAttribute('y', y + 3.5); tx.setAttribute('text-anchor', 'middle');
    const title = document.createElementNS(SVGNS, 'title');
    title.textContent = nd.id === 0 ? t('q.dfs.root') : rc(nd.row, nd.col) + (nd.dead ? ' — ' + t('q.dfs.deadnode', { r: nd.row + 2 }) : '');
    g.append(title, c, tx);
    svg.append(g);
  }
  // Facts: the memory each walk holds, for 4 × 4 and 8 × 8.
  const facts = $('dfsfacts');
  facts.replaceChildren();
  const maxQueue = Math.max(...W.walks.queueAt.map((q) => q.length));
  const maxStack = Math.max(...W.walks.stackAt.map((s) => s.length));
  const s8 = summarize(8, 'topdown', false);
  const all = (n) => { let s = 0, p = 1; for (let i = 1; i <= n; i++) { p *= n; s += p; } return s; };
  facts.append(el('li', { text: t('q.dfs.fact.memory', { dfs: maxStack, bfs: maxQueue }) }));
  facts.append(el('li', { text: t('q.dfs.fact.memory8', { dfs: s8.maxFrames, bfs: Math.max(...s8.levels) }) }));
  facts.append(el('li', { text: t('q.dfs.fact.prune', { nodes: W.nodes.length - 1, all: all(4), nodes8: s8.nodes, all8: all(8) }) }));
  renderWalk();
}

function renderWalk() {
  const order = W.mode === 'dfs' ? W.walks.dfs : W.walks.bfs;
  const rank = new Map(order.slice(0, W.at).map((id, i) => [id, i + 1]));
  const held = new Set(W.at ? (W.mode === 'dfs' ? W.walks.stackAt[W.at - 1] : W.walks.queueAt[W.at - 1]) : []);
  const cur = W.at ? order[W.at - 1] : -1;
  for (const g of $('wtree').children) {
    const id = Number(g.dataset.id);
    const nd = W.nodes[id];
    const seen = rank.has(id);
    g.setAttribute('class', 'wn' + (seen ? ' seen' : '') + (held.has(id) ? ' held' : '') + (id === cur ? ' now' : '') + (seen && nd.dead ? ' dead' : '') + (seen && nd.sol ? ' sol' : ''));
    g.querySelector('text').textContent = seen ? String(rank.get(id)) : '';
  }
  $('walkdfs').setAttribute('aria-pressed', String(W.mode === 'dfs'));
  $('walkbfs').setAttribute('aria-pressed', String(W.mode === 'bfs'));
  $('visitback').disabled = W.at === 0;
  $('visitnext').disabled = W.at >= order.length;
  let text = t(W.mode === 'dfs' ? 'q.dfs.start.dfs' : 'q.dfs.start.bfs');
  if (W.at) {
    const nd = W.nodes[cur];
    const what = cur === 0 ? t('q.dfs.root') : rc(nd.row, nd.col) + (nd.dead ? ' — ' + t('q.dfs.deadnode', { r: nd.row + 2 }) : '');
    text = t('q.dfs.visit', { i: W.at, of: order.length, what }) + ' ' +
      t(W.mode === 'dfs' ? 'q.dfs.held.dfs' : 'q.dfs.held.bfs', { n: held.size });
  }
  $('walknow').textContent = text;
}

// ---- Live count ----

const hist = [];
let poll = 0;

// parseBoard reads the n of the live count: a whole number from 1 to 32,
// or an error message.
function parseBoard(raw) {
  const s = String(raw == null ? '' : raw).trim();
  if (s === '') return { err: t('q.live.err.empty', { max: MAXLIVE }) };
  if (!/^[0-9]{1,6}$/.test(s)) return { err: t('q.live.err.notsize', { v: s.slice(0, 20), max: MAXLIVE }) };
  const n = Number(s);
  if (n < 1) return { err: t('q.live.err.notsize', { v: s, max: MAXLIVE }) };
  if (n > MAXLIVE) return { err: t('q.live.err.large', { n: String(n), max: MAXLIVE }) };
  return { n };
}

// countError shows an error and clears the result: no earlier count's
// figures beside it.
function countError(msg) {
  $('cerr').textContent = msg;
  $('cerr').hidden = false;
  $('cn').setAttribute('aria-invalid', 'true');
  $('cwarn').hidden = true;
  clearCount();
}

// hiddenID is the count whose figures an error cleared: a late progress
// message of it does not bring them back.
let hiddenID = 0, shownID = 0;

function clearCount() {
  hiddenID = shownID;
  for (const id of ['cmethod', 'ctasks', 'crate', 'celapsed', 'ceta', 'ctotal']) $(id).textContent = '–';
  $('cstate').textContent = t('q.live.idle');
  $('cprog').value = 0;
  $('chartcap').textContent = '';
  $('chart').replaceChildren();
  hist.length = 0;
}

function clearError() {
  $('cerr').hidden = true;
  $('cerr').textContent = '';
  $('cn').removeAttribute('aria-invalid');
}

// startCount checks n, warns before a count of hours, then starts it.
async function startCount(confirmed) {
  const b = parseBoard($('cn').value);
  if (b.err) { countError(b.err); return; }
  clearError();
  if (b.n >= WARN_N && confirmed !== true) {
    let est;
    try { est = await api('/api/queens/estimate', { n: b.n }); } catch (e) { countError(e.message); return; }
    $('cwarntxt').textContent = warnText(est);
    $('cwarn').hidden = false;
    $('cgo').focus();
    return;
  }
  $('cwarn').hidden = true;
  hist.length = 0;
  try {
    showCount(await api('/api/queens/count', { n: b.n }));
    schedulePoll();
  } catch (e) {
    countError(e.message);
  }
}

function hoursText(h) {
  if (h < 1) return t('q.live.minutes', { n: Math.max(1, Math.round(h * 60)) });
  if (h < 48) return t('q.live.hours', { n: Number(h.toPrecision(2)) });
  if (h < 24 * 730) return t('q.live.days', { n: Math.round(h / 24) });
  return t('q.live.years', { n: Math.round(h / 24 / 365) });
}

function warnText(est) {
  const budget = fmtTime(est.budget_seconds);
  if (!est.core_hours) return t('q.live.warn.none', { n: est.n, budget });
  return t('q.live.warn', { n: est.n, ch: Number(est.core_hours.toPrecision(3)), wall: hoursText(est.core_hours / Math.max(1, est.workers)), w: t('q.count.workers', { n: est.workers }), budget });
}

async function stopCount() {
  try { showCount(await api('/api/queens/count', undefined, 'DELETE')); } catch (e) { countError(e.message); }
}

let poller = null;
function schedulePoll() {
  if (!poller && window.Worker) {
    try {
      poller = new Worker('/static/poll.js');
      poller.onmessage = (e) => { if (e.data.progress) showCount(e.data.progress); else countError(e.data.error); };
    } catch (e) { poller = null; }
  }
  if (poller) { poller.postMessage('start'); return; }
  clearTimeout(poll);
  poll = setTimeout(async () => {
    try {
      const p = await api('/api/queens/count');
      showCount(p);
      if (p.state === 'running' || p.state === 'planning') schedulePoll();
    } catch (e) {
      countError(e.message);
    }
  }, 500);
}

function human(v) {
  if (v >= 1e9) return (v / 1e9).toFixed(2) + ' G';
  if (v >= 1e6) return (v / 1e6).toFixed(1) + ' M';
  if (v >= 1e3) return (v / 1e3).toFixed(1) + ' k';
  return v.toFixed(0);
}

function showCount(p) {
  if (p.id && p.id === hiddenID) return;
  shownID = p.id || 0;
  const running = p.state === 'running' || p.state === 'planning';
  $('cstop').disabled = !running;
  let state = p.state === 'stopped' && p.stop_reason ? t('q.live.stopped.' + p.stop_reason) : t('q.live.st.' + p.state);
  if (p.n) state += ' (n = ' + p.n + ', ' + t('q.count.workers', { n: p.workers }) + (p.kernel ? ', ' + t('q.live.kernel', { k: p.kernel }) : '') + ')';
  if (running && p.budget_seconds) state += t('q.live.budget', { t: fmtTime(p.budget_seconds) });
  $('cstate').textContent = state + (p.error ? ': ' + p.error : '');
  $('cmethod').textContent = p.method || '–';
  $('cprog').value = p.fraction || 0;
  $('ctasks').textContent = p.tasks ? t('q.live.tasksof', { done: p.tasks_done, n: p.tasks, pct: (100 * p.fraction).toFixed(1) }) : '–';
  $('crate').textContent = p.nodes_per_second ? human(p.nodes_per_second) + t('q.live.nps') : '–';
  $('celapsed').textContent = p.seconds ? fmtTime(p.seconds) + (p.seconds < 10 ? ' (' + p.seconds.toFixed(2) + ' s)' : '') : '–';
  $('ceta').textContent = p.state === 'done' ? t('q.live.eta.none') : p.eta_seconds >= 0 ? fmtTime(p.eta_seconds) : running ? t('q.live.eta.unknown') : '–';
  if (p.state === 'done') {
    const check = p.matches_known === undefined ? t('q.live.nocheck') : p.matches_known ? t('q.live.match') : t('q.live.nomatch', { v: fmtNum(BigInt(p.known)) });
    $('ctotal').textContent = fmtNum(BigInt(p.total)) + check;
  } else $('ctotal').textContent = '–';
  if (p.id) {
    hist.push([p.seconds, p.nodes_per_second, p.fraction]);
    chart();
  }
}

function chart() {
  const svg = $('chart');
  const Wd = 400, H = 110, pad = 4;
  svg.replaceChildren();
  if (hist.length < 2) return;
  const tmax = Math.max(hist[hist.length - 1][0], 1);
  const rmax = Math.max(...hist.map((h) => h[1]), 1);
  const x = (s) => pad + ((Wd - 2 * pad) * s) / tmax;
  const frac = document.createElementNS(SVGNS, 'polygon');
  frac.setAttribute('class', 'frac');
  frac.setAttribute('points', [x(0) + ',' + (H - pad)].concat(hist.map((h) => x(h[0]) + ',' + (H - pad - (H - 2 * pad) * h[2])), [x(hist[hist.length - 1][0]) + ',' + (H - pad)]).join(' '));
  const line = document.createElementNS(SVGNS, 'polyline');
  line.setAttribute('class', 'rate');
  line.setAttribute('points', hist.map((h) => x(h[0]) + ',' + (H - pad - (H - 2 * pad) * 0.9 * (h[1] / rmax))).join(' '));
  svg.append(frac, line);
  $('chartcap').textContent = t('q.live.chartcap', { peak: human(rmax), t: fmtTime(tmax) });
}

// ---- Start ----

async function init() {
  await i18nReady;
  const sel = $('n');
  for (let n = 1; n <= MAXN; n++) sel.append(el('option', { value: n, text: n + ' × ' + n }));
  const q = new URLSearchParams(location.search);
  // ?n= is checked as the field is: a board the lesson animates (1 to 12),
  // one to count live (13 to 32), or a message.
  let want = 0, badN = '';
  if (q.has('n')) {
    const b = parseBoard(q.get('n'));
    if (b.err) badN = b.err;
    else want = b.n;
  }
  if (want >= 1 && want <= MAXN) Q.n = want;
  sel.value = String(Q.n);
  if (want >= 1) $('cn').value = String(want);
  if (q.get('order') === 'constrained') { Q.order = 'constrained'; document.querySelector('input[value="constrained"]').checked = true; }
  if (q.get('mistake') === '1') { Q.mistake = true; $('mistake').checked = true; }

  sel.addEventListener('change', () => { Q.n = Number(sel.value); restart(); });
  for (const r of document.querySelectorAll('input[name="order"]')) r.addEventListener('change', () => { Q.order = r.value; restart(); });
  $('mistake').addEventListener('change', (e) => { Q.mistake = e.target.checked; restart(); });
  $('play').addEventListener('click', () => (Q.playing ? pause() : play()));
  $('step').addEventListener('click', step);
  $('back').addEventListener('click', back);
  $('nextsol').addEventListener('click', nextSolution);
  $('reset').addEventListener('click', restart);
  for (const i of [1, 2, 3]) $('walk' + i).addEventListener('click', () => walk(i));
  $('scrub').addEventListener('input', (e) => { const to = Number(e.target.value); Q.playing = false; Q.untilSolution = false; goTo(to); });
  const sp = () => {
    $('speedtxt').textContent = t('q.speed.txt', { n: rate() });
    $('speed').setAttribute('aria-valuetext', t('q.speed.txt', { n: rate() }));
  };
  $('speed').addEventListener('input', sp);
  sp();
  $('cstart').addEventListener('click', () => startCount(false));
  $('cgo').addEventListener('click', () => startCount(true));
  $('ccancel').addEventListener('click', () => { $('cwarn').hidden = true; $('cn').focus(); });
  $('cstop').addEventListener('click', stopCount);
  $('cn').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); startCount(false); } });
  $('cn').addEventListener('input', () => { clearError(); $('cwarn').hidden = true; });
  $('walkdfs').addEventListener('click', () => { W.mode = 'dfs'; W.at = 0; renderWalk(); });
  $('walkbfs').addEventListener('click', () => { W.mode = 'bfs'; W.at = 0; renderWalk(); });
  $('visitnext').addEventListener('click', () => { W.at = Math.min(W.at + 1, W.nodes.length); renderWalk(); });
  $('visitback').addEventListener('click', () => { W.at = Math.max(W.at - 1, 0); renderWalk(); });
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // After choosing a row order, Left and Right step the search (Up and
    // Down still choose the order, as in any group of radio buttons).
    const radio = e.target.matches('input[type="radio"][name="order"], input[type="checkbox"]');
    if (e.target.matches('input, textarea, select') && !radio) return;
    if (e.key === ' ' && !e.target.matches('button, input, [role="button"]')) { e.preventDefault(); Q.playing ? pause() : play(); }
    else if (e.key === 'ArrowRight' || (e.key === 's' && !radio)) { e.preventDefault(); step(); }
    else if (e.key === 'ArrowLeft' || (e.key === 'b' && !radio)) { e.preventDefault(); back(); }
  });
  clearCount();
  restart();
  buildWalkTree();
  markReady();
  if (badN) {
    say(t('q.n.badparam', { msg: badN, n: Q.n }), 'bad');
    countError(t('q.live.err.param', { msg: badN }));
  } else if (want > MAXN) {
    // A board too large to animate: count it live (after the warning
    // for one of hours).
    $('live').scrollIntoView();
    startCount(false);
  } else {
    api('/api/queens/count').then((p) => { if (p.id) { showCount(p); if (p.state === 'running' || p.state === 'planning') schedulePoll(); } }).catch(() => {});
  }
}

init();
