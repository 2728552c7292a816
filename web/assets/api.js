// api.js: the one helper both pages use to talk to the server's JSON API
// (see docs/web.md). Errors come back as {"error": "..."}; api throws them
// as Error objects with that message.
'use strict';

async function api(path, body, method) {
  const opt = { method: method || (body === undefined ? 'GET' : 'POST'), headers: {} };
  if (body !== undefined) {
    opt.headers['Content-Type'] = 'application/json';
    opt.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, opt);
  } catch (e) {
    throw new Error('the server does not answer (is the command still running?)');
  }
  let data;
  try {
    data = await r.json();
  } catch (e) {
    data = { error: 'unreadable answer from the server (HTTP ' + r.status + ')' };
  }
  if (!r.ok) throw new Error(data.error || 'HTTP ' + r.status);
  return data;
}

// el makes an element: el('button', {class: 'x', text: 'Go'}, child...).
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// plural writes a count and its noun: "1 clue", "1,234 clues".
function plural(n, one, many) {
  return n.toLocaleString('en') + ' ' + (n === 1 ? one : many || one + 's');
}

function fmtTime(s) {
  s = Math.max(0, Math.floor(s));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = s % 60;
  const two = (x) => String(x).padStart(2, '0');
  return h > 0 ? h + ':' + two(m) + ':' + two(ss) : m + ':' + two(ss);
}

// The page is interactive: every handler is attached. The browser tests
// measure the time to this mark.
function markReady() {
  if (window.performance && performance.mark) performance.mark('nqcount-ready');
  document.body.dataset.ready = '1';
}

// The page shows its first content (a puzzle, a search). Marked once.
function markContent() {
  if (document.body.dataset.content) return;
  if (window.performance && performance.mark) performance.mark('nqcount-content');
  document.body.dataset.content = '1';
}
