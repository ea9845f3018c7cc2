// How the Morse screens write characters, patterns, dates and percentages, and the band choice.
import { t, locale, number } from './i18n.js';
import { el } from './dom.js';

/**
 * A pattern such as `-.-` drawn as "− · −" for the eye, read as "dah dit dah" by a screen reader.
 */
export function patternView(pattern, attrs = {}) {
  const marks = [...pattern].map((mark) => (mark === '.' ? '·' : '−')).join(' ');
  return el('span', { class: 'morse-pattern', ...attrs },
    el('span', { 'aria-hidden': 'true' }, marks),
    el('span', { class: 'visually-hidden' }, patternWords(pattern)));
}

/** "dah dit dah" in the person's language. */
export function patternWords(pattern) {
  return [...pattern].map((mark) => t(mark === '.' ? 'morse.ui.dit' : 'morse.ui.dah')).join(' ');
}

/** An API instant as a date for the person ("Tuesday, 3 March"). */
export function dateText(iso) {
  return new Intl.DateTimeFormat(locale(), { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(iso));
}

/** 0.953 → "95 %" (or "95%") as the language writes it. */
export function percentText(fraction) {
  return number(fraction, { style: 'percent', maximumFractionDigits: 0 });
}

/** A table that scrolls sideways on a narrow screen (a tab stop, named by `label`, so keys scroll it). */
export function scrollingTable(table, label) {
  return el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label }, table);
}

export const directionName = (direction) => t(`morse.direction.${direction}`);

/** The bands the server renders Morse on (MorseBandConditions.Preset). */
const BANDS = ['clean', 'average-evening', 'contest', 'weak-dx'];

/**
 * A labelled choice of band, `id` for the select (its name too), `value` chosen, with a line on what
 * it changes (`aboutKey`); `changed(value)` keeps the choice.
 */
export function bandField(id, value, aboutKey, changed) {
  const select = el('select', { id, name: id, 'aria-describedby': `${id}-about` },
    ...BANDS.map((band) => el('option', { value: band, selected: band === value ? '' : null },
      t(`morse.ui.qso.band.${band}`))));
  select.addEventListener('change', () => changed(select.value));
  return el('div', { class: 'field' }, el('label', { for: id }, t('morse.ui.qso.band')), select,
    el('p', { class: 'muted', id: `${id}-about` }, t(aboutKey)));
}
