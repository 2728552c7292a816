// sudoku.js: the Sudoku app. The board lives here; the server generates,
// checks, solves, hints, and reads and writes files (see docs/web.md).
'use strict';

const STORE = 'nqcount.sudoku.v1';
const $ = (id) => document.getElementById(id);

// The game. grid holds every digit on the board (givens included); marks
// one bit per pencilled digit (bit d for digit d).
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
  finished: false,
  source: null, // {seed, level, score, symmetry, index, command} of a generated puzzle
  solution: null, // the puzzle's solution, once asked for ('' if not unique)
  wrong: new Set(),
  hint: null,
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
const name = (i) => 'r' + (Math.floor(i / 9) + 1) + 'c' + ((i % 9) + 1);
const toStr = (a) => a.map((v) => (v ? String(v) : '.')).join('');
const fromStr = (s) => Array.from(s, (ch) => (ch >= '1' && ch <= '9' ? ch.charCodeAt(0) - 48 : 0));
const marksToStr = (m) => { let s = ''; for (let d = 1; d <= 9; d++) if (m & (1 << d)) s += d; return s; };
const marksFromStr = (s) => { let m = 0; for (const ch of s || '') if (ch >= '1' && ch <= '9') m |= 1 << (ch.charCodeAt(0) - 48); return m; };

// ---- Board ----

