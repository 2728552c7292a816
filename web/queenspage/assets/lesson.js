// lesson.js: the n-queens search of the lesson, one step of the textbook
// algorithm at a time (see docs/web.md):
//
//   search(k):                          k queens on the board
//     if every row has a queen: report a solution; return
//     r = the next row to fill
//     for c = 1 … n: if col[c], d1[r+c] and d2[r−c+n] are all free:
//       place a queen on (r, c); col[c] = d1[r+c] = d2[r−c+n] = true
//       search(k + 1)
//       take the queen off (r, c); col[c] = d1[r+c] = d2[r−c+n] = false
//     no column left in r: return to the caller
//
// Rows and columns are numbered from 1 here as on the page; the events
// carry them from 0. With mistake set the search forgets the clearing
// line: the marks stay after the queen is taken back.
//
// No DOM here: the page plays the events, and the browser tests run the
// same machine to check it against a plain recursive search.
'use strict';

// The kinds of step, each a line of the algorithm.
const STEP = { CALL: 0, FOUND: 1, CHOOSE: 2, CHECK: 3, PLACE: 4, RECURSE: 5, UNCHOOSE: 6, RETURN: 7 };
const STEP_NAMES = ['call', 'found', 'choose', 'check', 'place', 'recurse', 'unchoose', 'return'];
// Bits of a CHECK step: which look-ups found a mark, and whether a mark
// found is stale (no queen on the board is on that line: the mistake).
const HIT_COL = 1, HIT_D1 = 2, HIT_D2 = 4, ASTRAY = 8;
const LOOK_ROWS = 6; // rows the kernels compare (package kernel's Look)

// An event is packed in an int: kind, row, column, frame (the queens on
// the board when its call was made), check bits.
const packStep = (k, r, c, d, f) => k | (r << 3) | (c << 8) | (d << 13) | (f << 18);
const unpackStep = (v) => [v & 7, (v >> 3) & 31, (v >> 8) & 31, (v >> 13) & 31, (v >> 18) & 15];

// The indices of the three look-ups of square (r, c), from 0, as the page
// shows them (numbered from 1): col[c+1], d1[r+c+2], d2[r−c+n].
function lookups(n, r, c) {
  return [c + 1, r + c + 2, r - c + n];
}

// Search is the algorithm as a machine that yields one packed event per
// next() call, 0 … then -1 at the end. order is 'topdown' or
// 'constrained' (of the next LOOK_ROWS free rows, the one with the fewest
// open squares: the counting kernels' order).
class Search {
  constructor(n, order, mistake) {
    this.n = n;
    this.order = order || 'topdown';
    this.mistake = !!mistake;
    this.col = new Uint8Array(n + 1);
    this.d1 = new Uint8Array(2 * n + 1);
    this.d2 = new Uint8Array(2 * n + 1);
    this.board = new Int8Array(n).fill(-1);
    this.fRow = new Int8Array(n + 1);
    this.fCol = new Int8Array(n + 1);
    this.fPhase = new Uint8Array(n + 1); // 0 enter, 1 loop, 2 place, 3 recurse, 4 unchoose, 5 done
    this.depth = -1; // the frame on top; -1 before the first call
    this.ended = false;
  }

  // free says whether the arrays leave (r, c) open, from 0.
  hits(r, c) {
    const [a, b, d] = lookups(this.n, r, c);
    return (this.col[a] ? HIT_COL : 0) | (this.d1[b] ? HIT_D1 : 0) | (this.d2[d] ? HIT_D2 : 0);
  }

  // attacked says whether a queen on the board attacks (r, c): what the
  // marks mean when they are kept right.
  attacked(r, c) {
    for (let qr = 0; qr < this.n; qr++) {
      const qc = this.board[qr];
      if (qc < 0) continue;
      if (qc === c || qr + qc === r + c || qr - qc === r - c) return true;
    }
    return false;
  }

  openCount(r) {
    let k = 0;
    for (let c = 0; c < this.n; c++) if (!this.hits(r, c)) k++;
    return k;
  }

  nextRow(k) {
    if (this.order !== 'constrained') return k;
    let best = 99, r = -1, seen = 0;
    for (let row = 0; row < this.n && seen < LOOK_ROWS; row++) {
      if (this.board[row] >= 0) continue;
      seen++;
      const o = this.openCount(row);
      if (o === 0) return row;
      if (o < best) { best = o; r = row; }
    }
    return r;
  }

  mark(r, c, v) {
    const [a, b, d] = lookups(this.n, r, c);
    this.col[a] = v;
    this.d1[b] = v;
    this.d2[d] = v;
  }

