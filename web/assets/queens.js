// queens.js: the n-queens search animated from the server's trace, with
// every step kept so that it can be stepped back through, the search tree
// so far, and the live count of a large board (see docs/web.md).
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const MAXN = 12; // the largest board the trace endpoint animates
const LOOK = 6; // rows the kernels compare (package kernel's Look)
const PAGE = 5000;
const TREE_MAX = 600; // nodes drawn in the tree view: the last ones
const SOLS_MAX = 500; // solutions listed
const DX = 20, DY = 24, R = 8; // the tree's geometry

// An event is [kind, row, col, depth]: kind 0 places a queen, 1
// backtracks, 2 reports a solution (docs/web.md). History keeps every
// event seen, packed in an Int32Array, so that any earlier step can be
// shown again by replaying the events up to it.
const pack = (e) => e[0] | (e[1] << 2) | (e[2] << 7) | (e[3] << 12);
const unpack = (v) => [v & 3, (v >> 2) & 31, (v >> 7) & 31, (v >> 12) & 31];

const Q = {
  n: 8,
  order: 'topdown',
  buf: [], // loaded events not yet seen
  next: 0, // index of the first event not yet loaded
  done: false, // every event is loaded
  loading: null,
  hist: new Int32Array(4096), // every event seen, packed
  hlen: 0, // events in hist
  pos: 0, // events played: the board shows the state after hist[0..pos)
  stack: [], // queens on the board, in the order placed: [row, col]
  nodes: 0,
  backtracks: 0,
  sols: 0,
  solList: [], // the first SOLS_MAX solutions, columns from 1
  last: null, // the last event played
  playing: false,
  untilSolution: false,
  gen: 0, // bumped by every restart, so that stale pages are dropped
  total: 0, // events in the whole trace (from the comparison)
};

// The tree so far: node j is the j-th queen placed.
const T = {
  depth: new Int8Array(1024), col: new Int8Array(1024), row: new Int8Array(1024),
  parent: new Int32Array(1024), step: new Int32Array(1024), state: new Int8Array(1024), // 0 open, 1 dead, 2 a solution below, 3 a solution
  x: new Int32Array(1024), // its column in the drawing: under its parent if it is the first child, else right of the node before
  count: 0,
  path: [], // nodes of the queens on the board
  drawn: new Map(), // node -> its <g>
  dirty: new Set(),
};
let squares = [];