function buildBoard() {
  const board = $('board');
  for (let r = 0; r < 9; r++) {
    const row = el('div', { role: 'row' });
    for (let c = 0; c < 9; c++) {
      const i = r * 9 + c;
      const cell = el('div', { class: 'cell', role: 'gridcell', 'data-row': r, 'data-col': c, tabindex: '-1' });
      cell.addEventListener('pointerdown', (e) => { e.preventDefault(); select(i, true); });
      row.append(cell);
      cells.push(cell);
    }
    board.append(row);
  }
  board.addEventListener('keydown', onKey);
  const pad = $('pad');
  for (let d = 1; d <= 9; d++) {
    const b = el('button', { class: 'btn', 'aria-label': 'Digit ' + d, text: String(d) });
    b.addEventListener('click', () => input(d, false));
    pad.append(b);
  }
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

function render() {
  const clash = clashSet(S.grid);
  const sel = S.sel;
  const selV = S.grid[sel];
  const hintArea = new Set(S.hint ? S.hint.cells : []);
  const hintPlace = new Map((S.hint ? S.hint.placements : []).map((m) => [m.cell, m.digit]));
  const hintElim = new Set((S.hint ? S.hint.eliminations : []).map((m) => m.cell));
  for (let i = 0; i < 81; i++) {
    const c = cells[i];
    const v = S.grid[i];
    const given = S.mode === 'play' && S.puzzle[i] !== 0;
    const txt = v ? String(v) : '';
    if (c.textContent !== txt) c.textContent = txt;
    const m = v ? 0 : S.marks[i];
    if (m) {
      let s = '';
      for (let d = 1; d <= 9; d++) s += (m & (1 << d) ? d : ' ') + (d % 3 === 0 ? (d < 9 ? '\n' : '') : '');
      c.dataset.marks = s;
    } else delete c.dataset.marks;
    if (hintPlace.has(i) && !v) c.dataset.hint = hintPlace.get(i); else delete c.dataset.hint;
    const peer = PEERS[sel].includes(i);
    c.className = 'cell' +
      (given ? ' given' : '') +
      (i === sel ? ' sel' : peer ? ' peer' : '') +
      (selV && v === selV && i !== sel ? ' same' : '') +
      (clash.has(i) ? ' clash' : '') +
      (S.wrong.has(i) && v ? ' wrong' : '') +
      (hintPlace.has(i) ? ' hint-cell' : hintElim.has(i) ? ' hint-elim' : hintArea.has(i) ? ' hint-area' : '');
    c.tabIndex = i === sel ? 0 : -1;
    let label = 'Row ' + (Math.floor(i / 9) + 1) + ', column ' + ((i % 9) + 1) + ': ';
    if (v) label += v + (given ? ', given' : '') + (clash.has(i) ? ', clashes' : '') + (S.wrong.has(i) ? ', wrong' : '');
    else label += 'empty' + (m ? ', pencil marks ' + marksToStr(m).split('').join(' ') : '');
    c.setAttribute('aria-label', label);
  }
  $('undo').disabled = S.undo.length === 0;
  $('redo').disabled = S.redo.length === 0;
  $('pencil').setAttribute('aria-pressed', String(S.pencil));
  document.body.classList.toggle('entering', S.mode === 'enter');
  $('start').hidden = S.mode !== 'enter';
  $('timer').textContent = fmtTime(S.seconds);
}

function select(i, focus) {
  S.sel = i;
  render();
  if (focus) cells[i].focus({ preventScroll: true });
}

function status(text, kind, action) {
  const p = $('status');
  p.className = 'status' + (kind ? ' ' + kind : '');
  p.textContent = text;
  if (action) {
    const b = el('button', { class: 'btn', text: action.label });
    b.addEventListener('click', action.run);
    p.append(b);
  }
}

// ---- Changes, undo and redo ----

// apply makes one undoable change: a list of [cell, value, marks].
function apply(changes, record = true) {
  const before = changes.map(([i]) => [i, S.grid[i], S.marks[i], S.mode === 'enter' ? S.puzzle[i] : null]);
  for (const [i, v, m] of changes) {
    S.grid[i] = v;
    S.marks[i] = m;
    if (S.mode === 'enter') S.puzzle[i] = v;
    S.wrong.delete(i);
  }
  if (record) {
    S.undo.push({ before, after: changes.map(([i, v, m]) => [i, v, m]) });
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
  status('Undone.', '');
}

function redo() {
  const a = S.redo.pop();
  if (!a) return;
  S.undo.push(a);
  replay(a.after);
  status('Redone.', '');
}

// input enters digit d (0 erases) in the selected cell, or toggles its
// pencil mark.
function input(d, pencil) {
  const i = S.sel;
  if (S.mode === 'play' && S.puzzle[i]) { status(name(i) + ' is a given: it cannot change.', ''); return; }
  if (S.finished && S.mode === 'play') return;
  if (d === 0) {
    if (S.grid[i] || S.marks[i]) apply([[i, 0, 0]]);
    return;
  }
  if ((pencil || S.pencil) && S.mode === 'play') {
    if (S.grid[i]) return;
    apply([[i, 0, S.marks[i] ^ (1 << d)]]);
    return;
  }
  if (S.grid[i] === d) return;
  const ch = [[i, d, 0]];
  // Entering a digit clears it from the pencil marks of the cell's peers.
  if (S.mode === 'play') for (const p of PEERS[i]) if (S.marks[p] & (1 << d)) ch.push([p, S.grid[p], S.marks[p] & ~(1 << d)]);
  apply(ch);
  const clash = clashSet(S.grid);
  if (clash.has(i)) {
    const other = PEERS[i].find((p) => S.grid[p] === d);
    status(name(i) + ': ' + d + ' is already in ' + where(i, other) + ' (' + name(other) + ').', 'bad');
  }
}

function where(a, b) {
  if (Math.floor(a / 9) === Math.floor(b / 9)) return 'row ' + (Math.floor(a / 9) + 1);
  if (a % 9 === b % 9) return 'column ' + ((a % 9) + 1);
  return 'box ' + (Math.floor(a / 27) * 3 + Math.floor((a % 9) / 3) + 1);
}

// changed runs after every change: render, save, and check for the end.
function changed() {
  render();
  autosave();
  if (S.mode === 'enter') {
    clearTimeout(validateTimer);
    validateTimer = setTimeout(verdict, 120);
    return;
  }
  if (!S.finished && S.grid.every((v) => v) && clashSet(S.grid).size === 0) finish();
}

async function finish() {
  const sol = await solution();
  if (!sol) return;
  if (toStr(S.grid) === sol) {
    S.finished = true;
    render();
    autosave();
    status('Solved in ' + fmtTime(S.seconds) + '. Well done!', 'good');
  } else status('The board is full but not the solution: Check marks the wrong digits.', 'bad');
}

// ---- Keyboard ----

function onKey(e) {
  const k = e.key;
  if ((e.ctrlKey || e.metaKey) && !e.altKey) {
    if (k === 'z' || k === 'Z') { e.preventDefault(); if (e.shiftKey) redo(); else undo(); }
    else if (k === 'y' || k === 'Y') { e.preventDefault(); redo(); }
    return;
  }
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
  if (k === 'h' || k === 'H') { hint(); return; }
}

// ---- Timer and autosave ----

setInterval(() => {
  if (S.mode === 'play' && !S.finished && !document.hidden && S.puzzle.some((v) => v)) {
    S.seconds++;
    $('timer').textContent = fmtTime(S.seconds);
    if (S.seconds % 5 === 0) autosave();
  }
}, 1000);

function autosave() {
  try {
    localStorage.setItem(STORE, JSON.stringify({
      puzzle: toStr(S.puzzle), grid: toStr(S.grid), marks: S.marks.map(marksToStr),
      seconds: S.seconds, mode: S.mode, source: S.source, finished: S.finished,
    }));
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
  S.finished = !!g.finished;
  showSource();
  return true;
}

// ---- Games ----

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
  S.finished = false;
  showSource();
  select(S.grid.findIndex((v) => !v) >= 0 ? S.grid.findIndex((v) => !v) : 0, false);
  autosave();
  markContent();
}

function showSource() {
  const s = S.source;
  if (s && s.seed) {
    $('source').textContent = s.level + (s.score ? ' ' + s.score.toFixed(1) : '') + ' · seed ' + s.seed + (s.index ? ' #' + s.index : '') +
      (s.symmetry && s.symmetry !== 'none' ? ' · ' + s.symmetry : '');
    let cmd = s.command || 'sudoku generate --difficulty ' + s.level + ' --seed ' + s.seed + (s.index ? ' --first ' + s.index : '') +
      (s.symmetry && s.symmetry !== 'none' ? ' --symmetry ' + s.symmetry : '');
    $('share').replaceChildren('Share: ', el('a', { href: shareURL(s), text: 'link' }), ' or ', el('code', { class: 'cmd', text: cmd }));
  } else {
    $('source').textContent = s && s.level ? 'your puzzle · ' + s.level + (s.score ? ' ' + s.score.toFixed(1) : '') : S.mode === 'enter' ? 'typing a puzzle' : 'your puzzle';
    $('share').textContent = '\u00a0';
  }
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
  status('Making a ' + level + ' puzzle…', '');
  try {
    const g = await (pending || requestPuzzle(level, seed, index, symmetry));
    newGame(g.puzzle, { seed: g.seed, level: g.level, score: g.score, symmetry: g.symmetry, index: g.index, command: g.command });
    $('seed').value = '';
    $('level').value = g.level;
    $('symmetry').value = g.symmetry;
    status('New ' + g.level + ' puzzle (score ' + g.score.toFixed(1) + '), ' + g.clues + ' clues, exactly one solution. Good luck!', '');
  } catch (e) {
    status(e.message, 'bad');
  }
}

// solution returns the puzzle's solution ('' when it has not exactly one).
async function solution() {
  if (S.solution !== null) return S.solution;
  try {
    const r = await api('/api/sudoku/solve', { grid: toStr(S.puzzle) });
    S.solution = r.verdict === 'unique' ? r.solution : '';
    if (!S.solution) status(r.message, 'bad');
  } catch (e) {
    status(e.message, 'bad');
    return '';
  }
  return S.solution;
}

async function hint() {
  if (S.mode !== 'play') { status('Start playing first: hints are for a puzzle in play.', ''); return; }
  try {
    const st = await api('/api/sudoku/hint', { puzzle: toStr(S.puzzle), grid: toStr(S.grid) });
    S.hint = st;
    const kind = { mistake: 'bad', clash: 'bad', contradiction: 'bad', solved: 'good' }[st.technique] || 'hint';
    if (st.technique === 'mistake') st.cells.forEach((i) => S.wrong.add(i));
    render();
    const act = st.placements.length || st.eliminations.length ? { label: 'Apply', run: () => applyHint(st) } : null;
    status(st.text, kind, act);
  } catch (e) {
    status(e.message, 'bad');
  }
}

// applyHint places the step's digits and takes its eliminated candidates
// out of the pencil marks.
function applyHint(st) {
  const ch = new Map();
  for (const m of st.placements) ch.set(m.cell, [m.cell, m.digit, 0]);
  let removed = 0;
  for (const m of st.eliminations) {
    if (ch.has(m.cell) || S.grid[m.cell]) continue;
    const cur = ch.get('m' + m.cell) || [m.cell, 0, S.marks[m.cell]];
    if (cur[2] & (1 << m.digit)) removed++;
    cur[2] &= ~(1 << m.digit);
    ch.set('m' + m.cell, cur);
  }
  const list = [...ch.values()].filter(([i, v, mk]) => v !== S.grid[i] || mk !== S.marks[i]);
  if (list.length) apply(list);
  if (st.placements.length) {
    select(st.placements[0].cell, true);
    status('Placed: ' + st.placements.map((m) => name(m.cell) + ' = ' + m.digit).join(', ') + '.', '');
  } else {
    S.hint = st; // keep showing where
    render();
    status(removed ? 'Removed ' + removed + ' pencil mark' + (removed === 1 ? '' : 's') + '.' : 'None of those candidates was pencilled: cross them out in your head.', '');
  }
}

async function check() {
  if (S.mode !== 'play') { status('Nothing to check yet: start playing first.', ''); return; }
  const sol = await solution();
  if (!sol) return;
  const s = fromStr(sol);
  S.wrong = new Set();
  let empty = 0;
  for (let i = 0; i < 81; i++) {
    if (!S.grid[i]) empty++;
    else if (S.grid[i] !== s[i]) S.wrong.add(i);
  }
  render();
  if (S.wrong.size) status(S.wrong.size + (S.wrong.size === 1 ? ' digit is' : ' digits are') + ' wrong (struck through in red).', 'bad');
  else if (empty) status('No mistakes so far. ' + empty + ' cells to go.', 'good');
  else status('Solved. Every digit is right.', 'good');
}

async function solveAll() {
  if (S.mode === 'enter') { await startPlaying(); if (S.mode !== 'play') return; }
  const sol = await solution();
  if (!sol) return;
  const s = fromStr(sol);
  const ch = [];
  for (let i = 0; i < 81; i++) if (S.grid[i] !== s[i] || S.marks[i]) ch.push([i, s[i], 0]);
  if (ch.length) apply(ch);
  S.finished = true;
  render();
  autosave();
  status('Solved by the computer (Undo takes it back).', 'good');
}

function restart() {
  if (S.mode !== 'play') return;
  const ch = [];
  for (let i = 0; i < 81; i++) if ((!S.puzzle[i] && S.grid[i]) || S.marks[i]) ch.push([i, S.puzzle[i], 0]);
  S.finished = false;
  if (ch.length) apply(ch);
  status('Back to the givens.', '');
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
  S.seconds = 0;
  showSource();
  select(0, true);
  autosave();
  status('Type the givens on the board; the verdict follows as you type.', '');
}

let verdictSeq = 0;
async function verdict() {
  const seq = ++verdictSeq;
  try {
    const v = await api('/api/sudoku/validate', { grid: toStr(S.grid) });
    if (seq !== verdictSeq || S.mode !== 'enter') return;
    const kind = v.verdict === 'unique' ? 'good' : v.verdict === 'none' ? 'bad' : '';
    status(v.clues + ' clues. ' + v.message, kind);
  } catch (e) {
    status(e.message, 'bad');
  }
}

async function startPlaying() {
  try {
    const v = await api('/api/sudoku/validate', { grid: toStr(S.grid) });
    if (v.verdict === 'none') { status('Cannot start: ' + v.message, 'bad'); return; }
    let r = null;
    if (v.verdict === 'unique') {
      try { r = await api('/api/sudoku/rate', { grid: toStr(S.grid) }); } catch (e) { /* rating is extra */ }
    }
    newGame(toStr(S.grid), r ? { level: r.level, score: r.score } : null);
    status(v.verdict === 'unique'
      ? 'Your puzzle has exactly one solution' + (r ? ': ' + r.text : '') + '. Play!'
      : 'Your puzzle has several solutions: Check and Solve use one of them.', v.verdict === 'unique' ? 'good' : '');
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
  const src = g.seed ? { seed: g.seed, level: g.level, symmetry: g.symmetry || 'none', index: g.index || 0 } : g.level ? { level: g.level } : null;
  newGame(g.puzzle, src, g.progress, g.marks, g.seconds);
  const more = g.puzzles > 1 ? ' (the first of ' + g.puzzles + ' puzzles)' : '';
  status(what + more + ': ' + g.clues + ' clues. ' + g.message, g.verdict === 'unique' ? 'good' : '');
}

async function save() {
  if (S.mode !== 'play') { status('Start playing first: a puzzle being typed is not saved to a file.', ''); return; }
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
    status('Saved as ' + f.filename + '.', 'good');
  } catch (e) {
    status(e.message, 'bad');
  }
}

// ---- Start ----

function init() {
  // The puzzle to show first is asked for before anything else, so that
  // the request runs while the board is built.
  const q = new URLSearchParams(location.search);
  const shared = q.get('seed');
  let pending = null, first = null;
  if (shared && /^\d+$/.test(shared)) {
    const level = q.get('level') || 'hard';
    const index = Number(q.get('index')) || 0;
    const sym = q.get('symmetry') || 'none';
    const same = restore() && S.source && S.source.seed === shared && S.source.level === level && (S.source.index || 0) === index && (S.source.symmetry || 'none') === sym;
    if (same) first = 'Welcome back: your game is as you left it.';
    else pending = [level, shared, index, sym, requestPuzzle(level, shared, index, sym)];
  } else if (restore()) {
    first = S.mode === 'enter' ? 'Go on typing your puzzle.' : S.finished ? 'Solved. Press New puzzle for another.' : 'Welcome back: your game is as you left it.';
  } else {
    const level = $('level').value;
    pending = [level, '', 0, 'none', requestPuzzle(level)];
  }
  pending && pending[4].catch(() => {}); // handled in generate

  buildBoard();
  $('new').addEventListener('click', () => generate($('level').value, $('seed').value.trim(), 0, $('symmetry').value));
  $('pencil').addEventListener('click', () => { S.pencil = !S.pencil; render(); });
  $('erase').addEventListener('click', () => input(0, false));
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', hint);
  $('check').addEventListener('click', check);
  $('solve').addEventListener('click', solveAll);
  $('restart').addEventListener('click', restart);
  $('enter').addEventListener('click', enterMode);
  $('start').addEventListener('click', startPlaying);
  $('usepaste').addEventListener('click', () => loadText($('paste').value, 'Pasted puzzle'));
  $('paste').addEventListener('paste', () => setTimeout(() => loadText($('paste').value, 'Pasted puzzle'), 0));
  $('save').addEventListener('click', save);
  $('load').addEventListener('change', async (e) => {
    const f = e.target.files && e.target.files[0];
    if (!f) return;
    if (f.size > 60000) { status(f.name + ' is too large for a saved game.', 'bad'); return; }
    await loadText(await f.text(), f.name);
    e.target.value = '';
  });
  document.addEventListener('keydown', (e) => {
    // Keys typed anywhere but in a text field go to the board (the board
    // handles its own).
    const t = e.target;
    if (t.closest('#board') || t.matches('input, textarea, select')) return;
    onKey(e);
  });

  render();
  markReady();
  if (pending) {
    generate(...pending);
  } else {
    markContent();
    status(first, '');
    if (S.mode === 'enter') verdict();
  }
}

init();
