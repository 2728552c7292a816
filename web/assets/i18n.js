// i18n.js: the pages' words, from one message catalogue per language
// (i18n/LANG.json, see docs/web.md). The language is the one chosen with
// the switch in the header (kept in this browser), else ?lang=, else the
// first of the browser's languages that has a catalogue, else English.
//
// A catalogue maps a key to a text, with {name} for the values put in; a
// text that depends on a count is an object of plural forms (one, few,
// other: Intl.PluralRules' categories for the language). Elements name
// their text with data-i18n (their text), data-i18n-title,
// data-i18n-aria-label and data-i18n-placeholder. A key missing from a
// catalogue falls back to English.
'use strict';

const LANGS = [
  ['en', 'English'],
  ['ro', 'Română'],
  ['ko', '한국어'],
  ['zh-Hant', '繁體中文'],
  ['id', 'Bahasa Indonesia'],
];
const LANG_KEY = 'nqcount.lang';

// pickLang maps a list of BCP 47 tags to the catalogue that serves them.
function pickLang(tags) {
  for (const tag of tags || []) {
    const t = String(tag).toLowerCase();
    if (t.startsWith('zh')) return 'zh-Hant'; // the one Chinese catalogue
    const base = t.split('-')[0];
    if (base === 'in') return 'id'; // the old code of Indonesian
    for (const [code] of LANGS) if (code.toLowerCase() === base) return code;
  }
  return 'en';
}

const I18N = { lang: 'en', msgs: {}, en: {}, plural: null };

function chosenLang() {
  let stored = null;
  try { stored = localStorage.getItem(LANG_KEY); } catch (e) { stored = null; }
  const q = new URLSearchParams(location.search).get('lang');
  if (q) return pickLang([q]);
  if (stored) return pickLang([stored]);
  return pickLang(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
}

async function loadCatalogue(lang) {
  const r = await fetch('/static/i18n/' + lang + '.json', { cache: 'no-cache' });
  if (!r.ok) throw new Error('catalogue ' + lang + ': HTTP ' + r.status);
  return r.json();
}

// t returns the text of key in the page's language with the values of
// params put in; params.n (when the text has plural forms) picks the form.
function t(key, params) {
  let m = I18N.msgs[key];
  if (m === undefined) m = I18N.en[key];
  if (m === undefined) return key;
  if (typeof m === 'object') {
    const n = params && typeof params.n === 'number' ? params.n : 0;
    m = m[I18N.plural.select(n)] || m.other;
  }
  return m.replace(/\{(\w+)\}/g, (all, name) => {
    if (!params || !(name in params)) return all;
    const v = params[name];
    return typeof v === 'number' ? fmtNum(v) : String(v);
  });
}

// marked returns a text's nodes, its [key] names as <kbd> and its
// `command` words as <code> (a text with markup, built without HTML).
function marked(text) {
  const out = [];
  const re = /\[([^\]]+)\]|`([^`]+)`/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    const e = document.createElement(m[1] !== undefined ? 'kbd' : 'code');
    e.textContent = m[1] !== undefined ? m[1] : m[2];
    out.push(e);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

// fmtNum writes a number the language's way (digit groups).
function fmtNum(v) {
  return typeof v === 'bigint' || typeof v === 'number' ? v.toLocaleString(I18N.lang) : String(v);
}

// applyI18n puts the catalogue's texts into the elements under root that
// name them.
function applyI18n(root) {
  root = root || document;
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-marked]')) e.replaceChildren(...marked(t(e.dataset.i18nMarked)));
  for (const [attr, data] of [['title', 'i18nTitle'], ['aria-label', 'i18nAriaLabel'], ['placeholder', 'i18nPlaceholder']]) {
    for (const e of root.querySelectorAll('[data-i18n-' + attr + ']')) e.setAttribute(attr, t(e.dataset[data]));
  }
}

// The switch: a select in the header; choosing reloads the page in the
// new language (the Sudoku game is kept in this browser; the n-queens
// page starts its search again).
function buildSwitch() {
  const nav = document.querySelector('header.top');
  if (!nav || document.getElementById('lang')) return;
  const label = document.createElement('label');
  label.className = 'langsw';
  const span = document.createElement('span');
  span.className = 'sr-only';
  span.dataset.i18n = 'lang.label';
  const sel = document.createElement('select');
  sel.id = 'lang';
  for (const [code, name] of LANGS) {
    const o = document.createElement('option');
    o.value = code;
    o.lang = code;
    o.textContent = name;
    sel.append(o);
  }
  sel.value = I18N.lang;
  sel.addEventListener('change', () => {
    try { localStorage.setItem(LANG_KEY, sel.value); } catch (e) { /* private mode: this page only */ }
    const u = new URL(location.href);
    u.searchParams.delete('lang');
    if (!localStorageWorks()) u.searchParams.set('lang', sel.value);
    location.replace(u.toString());
  });
  label.append(span, sel);
  nav.append(label);
}

function localStorageWorks() {
  try { localStorage.setItem('nqcount.test', '1'); localStorage.removeItem('nqcount.test'); return true; } catch (e) { return false; }
}

// i18nReady resolves once the catalogue is loaded and the page's static
// texts are in its language.
const i18nReady = (async () => {
  const lang = chosenLang();
  try {
    I18N.en = await loadCatalogue('en');
    I18N.msgs = lang === 'en' ? I18N.en : await loadCatalogue(lang).catch(() => I18N.en);
    I18N.lang = I18N.msgs === I18N.en ? 'en' : lang;
  } catch (e) {
    I18N.msgs = {};
  }
  I18N.plural = new Intl.PluralRules(I18N.lang);
  document.documentElement.lang = I18N.lang;
  if (document.readyState === 'loading') await new Promise((ok) => document.addEventListener('DOMContentLoaded', ok, { once: true }));
  buildSwitch();
  applyI18n(document);
  document.documentElement.dataset.i18n = I18N.lang;
})();
