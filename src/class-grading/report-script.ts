/**
 * The class report's one inline script: sort the learners' tables by any column and filter the
 * learners, on a file opened from disk (no network, no framework). Progressive enhancement: without
 * it the report reads as before (every row, sorted by name); the script only adds the controls.
 *
 * `REPORT_LOGIC` is the source of one plain function `(doc, strings) => api` that the report embeds
 * as it is, so the unit test evaluates the very text the browser runs (report-script.test.ts); its
 * pure parts (`cellKey`, `sortOrder`, `matches`, `fold`) take no DOM. Plain ES2017: it is never
 * transpiled, so no build step can slip a helper into it.
 */

export interface ReportScriptStrings {
  /** Label of the text filter. */
  filter: string;
  /** Its hint: what it matches. */
  filterHint: string;
  /** Label of "only below N%". */
  below: string;
  /** Label of "only breaking rule X", and its "any rule" choice. */
  rule: string;
  anyRule: string;
  /** "{shown} of {count} learners shown", placeholders left for the script. */
  shown: string;
  /** "Sorted by {column}, {direction}." */
  sortedBy: string;
  ascending: string;
  descending: string;
  lang: string;
}

export const REPORT_LOGIC = String.raw`function (doc, strings) {
  'use strict';
  /** Case and accents set aside, so "nguyen" finds "Nguyễn" and "tre han" finds "trễ hạn". */
  function fold(text) {
    return String(text).normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[đĐ]/g, 'd').toLowerCase().replace(/\s+/g, ' ').trim();
  }
  /** A cell's sort key: a number ("12", "80.0"; "45/48" as the share 45/48), else its text; null when empty. */
  function cellKey(text) {
    var t = String(text).trim();
    if (t === '') return null;
    var ratio = /^(-?\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(t);
    if (ratio) return Number(ratio[2]) > 0 ? Number(ratio[1]) / Number(ratio[2]) : Number(ratio[1]);
    if (/^-?\d+(?:\.\d+)?$/.test(t)) return Number(t);
    return t;
  }
  /**
   * The order of rows (arrays of cell texts) sorted by column col: numbers before words, empty cells
   * last in either direction, ties in their original order.
   */
  function sortOrder(rows, col, dir, lang) {
    var collator = new Intl.Collator(lang || 'vi', { sensitivity: 'base', numeric: true });
    var sign = dir === 'descending' ? -1 : 1;
    var keyed = rows.map(function (row, index) { return { index: index, key: cellKey(row[col] == null ? '' : row[col]) }; });
    keyed.sort(function (a, b) {
      if (a.key === null || b.key === null) return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
      var an = typeof a.key === 'number';
      var bn = typeof b.key === 'number';
      var c = an && bn ? a.key - b.key : an ? -1 : bn ? 1 : collator.compare(a.key, b.key);
      return c !== 0 ? sign * c : a.index - b.index;
    });
    return keyed.map(function (k) { return k.index; });
  }
  /**
   * Whether a learner's row passes the filter: row { text, percent, broken: ["exercise:rule"] },
   * filter { text, below, rule } (each left empty to let every row through).
   */
  function matches(row, filter) {
    var q = fold(filter.text || '');
    if (q && fold(row.text).indexOf(q) < 0) return false;
    var below = filter.below === '' || filter.below == null ? NaN : Number(filter.below);
    if (isFinite(below) && !(row.percent < below)) return false;
    if (filter.rule && row.broken.indexOf(filter.rule) < 0) return false;
    return true;
  }
  var api = { fold: fold, cellKey: cellKey, sortOrder: sortOrder, matches: matches };
  if (!doc || !doc.querySelector) return api;

  var tables = Array.prototype.slice.call(doc.querySelectorAll('table[data-sortable]'));
  var source = doc.querySelector('table[data-learner-rows]');
  var controls = doc.querySelector('[data-report-controls]');
  if (!tables.length || !source || !controls) return api;

  var status = doc.createElement('p');
  status.setAttribute('role', 'status');
  status.className = 'note';
  var said = { shown: '', sorted: '' };
  function say() { status.textContent = [said.shown, said.sorted].filter(Boolean).join(' '); }

  tables.forEach(function (table) {
    var ths = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var body = table.tBodies[0];
    Array.prototype.forEach.call(body.rows, function (tr, i) { tr.setAttribute('data-index', String(i)); });
    ths.forEach(function (th, col) {
      var button = doc.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (th.firstChild) button.appendChild(th.firstChild);
      var mark = doc.createElement('span');
      mark.setAttribute('aria-hidden', 'true');
      mark.className = 'sort-mark';
      button.appendChild(mark);
      th.appendChild(button);
      button.addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
        var rows = Array.prototype.slice.call(body.rows).sort(function (a, b) { return Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')); });
        var texts = rows.map(function (tr) { return Array.prototype.map.call(tr.cells, function (c) { return c.textContent; }); });
        sortOrder(texts, col, dir, strings.lang).forEach(function (i) { body.appendChild(rows[i]); });
        ths.forEach(function (other) { other.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir);
        said.sorted = strings.sortedBy.replace('{column}', button.textContent.trim()).replace('{direction}', strings[dir]);
        say();
      });
    });
    // The tables come sorted by name.
    ths[0].setAttribute('aria-sort', 'ascending');
  });

  var learners = Array.prototype.map.call(source.tBodies[0].rows, function (tr) {
    return {
      id: tr.getAttribute('data-learner'),
      text: tr.textContent,
      percent: Number(tr.getAttribute('data-percent')),
      broken: (tr.getAttribute('data-broken') || '').split(' ').filter(Boolean),
    };
  });
  var rules = [];
  learners.forEach(function (l) { l.broken.forEach(function (r) { if (rules.indexOf(r) < 0) rules.push(r); }); });
  rules.sort(function (a, b) { return a.localeCompare(b, 'en', { numeric: true }); });

  function field(label, input, hint) {
    var wrap = doc.createElement('p');
    var l = doc.createElement('label');
    l.textContent = label;
    l.htmlFor = input.id;
    wrap.appendChild(l);
    wrap.appendChild(doc.createTextNode(' '));
    wrap.appendChild(input);
    if (hint) {
      var h = doc.createElement('span');
      h.className = 'note';
      h.id = input.id + '-hint';
      h.textContent = ' ' + hint;
      input.setAttribute('aria-describedby', h.id);
      wrap.appendChild(h);
    }
    return wrap;
  }
  var form = doc.createElement('form');
  form.setAttribute('role', 'search');
  form.className = 'filters';
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  var text = doc.createElement('input');
  text.type = 'search';
  text.id = 'filter-text';
  text.setAttribute('data-filter-text', '');
  form.appendChild(field(strings.filter, text, strings.filterHint));
  var below = doc.createElement('input');
  below.type = 'number';
  below.id = 'filter-below';
  below.min = '0';
  below.max = '100';
  below.step = 'any';
  below.setAttribute('data-filter-below', '');
  form.appendChild(field(strings.below, below));
  var rule = doc.createElement('select');
  rule.id = 'filter-rule';
  rule.setAttribute('data-filter-rule', '');
  [''].concat(rules).forEach(function (r) {
    var o = doc.createElement('option');
    o.value = r;
    o.textContent = r ? r.replace(':', ' ') : strings.anyRule;
    rule.appendChild(o);
  });
  if (rules.length) form.appendChild(field(strings.rule, rule));
  controls.appendChild(form);
  controls.appendChild(status);

  function apply() {
    var filter = { text: text.value, below: below.value, rule: rule.value };
    var shown = {};
    var count = 0;
    learners.forEach(function (l) { if (matches(l, filter)) { shown[l.id] = true; count++; } });
    tables.forEach(function (table) {
      Array.prototype.forEach.call(table.tBodies[0].rows, function (tr) { tr.hidden = !shown[tr.getAttribute('data-learner')]; });
    });
    said.shown = strings.shown.replace('{shown}', String(count)).replace('{count}', String(learners.length));
    say();
  }
  [text, below, rule].forEach(function (input) { input.addEventListener('input', apply); });
  apply();
  return api;
}`;

/** The report's `<script>`: the logic applied to the page with its strings (JSON, `<` escaped so nothing closes the tag). */
export function reportScriptTag(strings: ReportScriptStrings): string {
  const json = JSON.stringify(strings).replace(/</g, '\\u003c');
  return `<script>(${REPORT_LOGIC})(document, ${json});</script>`;
}
