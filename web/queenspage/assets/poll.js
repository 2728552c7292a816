// poll.js: a worker that asks the server for the live n-queens count's
// progress twice a second while the count runs, for the n-queens page.
// The server stops a count nobody asks about for a few seconds (work
// ends with the page that started it); a worker's timers keep going while
// the page is hidden, where the browser would slow the page's own timers
// to one a minute.
'use strict';

let timer = 0;

onmessage = (e) => {
  clearTimeout(timer);
  if (e.data === 'start') tick();
};

async function tick() {
  let r, p;
  try {
    r = await fetch('/api/queens/count', { credentials: 'same-origin', cache: 'no-store' });
    p = await r.json();
  } catch (err) {
    postMessage({ error: 'the server does not answer (is the command still running?)' });
    return;
  }
  if (!r.ok) {
    postMessage({ error: p.error || 'HTTP ' + r.status });
    return;
  }
  postMessage({ progress: p });
  if (p.state === 'running' || p.state === 'planning') timer = setTimeout(tick, 500);
}