function grow(a, n) {
  if (n <= a.length) return a;
  const b = new a.constructor(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

// ---- Loading the trace ----

function load() {
  if (Q.loading || Q.done) return Q.loading;
  const gen = Q.gen;
  Q.loading = api('/api/queens/trace', { n: Q.n, order: Q.order, from: Q.next, limit: PAGE })
    .then((p) => {
      if (gen !== Q.gen) return;
      Q.buf.push(...p.events);
      Q.next = p.next;
      Q.done = p.done;
      markContent();
    })
    .catch((e) => { if (gen === Q.gen) { say(e.message, 'bad'); pause(); } })
    .finally(() => { if (gen === Q.gen) Q.loading = null; });
  return Q.loading;
}

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
  const info = $('rowinfo');
  info.replaceChildren();
  const cols = $('qcols'), rows = $('qrows');
  cols.replaceChildren();
  rows.replaceChildren();
  for (let r = 0; r < Q.n; r++) {
    info.append(el('li', { 'data-row': r }));
    cols.append(el('li', { 'data-col': r, text: String(r + 1) }));
    rows.append(el('li', { 'data-row': r, text: String(r + 1) }));
  }
  $('tree').replaceChildren();
  T.drawn.clear();
}

// openCols returns the open squares of row r given the queens on the board.
function openCols(r, stack) {
  const out = [];
  for (let c = 0; c < Q.n; c++) {
    let ok = true;
    for (const [qr, qc] of stack || Q.stack) {
      if (qc === c || qr - qc === r - c || qr + qc === r + c || qr === r) { ok = false; break; }
    }
    if (ok) out.push(c);
  }
  return out;
}

function render() {
  const n = Q.n;
  const board = new Array(n).fill(-1);
  for (const [r, c] of Q.stack) board[r] = c;
  const attacked = new Set();
  for (const [qr, qc] of Q.stack) {
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        if (r === qr && c === qc) continue;
        if (r === qr || c === qc || r - c === qr - qc || r + c === qr + qc) attacked.add(r * n + c);
      }
    }
  }
  const ev = Q.last;
  const dead = ev && ev[0] === 1 ? ev[1] : -1;
  const found = ev && ev[0] === 2;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const sq = squares[r * n + c];
      const q = board[r] === c;
      const txt = q ? '♛' : '';
      if (sq.textContent !== txt) sq.textContent = txt;
      sq.className = 'sq' + ((r + c) % 2 ? ' dark' : '') + (q ? ' queen' : '') +
        (!q && attacked.has(r * n + c) ? ' attacked' : '') + (r === dead ? ' dead' : '') +
        (found && q ? ' found' : '') + (q && ev && ev[0] === 0 && ev[1] === r ? ' last' : '');
      sq.setAttribute('aria-label', 'row ' + (r + 1) + ', column ' + (c + 1) + (q ? ': queen' : attacked.has(r * n + c) ? ': attacked' : ''));
    }
  }
  // The labels of the row and column the narration names.
  const hotR = ev ? ev[1] : -1, hotC = ev && ev[0] === 0 ? ev[2] : -1;
  for (const li of $('qrows').children) li.className = Number(li.dataset.row) === hotR ? 'hot' : '';
  for (const li of $('qcols').children) li.className = Number(li.dataset.col) === hotC ? 'hot' : '';
  // Open squares per free row; in the kernel's order, the rows it compares.
  const free = [];
  for (let r = 0; r < n; r++) if (board[r] < 0) free.push(r);
  const cand = new Set(Q.order === 'constrained' ? free.slice(0, LOOK) : free.slice(0, 1));
  let chosen = -1, best = 99;
  for (const r of cand) {
    const k = openCols(r).length;
    if (k === 0) { chosen = r; break; }
    if (k < best) { best = k; chosen = r; }
  }
  const items = $('rowinfo').children;
  for (let r = 0; r < n; r++) {
    const li = items[r];
    if (board[r] >= 0) { li.textContent = ''; li.className = ''; continue; }
    const k = openCols(r).length;
    li.textContent = String(k);
    li.title = 'row ' + (r + 1) + ': ' + plural(k, 'open square');
    // After a backtrack the search goes back up: no row is filled next.
    const next = r === chosen && !found && !(ev && ev[0] === 1);
    li.className = (next ? 'chosen' : cand.has(r) ? 'cand' : '') + (k === 0 ? ' zero' : '');
  }
  $('nodes').textContent = Q.nodes.toLocaleString('en');
  $('backtracks').textContent = Q.backtracks.toLocaleString('en');
  $('found').textContent = Q.sols.toLocaleString('en');
  $('stepno').textContent = Q.pos.toLocaleString('en');
  $('stepof').textContent = Q.total ? 'of ' + plural(Q.total, 'step') : 'steps';
  $('play').textContent = Q.playing ? '❚❚ Pause' : '▶ Play';
  $('play').setAttribute('aria-pressed', String(Q.playing));
  $('back').disabled = Q.pos === 0;
  const scrub = $('scrub');
  scrub.max = String(Q.hlen);
  scrub.value = String(Q.pos);
  $('scrubtxt').textContent = Q.pos.toLocaleString('en') + ' of ' + Q.hlen.toLocaleString('en') + ' seen';
  renderCode();
  renderSols();
  renderTree();
}

// renderCode lights the line of the algorithm the last step ran.
function renderCode() {
  const ev = Q.last;
  const line = !ev ? 'call' : ev[0] === 0 ? 'place' : ev[0] === 1 ? 'back' : 'found';
  for (const li of $('code').children) li.className = li.dataset.line === line ? 'lit' : '';
  let cap = 'Before the first call: no queen on the board.';
  if (ev && ev[0] === 0) cap = 'Depth ' + ev[3] + ': the queen of row ' + (ev[1] + 1) + ' on column ' + (ev[2] + 1) + ', then search deeper.';
  else if (ev && ev[0] === 1) cap = 'Row ' + (ev[1] + 1) + ' has no square left: back to depth ' + ev[3] + ', where the queen on the board is taken back and the next square tried.';
  else if (ev) cap = 'Every row has a queen: solution ' + Q.sols.toLocaleString('en') + '.';
  $('codecap').textContent = cap;
}

