// A simple horizontal SVG bar chart: one row per entry (label above its bar, value after it).
// The SVG is one image whose accessible name lists every value, so nothing is only visual.
import { listText } from './i18n.js';
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
