// How a keyed answer was keyed (the core's MorseKeyingReport, sent as `lastKeying` after a send
// answer and as `report` by POST /morse/decode): speed, the weight of the dahs and the gaps in the
// sender's own dits next to the ARRL model's, and the characters that came out wrong and why.
import { t, number } from './i18n.js';
import { el } from './dom.js';

const one = (value) => (value == null ? '–' : number(value, { maximumFractionDigits: 1 }));

/** The report as a block of text; `id` names it for tests and screen readers. */
export function keyingView(report, id = 'mo-keying') {
  const lines = [
    el('p', {}, t(report.ditDahRatio == null ? 'morse.keying.speed' : 'morse.keying.summary',
      { wpm: number(report.wpm, { maximumFractionDigits: 0 }), ratio: one(report.ditDahRatio) })),
  ];
  // Only the gaps the keying had (a lone character has no gap between characters).
  const gaps = [['elementGap', 'morse.keying.gapElement'], ['characterGap', 'morse.keying.gapCharacter'], ['wordGap', 'morse.keying.gapWord']]
    .filter(([field]) => report[field] != null)
    .map(([field, key]) => t(key, { value: one(report[field]) }));
  if (gaps.length) lines.push(el('p', { class: 'muted' }, t('morse.keying.spacing', { gaps: gaps.join(t('morse.keying.list')) })));
  if (report.characters.length) {
    lines.push(el('ul', { class: 'morse-diagnoses' }, ...report.characters.map((c) => el('li', {},
      t(c.readAs === c.expected ? 'morse.keying.because' : 'morse.keying.readsAs', {
        expected: c.expected, read: c.readAs,
        reason: c.reasons.map((r) => t(`morse.keying.reason.${r}`)).join(t('morse.keying.and')),
      })))));
  }
  return el('div', { class: 'morse-keying', id }, ...lines);
}