let solsShown = -1;
function renderSols() {
  if (solsShown === Q.solList.length) return;
  const ol = $('sols');
  if (Q.solList.length < solsShown || solsShown < 0) { ol.replaceChildren(); solsShown = 0; }
  for (; solsShown < Q.solList.length; solsShown++) ol.append(el('li', { text: Q.solList[solsShown] }));
}

// ---- The tree ----

function treeNode(j) {
  const g = document.createElementNS(SVGNS, 'g');
  const x = T.x[j] * DX + DX, y = T.depth[j] * DY;
  const p = T.parent[j];
  // An elbow from the parent: down, across to the child's column, down.
  const px = p >= 0 ? T.x[p] * DX + DX : DX, py = p >= 0 ? T.depth[p] * DY : 4;
  const line = document.createElementNS(SVGNS, 'path');
  line.setAttribute('class', 'edge');
  line.setAttribute('d', 'M ' + px + ' ' + py + ' V ' + (y - DY / 2) + ' H ' + x + ' V ' + y);
  const c = document.createElementNS(SVGNS, 'circle');
  c.setAttribute('class', 'node');
  c.setAttribute('cx', x);
  c.setAttribute('cy', y);
  c.setAttribute('r', R);
  const t = document.createElementNS(SVGNS, 'text');
  t.setAttribute('x', x);
  t.setAttribute('y', y + 3.5);
  t.setAttribute('text-anchor', 'middle');
  t.textContent = String(T.col[j] + 1);
  const title = document.createElementNS(SVGNS, 'title');
  title.textContent = 'queen ' + T.depth[j] + ': row ' + (T.row[j] + 1) + ', column ' + (T.col[j] + 1) + ' (step ' + (T.step[j] + 1).toLocaleString('en') + ')';
  g.append(title, line, c, t);
  g.dataset.node = j;
  g.dataset.parent = p;
  g.dataset.depth = T.depth[j];
  g.dataset.row = T.row[j];
  g.dataset.col = T.col[j];
  g.addEventListener('click', () => { pause(); goTo(T.step[j] + 1); });
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
  // Keep the newest node in view.
  const box = $('treebox');
  if (now >= 0) {
    const x = T.x[now] * DX + DX - x0;
    if (x < box.scrollLeft + 20 || x > box.scrollLeft + box.clientWidth - 40) box.scrollLeft = Math.max(0, x - box.clientWidth * 0.7);
  }
}

// ---- Playing ----

function resetState() {
  Q.pos = 0;
  Q.stack = [];
  Q.nodes = Q.backtracks = Q.sols = 0;
  Q.solList = [];
  Q.last = null;
  T.count = 0;
  T.path = [];
  T.dirty.clear();
}

// finishNodes marks the nodes leaving the path from depth d on: their
// branch is searched through, and holds a solution or not.
function finishNodes(d) {
  while (T.path.length > d) {
    const j = T.path.pop();
    if (T.state[j] === 0) T.state[j] = 1;
    T.dirty.add(j);
  }
}

// playEvent applies one event to the state; with narrate it says what it
// did.
function playEvent(ev, narrate) {
  const [k, r, c, d] = ev;
  Q.pos++;
  Q.last = ev;
  if (k === 0) {
    const open = narrate ? openCols(r, Q.stack.slice(0, d - 1)).length : 0;
    Q.stack.length = d - 1;
    Q.stack.push([r, c]);
    Q.nodes++;
    finishNodes(d - 1);
    const j = T.count++;
    for (const key of ['depth', 'col', 'row', 'parent', 'step', 'state', 'x']) T[key] = grow(T[key], T.count);
    T.depth[j] = d;
    T.col[j] = c;
    T.row[j] = r;
    T.parent[j] = d > 1 ? T.path[d - 2] : -1;
    T.step[j] = Q.pos - 1;
    T.state[j] = 0;
    T.x[j] = j === 0 ? 0 : T.parent[j] === j - 1 ? T.x[j - 1] : T.x[j - 1] + 1;
    T.path.push(j);
    if (narrate) narrateText('Row ' + (r + 1) + ': queen on column ' + (c + 1) + ' (' + plural(open, 'open square') + ' in this row).', '');
  } else if (k === 1) {
    Q.stack.length = d;
    Q.backtracks++;
    finishNodes(d);
    if (narrate) {
      const open = openCols(r).length;
      const why = open === 0 ? 'Row ' + (r + 1) + ' has no safe square' : 'Row ' + (r + 1) + ': its ' + (open === 1 ? 'safe square has' : plural(open, 'safe square') + ' have') + ' been tried';
      narrateText(why + (d === 0 ? ': the search is over.' : ': take back the last queen and try its next square.'), 'bad');
    }
  } else {
    Q.sols++;
    const cols = new Array(Q.n).fill(0);
    for (const [qr, qc] of Q.stack) cols[qr] = qc + 1;
    if (Q.solList.length < SOLS_MAX) Q.solList.push(cols.join(' '));
    for (const j of T.path) { T.state[j] = Math.max(T.state[j], 2); T.dirty.add(j); }
    if (T.path.length) T.state[T.path[T.path.length - 1]] = 3;
    narrateText('Solution ' + Q.sols.toLocaleString('en') + ': ' + cols.join(' ') + ' (the column of the queen of rows 1 to ' + Q.n + ').', 'good');
    if (Q.untilSolution) { Q.untilSolution = false; pause(); }
  }
}

