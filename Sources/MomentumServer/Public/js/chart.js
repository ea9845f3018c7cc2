// A simple horizontal SVG bar chart: one row per entry (label above its bar, value after it).
// The SVG is one image whose accessible name lists every value, so nothing is only visual.
import { listText, number } from './i18n.js';
import { el, svg } from './dom.js';

const WIDTH = 240;
const ROW = 36;

/** `rows`: [{ label, value (number), text (the value as shown) }]. */
export function barChart({ id, title, rows }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const image = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${rows.length * ROW}`, class: 'bars', role: 'img', id: `${id}-svg`,
    'aria-label': `${title}: ${listText(rows.map((r) => `${r.label} ${r.text}`))}`,
  });
  rows.forEach((row, i) => {
    const y = i * ROW;
    const width = Math.max(2, (row.value / max) * (WIDTH - 92));
    image.append(
      svg('text', { x: 0, y: y + 12, class: 'label' }, row.label),
      svg('rect', { x: 0, y: y + 17, width: width.toFixed(1), height: 12, rx: 3, class: 'bar' }),
      svg('text', { x: (width + 6).toFixed(1), y: y + 27, class: 'value' }, row.text));
  });
  return el('figure', { class: 'chart', id, 'data-testid': id },
    el('figcaption', { id: `${id}-title` }, title),
    image);
}

const COLUMN = 26;
const PLOT = 100;
const AXIS = 46;

/**
 * A column chart of fractions 0…1 (e.g. accuracy per character): one labelled column each, with
 * 0, 50 and 100 % lines. Wide charts scroll sideways inside their figure (a tab stop, so the
 * keyboard can scroll too). `columns`: [{ label, value (0…1), text (the value as said) }].
 */
export function columnChart({ id, title, columns }) {
  const width = AXIS + columns.length * COLUMN;
  const image = svg('svg', {
    viewBox: `0 0 ${width} ${PLOT + 40}`, width, height: PLOT + 40, class: 'columns', role: 'img', id: `${id}-svg`,
    'aria-label': `${title}: ${listText(columns.map((c) => `${c.label} ${c.text}`))}`,
  });
  for (const fraction of [0, 0.5, 1]) {
    const y = 8 + PLOT * (1 - fraction);
    image.append(
      svg('line', { x1: AXIS - 4, x2: width, y1: y, y2: y, class: 'grid' }),
      svg('text', { x: AXIS - 8, y: y + 4, class: 'axis' }, number(fraction, { style: 'percent' })));
  }
  columns.forEach((column, i) => {
    const x = AXIS + i * COLUMN + 4;
    const height = Math.max(2, Math.min(1, column.value) * PLOT);
    image.append(
      svg('rect', { x, y: (8 + PLOT - height).toFixed(1), width: COLUMN - 8, height: height.toFixed(1), rx: 3, class: 'bar' }),
      svg('text', { x: x + (COLUMN - 8) / 2, y: PLOT + 30, class: 'label' }, column.label));
  });
  return el('figure', { class: 'chart column-chart', id, 'data-testid': id },
    el('figcaption', { id: `${id}-title` }, title),
    el('div', { class: 'chart-scroll', tabindex: '0', role: 'group', 'aria-labelledby': `${id}-title` }, image));
}
