// theme.js: the theme chosen with the switch of the Sudoku page, kept in
// this browser (nqcount.theme: 'light', 'dark', or 'auto' for the
// system's), applied to every page before it is drawn, and followed when
// another tab changes it. Loaded in the head, not deferred.
'use strict';

(() => {
  const KEY = 'nqcount.theme';
  const apply = (t) => {
    if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
    else delete document.documentElement.dataset.theme;
  };
  try { apply(localStorage.getItem(KEY)); } catch (e) { /* no storage: the system's */ }
  window.addEventListener('storage', (e) => { if (e.key === KEY) apply(e.newValue); });
})();
