// queens.js: the n-queens search animated from the server's trace, and
// the live count of a large board (see docs/web.md).
'use strict';

const $ = (id) => document.getElementById(id);
const MAXN = 12; // the largest board the trace endpoint animates
const LOOK = 6; // rows the kernels compare (package kernel's Look)
const PAGE = 5000;

const Q = {
  n: 8,
  order: 'topdown',
  buf: [], // loaded events not yet played: [kind, row, col, depth]
  next: 0, // index of the first event not yet loaded
  done: false, // every event is loaded
  loading: null,
  pos: 0, // events played
  stack: [], // queens on the board, in the order placed: [row, col]
  nodes: 0,
  backtracks: 0,
  sols: 0,
  last: null, // the last event played
  playing: false,
  untilSolution: false,
  gen: 0, // bumped by every restart, so that stale pages are dropped
  total: 0, // events in the whole trace (from the comparison)
};
let squares = [];

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
  b.style.setProperty('--n', Q.n);
  $('rowinfo').style.setProperty('--n', Q.n);
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
  for (let r = 0; r < Q.n; r++) info.append(el('li', { 'data-row': r }));
}

// open returns the open squares of row r given the queens on the board.
function openCols(r) {
  const out = [];
  for (let c = 0; c < Q.n; c++) {
    let ok = true;
    for (const [qr, qc] of Q.stack) {
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
      sq.setAttribute('aria-label', 'row ' + r + ', column ' + c + (q ? ': queen' : attacked.has(r * n + c) ? ': attacked' : ''));
    }
  }
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
    li.title = 'row ' + r + ': ' + k + ' open squares';
    // After a backtrack the search goes back up: no row is filled next.
    const next = r === chosen && !found && !(ev && ev[0] === 1);
    li.className = (next ? 'chosen' : cand.has(r) ? 'cand' : '') + (k === 0 ? ' zero' : '');
  }
  $('nodes').textContent = Q.nodes.toLocaleString('en');
  $('backtracks').textContent = Q.backtracks.toLocaleString('en');
  $('found').textContent = Q.sols.toLocaleString('en');
  $('stepno').textContent = Q.pos.toLocaleString('en');
  $('stepof').textContent = Q.total ? 'of ' + Q.total.toLocaleString('en') + ' steps' : 'steps';
  $('play').textContent = Q.playing ? '❚❚ Pause' : '▶ Play';
  $('play').setAttribute('aria-pressed', String(Q.playing));
}

function say(text, kind) {
  const p = $('narration');
  p.className = 'status' + (kind ? ' ' + kind : '');
  p.textContent = text;
}

// ---- Playing ----

// stepOnce plays the next event; false when there is none loaded.
function stepOnce() {
  if (Q.buf.length === 0) return false;
  const ev = Q.buf.shift();
  const [k, r, c, d] = ev;
  Q.pos++;
  Q.last = ev;
  if (k === 0) {
    const open = openColsBefore(d, r);
    Q.stack.length = d - 1;
    Q.stack.push([r, c]);
    Q.nodes++;
    narrate('Row ' + r + ': queen on column ' + c + ' (' + open + ' open square' + (open === 1 ? '' : 's') + ' in this row).', '');
  } else if (k === 1) {
    Q.stack.length = d;
    Q.backtracks++;
    const open = openCols(r).length;
    const why = open === 0 ? 'Row ' + r + ' has no safe square' : 'Row ' + r + ': its ' + (open === 1 ? 'safe square has' : open + ' safe squares have') + ' been tried';
    narrate(why + (d === 0 ? ': the search is over.' : ': take back the last queen and try its next square.'), 'bad');
  } else {
    Q.sols++;
    const cols = new Array(Q.n).fill(0);
    for (const [qr, qc] of Q.stack) cols[qr] = qc;
    $('sols').append(el('li', { text: cols.join(' ') }));
    narrate('Solution ' + Q.sols + ': ' + cols.join(' ') + ' (column of the queen of each row).', 'good');
    if (Q.untilSolution) { Q.untilSolution = false; pause(); }
  }
  return true;
}

function openColsBefore(d, r) {
  const saved = Q.stack;
  Q.stack = saved.slice(0, d - 1);
  const k = openCols(r).length;
  Q.stack = saved;
  return k;
}

let narration = null;
function narrate(text, kind) { narration = [text, kind]; }
function flushNarration() {
  if (narration) say(narration[0], narration[1]);
  narration = null;
}