// stepOnce plays the next event: seen before (after a step back), or the
// next loaded one; false when there is none loaded.
function stepOnce(narrate) {
  let v;
  if (Q.pos < Q.hlen) v = Q.hist[Q.pos];
  else if (Q.buf.length) {
    v = pack(Q.buf.shift());
    Q.hist = grow(Q.hist, Q.hlen + 1);
    Q.hist[Q.hlen++] = v;
  } else return false;
  playEvent(unpack(v), narrate);
  return true;
}

// goTo shows the board after step p (0: before the first), replaying the
// events seen up to it.
function goTo(p) {
  p = Math.max(0, Math.min(p, Q.hlen));
  resetState();
  for (const g of T.drawn.values()) g.remove();
  T.drawn.clear();
  pathDrawn = [];
  for (let i = 0; i < p; i++) playEvent(unpack(Q.hist[i]), i === p - 1);
  T.dirty.clear();
  if (p === 0) narrateText(startText(), '');
  flushNarration();
  render();
}

function startText() {
  const o = Q.order === 'constrained' ? 'most constrained row first' : 'row by row';
  return plural(Q.n, 'queen') + ', ' + o + '. Press Play or Step.';
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

async function step() {
  pause();
  if (Q.pos >= Q.hlen && Q.buf.length === 0 && !Q.done) await load();
  if (!stepOnce(true)) { atEnd(); return; }
  flushNarration();
  render();
  if (Q.buf.length < 1000) load();
}

function back() {
  pause();
  if (Q.pos > 0) goTo(Q.pos - 1);
}

function atEnd() {
  if (Q.done && Q.buf.length === 0 && Q.pos >= Q.hlen) {
    pause();
    say('The search is over: ' + plural(Q.sols, 'solution') + ', ' + plural(Q.nodes, 'queen') + ' placed.', 'good');
    render();
  }
}

function rate() {
  // 0..100 on the slider: 1 to 5000 steps a second, evenly in log scale.
  const v = Number($('speed').value);
  return Math.round(Math.pow(10, (v / 100) * Math.log10(5000)));
}

let lastFrame = 0, credit = 0;
function frame(t) {
  if (!Q.playing) return;
  const dt = lastFrame ? Math.min(t - lastFrame, 250) : 16;
  lastFrame = t;
  credit += (rate() * dt) / 1000;
  const gen = Q.gen;
  let played = 0;
  while (credit >= 1 && Q.playing) {
    if (!stepOnce(true)) break;
    credit--;
    played++;
  }
  if (played) { flushNarration(); render(); }
  if (Q.buf.length < 2000 && !Q.done) load();
  if (Q.buf.length === 0 && Q.done && Q.pos >= Q.hlen) { atEnd(); return; }
  if (Q.buf.length === 0) credit = Math.min(credit, 1);
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

function nextSolution() {
  Q.untilSolution = true;
  if (!Q.playing) {
    Q.playing = true;
    lastFrame = 0;
    credit = 1;
    render();
    // As fast as it goes, a screenful of frames at most.
    const fast = () => {
      if (!Q.playing) return;
      for (let i = 0; i < 4000 && Q.playing; i++) if (!stepOnce(true)) break;
      flushNarration();
      render();
      if (Q.buf.length < 4000 && !Q.done) load();
      if (Q.buf.length === 0 && Q.done && Q.pos >= Q.hlen) { atEnd(); return; }
      requestAnimationFrame(fast);
    };
    requestAnimationFrame(fast);
  }
}

async function restart() {
  Q.gen++;
  Q.playing = false;
  Q.untilSolution = false;
  Q.buf = [];
  Q.next = 0;
  Q.done = false;
  Q.loading = null;
  Q.hlen = 0;
  resetState();
  solsShown = -1;
  build();
  render();
  say(startText(), '');
  load();
  compare();
}

async function compare() {
  const gen = Q.gen;
  try {
    const c = await api('/api/queens/orders', { n: Q.n });
    if (gen !== Q.gen) return;
    const body = $('compare').tBodies[0];
    body.replaceChildren();
    const label = { topdown: 'row by row', constrained: 'most constrained' };
    for (const o of c.orders) {
      const tr = el('tr', {}, el('td', { text: label[o.order] || o.order }), el('td', { text: o.nodes.toLocaleString('en') }),
        el('td', { text: o.backtracks.toLocaleString('en') }), el('td', { text: o.solutions.toLocaleString('en') }));
      if (o.order === Q.order) tr.className = 'current';
      body.append(tr);
      if (o.order === Q.order) { Q.total = o.steps; render(); }
    }
    const [a, b] = c.orders;
    const ratio = b.nodes ? a.nodes / b.nodes : 0;
    $('cmptext').textContent = ratio > 1
      ? 'Filling the most constrained row first places ' + ratio.toFixed(2) + '× fewer queens for the same ' + c.known.toLocaleString('en') + ' solutions: a row with few open squares has few branches, and a row with none ends the branch at once.'
      : 'On a board this small the orders do about the same work; try 8 or more.';
  } catch (e) {
    $('cmptext').textContent = e.message;
  }
}

// ---- Live count ----

const hist = [];
let poll = 0;

async function startCount() {
  const n = Number($('cn').value);
  hist.length = 0;
  try {
    showCount(await api('/api/queens/count', { n }));
    schedulePoll();
  } catch (e) {
    $('cstate').textContent = e.message;
  }
}

async function stopCount() {
  try { showCount(await api('/api/queens/count', undefined, 'DELETE')); } catch (e) { $('cstate').textContent = e.message; }
}

// The server stops a count nobody asks about for a few seconds: a worker
// (poll.js) asks twice a second while it runs, hidden page or not.
let poller = null;
function schedulePoll() {
  if (!poller && window.Worker) {
    try {
      poller = new Worker('/static/poll.js');
      poller.onmessage = (e) => { if (e.data.progress) showCount(e.data.progress); else $('cstate').textContent = e.data.error; };
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
      $('cstate').textContent = e.message;
    }
  }, 500);
}

function human(v) {
  if (v >= 1e9) return (v / 1e9).toFixed(2) + ' G';
  if (v >= 1e6) return (v / 1e6).toFixed(1) + ' M';
  if (v >= 1e3) return (v / 1e3).toFixed(1) + ' k';
  return v.toFixed(0);
}

const STOPPED = {
  asked: 'stopped, as asked',
  replaced: 'stopped: another count started',
  budget: 'stopped: its time budget is spent (nqueens count on the command line has none)',
  unwatched: 'stopped: no page was watching it (it stops a few seconds after its page is closed)',
  shutdown: 'stopped: the server was shut down',
};

function showCount(p) {
  const running = p.state === 'running' || p.state === 'planning';
  $('cstop').disabled = !running;
  let state = p.state === 'stopped' && STOPPED[p.stop_reason] ? STOPPED[p.stop_reason] : p.state;
  if (p.n) state += ' (n = ' + p.n + ', ' + plural(p.workers, 'worker') + (p.kernel ? ', kernel ' + p.kernel : '') + ')';
  if (running && p.budget_seconds) state += '; stops after ' + fmtTime(p.budget_seconds);
  $('cstate').textContent = state + (p.error ? ': ' + p.error : '');
  $('cmethod').textContent = p.method || '–';
  $('cprog').value = p.fraction || 0;
  $('ctasks').textContent = p.tasks ? p.tasks_done.toLocaleString('en') + ' of ' + p.tasks.toLocaleString('en') + ' (' + (100 * p.fraction).toFixed(1) + '% of the work)' : '–';
  $('crate').textContent = p.nodes_per_second ? human(p.nodes_per_second) + 'nodes/s' : '–';
  $('celapsed').textContent = p.seconds ? fmtTime(p.seconds) + (p.seconds < 10 ? ' (' + p.seconds.toFixed(2) + ' s)' : '') : '–';
  $('ceta').textContent = p.state === 'done' ? 'none' : p.eta_seconds >= 0 ? fmtTime(p.eta_seconds) : '–';
  if (p.state === 'done') {
    const check = p.matches_known === undefined ? ' (no published value to compare)' : p.matches_known ? ' ✓ matches OEIS A000170' : ' ✗ OEIS A000170 says ' + BigInt(p.known).toLocaleString('en');
    $('ctotal').textContent = BigInt(p.total).toLocaleString('en') + check;
  } else $('ctotal').textContent = '–';
  if (p.id) {
    hist.push([p.seconds, p.nodes_per_second, p.fraction]);
    chart();
  }
}

function chart() {
  const svg = $('chart');
  const W = 400, H = 110, pad = 4;
  svg.replaceChildren();
  if (hist.length < 2) return;
  const tmax = Math.max(hist[hist.length - 1][0], 1);
  const rmax = Math.max(...hist.map((h) => h[1]), 1);
  const x = (t) => pad + ((W - 2 * pad) * t) / tmax;
  const frac = document.createElementNS(SVGNS, 'polygon');
  frac.setAttribute('class', 'frac');
  frac.setAttribute('points', [x(0) + ',' + (H - pad)].concat(hist.map((h) => x(h[0]) + ',' + (H - pad - (H - 2 * pad) * h[2])), [x(hist[hist.length - 1][0]) + ',' + (H - pad)]).join(' '));
  const line = document.createElementNS(SVGNS, 'polyline');
  line.setAttribute('class', 'rate');
  line.setAttribute('points', hist.map((h) => x(h[0]) + ',' + (H - pad - (H - 2 * pad) * 0.9 * (h[1] / rmax))).join(' '));
  svg.append(frac, line);
  $('chartcap').textContent = 'Line: nodes per second (peak ' + human(rmax) + 'nodes/s). Area: part of the work done. Over ' + fmtTime(tmax) + '.';
}

// ---- Start ----

function init() {
  const sel = $('n');
  for (let n = 1; n <= MAXN; n++) sel.append(el('option', { value: n, text: n + ' × ' + n }));
  const q = new URLSearchParams(location.search);
  const want = Number(q.get('n'));
  if (want >= 1 && want <= MAXN) Q.n = want;
  sel.value = String(Q.n);
  if (want >= 1 && want <= 32) $('cn').value = String(want);
  const ord = q.get('order');
  if (ord === 'constrained') { Q.order = ord; document.querySelector('input[value="constrained"]').checked = true; }

  sel.addEventListener('change', () => { Q.n = Number(sel.value); restart(); });
  for (const r of document.querySelectorAll('input[name="order"]')) r.addEventListener('change', () => { Q.order = r.value; restart(); });
  $('play').addEventListener('click', () => (Q.playing ? pause() : play()));
  $('step').addEventListener('click', step);
  $('back').addEventListener('click', back);
  $('nextsol').addEventListener('click', nextSolution);
  $('reset').addEventListener('click', restart);
  $('scrub').addEventListener('input', (e) => { const to = Number(e.target.value); Q.playing = false; Q.untilSolution = false; goTo(to); });
  const sp = () => {
    $('speedtxt').textContent = rate().toLocaleString('en') + ' steps/s';
    $('speed').setAttribute('aria-valuetext', rate() + ' steps per second');
  };
  $('speed').addEventListener('input', sp);
  sp();
  $('cstart').addEventListener('click', startCount);
  $('cstop').addEventListener('click', stopCount);
  document.addEventListener('keydown', (e) => {
    if (e.target.matches('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === ' ' && !e.target.matches('button')) { e.preventDefault(); Q.playing ? pause() : play(); }
    else if (e.key === 'ArrowRight' || e.key === 's') { e.preventDefault(); step(); }
    else if (e.key === 'ArrowLeft' || e.key === 'b') { e.preventDefault(); back(); }
  });
  restart();
  markReady();
  // A board too large to animate: count it live.
  if (want > MAXN && want <= 32) {
    $('live').scrollIntoView();
    startCount();
  } else {
    api('/api/queens/count').then((p) => { if (p.id) { showCount(p); if (p.state === 'running' || p.state === 'planning') schedulePoll(); } }).catch(() => {});
  }
}

init();