  next() {
    if (this.ended) return -1;
    if (this.depth < 0) {
      this.depth = 0;
      this.fPhase[0] = 0;
      return packStep(STEP.CALL, 0, 0, 0, 0);
    }
    for (;;) {
      const k = this.depth;
      switch (this.fPhase[k]) {
        case 0: // enter
          if (k === this.n) {
            this.fPhase[k] = 5;
            return packStep(STEP.FOUND, this.fRow[k - 1], this.fCol[k - 1], k, 0);
          }
          this.fRow[k] = this.nextRow(k);
          this.fCol[k] = 0;
          this.fPhase[k] = 1;
          return packStep(STEP.CHOOSE, this.fRow[k], 0, k, 0);
        case 1: { // loop: check the next column, or return
          const r = this.fRow[k], c = this.fCol[k];
          if (c === this.n) {
            this.fPhase[k] = 5;
            return packStep(STEP.RETURN, r, 0, k, 0);
          }
          let f = this.hits(r, c);
          if (f && this.mistake && !this.attacked(r, c)) f |= ASTRAY;
          if (f) this.fCol[k]++;
          else this.fPhase[k] = 2;
          return packStep(STEP.CHECK, r, c, k, f);
        }
        case 2: { // place
          const r = this.fRow[k], c = this.fCol[k];
          this.board[r] = c;
          this.mark(r, c, 1);
          this.fPhase[k] = 3;
          return packStep(STEP.PLACE, r, c, k, 0);
        }
        case 3: { // recurse
          this.fPhase[k] = 4;
          this.depth = k + 1;
          this.fPhase[k + 1] = 0;
          return packStep(STEP.RECURSE, this.fRow[k], this.fCol[k], k, 0);
        }
        case 4: { // back from the call: unchoose
          const r = this.fRow[k], c = this.fCol[k];
          this.board[r] = -1;
          if (!this.mistake) this.mark(r, c, 0);
          this.fCol[k]++;
          this.fPhase[k] = 1;
          return packStep(STEP.UNCHOOSE, r, c, k, 0);
        }
        default: // done: back to the caller
          if (k === 0) { this.ended = true; return -1; }
          this.depth = k - 1;
      }
    }
  }
}

// summarize runs a whole search and counts its work: steps, queens placed,
// solutions, the deepest call stack, the nodes of each level, and the
// first step that goes astray (-1: none).
function summarize(n, order, mistake, maxSteps) {
  const s = new Search(n, order, mistake);
  const sum = { steps: 0, nodes: 0, solutions: 0, returns: 0, maxFrames: 0, levels: new Array(n + 1).fill(0), astray: -1, astrayEvent: 0, complete: true };
  sum.levels[0] = 1;
  for (let v; (v = s.next()) >= 0; ) {
    sum.steps++;
    const k = v & 7;
    if (k === STEP.PLACE) { sum.nodes++; sum.levels[((v >> 13) & 31) + 1]++; }
    else if (k === STEP.FOUND) sum.solutions++;
    else if (k === STEP.RETURN) sum.returns++;
    else if (k === STEP.RECURSE) sum.maxFrames = Math.max(sum.maxFrames, ((v >> 13) & 31) + 2);
    else if (k === STEP.CHECK && (v >> 18) & ASTRAY && sum.astray < 0) { sum.astray = sum.steps; sum.astrayEvent = v; }
    if (maxSteps && sum.steps >= maxSteps) { sum.complete = false; break; }
  }
  sum.maxFrames = Math.max(sum.maxFrames, 1);
  return sum;
}

// smallTree returns the search tree of an n × n board (n small) as nodes
// {id, parent, depth, row, col, dead, sol, kids} in depth-first order:
// the tree both the depth-first and the breadth-first walks visit.
function smallTree(n) {
  const nodes = [{ id: 0, parent: -1, depth: 0, row: -1, col: -1, kids: [], dead: false, sol: false }];
  const s = new Search(n, 'topdown', false);
  const path = [0];
  for (let v; (v = s.next()) >= 0; ) {
    const [k, r, c, d] = unpackStep(v);
    if (k === STEP.PLACE) {
      const id = nodes.length;
      nodes.push({ id, parent: path[d], depth: d + 1, row: r, col: c, kids: [], dead: false, sol: false });
      nodes[path[d]].kids.push(id);
      path[d + 1] = id;
    } else if (k === STEP.FOUND) {
      for (let i = 0; i <= n; i++) nodes[path[i]].sol = true;
    } else if (k === STEP.RETURN && d > 0) {
      nodes[path[d]].dead = nodes[path[d]].kids.length === 0;
    }
  }
  return nodes;
}

// walks returns the visit orders of the tree's nodes, depth first and
// breadth first, with what each holds in memory at every visit: the
// stack of calls (the path from the root) against the queue of nodes
// waiting (a whole level and more).
function walks(nodes) {
  const dfs = [], bfs = [];
  const stackAt = [], queueAt = [];
  const visit = (id, path) => {
    dfs.push(id);
    stackAt.push(path.concat(id));
    for (const k of nodes[id].kids) visit(k, path.concat(id));
  };
  visit(0, []);
  const q = [0];
  while (q.length) {
    const id = q.shift();
    bfs.push(id);
    for (const k of nodes[id].kids) q.push(k);
    queueAt.push(q.slice());
  }
  return { dfs, bfs, stackAt, queueAt };
}

if (typeof module !== 'undefined') module.exports = { STEP, STEP_NAMES, HIT_COL, HIT_D1, HIT_D2, ASTRAY, packStep, unpackStep, lookups, Search, summarize, smallTree, walks };