async function step() {
  pause();
  if (Q.buf.length === 0 && !Q.done) await load();
  if (!stepOnce()) { atEnd(); return; }
  flushNarration();
  render();
  if (Q.buf.length < 1000) load();
}

function atEnd() {
  if (Q.done && Q.buf.length === 0) {
    pause();
    say('The search is over: ' + Q.sols + ' solutions, ' + Q.nodes.toLocaleString('en') + ' queens placed.', 'good');
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
    if (!stepOnce()) break;
    credit--;
    played++;
  }
  if (played) { flushNarration(); render(); }
  if (Q.buf.length < 2000 && !Q.done) load();
  if (Q.buf.length === 0 && Q.done) { atEnd(); return; }
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
    const fast = (t) => {
      if (!Q.playing) return;
      for (let i = 0; i < 4000 && Q.playing; i++) if (!stepOnce()) break;
      flushNarration();
      render();
      if (Q.buf.length < 4000 && !Q.done) load();
      if (Q.buf.length === 0 && Q.done) { atEnd(); return; }
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
  Q.pos = 0;
  Q.stack = [];
  Q.nodes = Q.backtracks = Q.sols = 0;
  Q.last = null;
  $('sols').replaceChildren();
  build();
  render();
  const name = Q.order === 'constrained' ? 'most constrained row first' : 'row by row';
  say(Q.n + ' queens, ' + name + '. Press Play or Step.', '');
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
      ? 'Filling the most constrained row first places ' + ratio.toFixed(2) + '× fewer queens for the same ' + c.known + ' solutions: a row with few open squares has few branches, and a row with none ends the branch at once.'
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

function schedulePoll() {
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

function showCount(p) {
  const running = p.state === 'running' || p.state === 'planning';
  $('cstop').disabled = !running;
  $('cstate').textContent = p.state + (p.n ? ' (n = ' + p.n + ', ' + p.workers + ' workers' + (p.kernel ? ', kernel ' + p.kernel : '') + ')' : '') + (p.error ? ': ' + p.error : '');
  $('cprog').value = p.fraction || 0;
  $('ctasks').textContent = p.tasks ? p.tasks_done.toLocaleString('en') + ' of ' + p.tasks.toLocaleString('en') + ' (' + (100 * p.fraction).toFixed(1) + '% of the work)' : '–';
  $('crate').textContent = p.nodes_per_second ? human(p.nodes_per_second) + 'nodes/s' : '–';
  $('celapsed').textContent = p.seconds ? fmtTime(p.seconds) + (p.seconds < 10 ? ' (' + p.seconds.toFixed(2) + ' s)' : '') : '–';
  $('ceta').textContent = p.state === 'done' ? 'none' : p.eta_seconds >= 0 ? fmtTime(p.eta_seconds) : '–';
  if (p.state === 'done') {
    const check = p.matches_known === undefined ? ' (no published value to compare)' : p.matches_known ? ' ✓ matches OEIS A000170' : ' ✗ OEIS A000170 says ' + p.known;
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
  const ns = 'http://www.w3.org/2000/svg';
  svg.replaceChildren();
  if (hist.length < 2) return;
  const tmax = Math.max(hist[hist.length - 1][0], 1);
  const rmax = Math.max(...hist.map((h) => h[1]), 1);
  const x = (t) => pad + ((W - 2 * pad) * t) / tmax;
  const frac = document.createElementNS(ns, 'polygon');
  frac.setAttribute('class', 'frac');
  frac.setAttribute('points', [x(0) + ',' + (H - pad)].concat(hist.map((h) => x(h[0]) + ',' + (H - pad - (H - 2 * pad) * h[2])), [x(hist[hist.length - 1][0]) + ',' + (H - pad)]).join(' '));
  const line = document.createElementNS(ns, 'polyline');
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
  $('nextsol').addEventListener('click', nextSolution);
  $('reset').addEventListener('click', restart);
  const sp = () => {
    $('speedtxt').textContent = rate() + ' steps/s';
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
  });
  restart();
  markReady();
  // A board too large to animate: count it live.
  if (want > MAXN && want <= 32) {
    $('live').scrollIntoView();
    startCount();
  } else {
    api('/api/queens/count').then((p) => { if (p.id) { showCount(p); if (p.state === 'running') schedulePoll(); } }).catch(() => {});
  }
}

init();
