// The course settings (GET/PATCH /morse/settings): speeds, tone, Koch order and session length.
// A summary line with "Change settings"; the form sends only what changed, and the server checks
// every value — its message (in the person's language) shows beside the field it is about.
import { api } from './api.js';
import { t, number, boundAttributes } from './i18n.js';
import { el, field, announce } from './dom.js';
import { submitForm } from './form-errors.js';

let editing = false;

/** `on.changed(focusId)` redraws the overview after a save or when the form opens or closes. */
export function settingsCard(settings, on) {
  const card = el('section', { class: 'card', id: 'mo-settings', 'aria-labelledby': 'mo-settings-title' },
    el('h2', { id: 'mo-settings-title' }, t('morse.ui.settingsTitle')));
  if (!editing) {
    const edit = el('button', { type: 'button', class: 'secondary', id: 'mo-settings-edit' }, t('morse.ui.settingsEdit'));
    edit.addEventListener('click', () => { editing = true; on.changed('mo-char-wpm'); });
    card.append(el('p', { id: 'mo-settings-summary' }, summary(settings)), el('div', { class: 'actions' }, edit));
    return card;
  }
  card.append(form(settings, on));
  return card;
}

function summary(s) {
  return t('morse.ui.settingsSummary', {
    wpm: number(s.characterWPM), effective: number(s.effectiveWPM), hertz: number(s.toneHertz),
    rise: number(s.riseMilliseconds), order: t(`morse.ui.order.${s.order}`), minutes: number(s.sessionSeconds / 60, { maximumFractionDigits: 1 }),
  });
}

/** A number input with the bounds of the catalog's field `bounds` (the core's MorseCourseSettings). */
function numberInput(id, value, bounds) {
  return el('input', { type: 'number', id, name: id, value, ...boundAttributes(bounds), inputmode: 'decimal' });
}

function form(s, on) {
  const inputs = {
    characterWPM: numberInput('mo-char-wpm', s.characterWPM, 'morse.characterWPM'),
    effectiveWPM: numberInput('mo-eff-wpm', s.effectiveWPM, 'morse.effectiveWPM'),
    toneHertz: numberInput('mo-tone', s.toneHertz, 'morse.toneHertz'),
    riseMilliseconds: numberInput('mo-rise', s.riseMilliseconds, 'morse.riseMilliseconds'),
    sessionMinutes: numberInput('mo-minutes', s.sessionSeconds / 60, 'morse.sessionMinutes'),
  };
  const order = el('select', { id: 'mo-order', name: 'order' },
    ...['standard', 'extended'].map((o) => el('option', { value: o, ...(o === s.order ? { selected: '' } : {}) }, t(`morse.ui.orderOption.${o}`))));
  const error = el('p', { class: 'error', id: 'mo-settings-error', role: 'alert', hidden: '' });
  const cancel = el('button', { type: 'button', class: 'secondary', id: 'mo-settings-cancel' }, t('action.cancel'));
  cancel.addEventListener('click', () => { editing = false; on.changed('mo-settings-edit'); });
  // novalidate: the server says what is out of bounds, in the person's language.
  const node = el('form', { class: 'form', id: 'mo-settings-form', novalidate: '' },
    el('div', { class: 'form-grid' },
      field('mo-char-wpm', t('morse.ui.characterSpeed'), inputs.characterWPM, t('morse.ui.wpm')),
      field('mo-eff-wpm', t('morse.ui.effectiveSpeed'), inputs.effectiveWPM, t('morse.ui.wpm')),
      field('mo-tone', t('morse.ui.tone'), inputs.toneHertz, t('morse.ui.hertz')),
      field('mo-rise', t('morse.ui.rise'), inputs.riseMilliseconds, t('morse.ui.milliseconds')),
      field('mo-order', t('morse.ui.order'), order),
      field('mo-minutes', t('morse.ui.sessionLength'), inputs.sessionMinutes, t('meditate.minutesUnit'))),
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: 'mo-settings-save' }, t('action.save')), cancel));
  node.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') { event.preventDefault(); cancel.click(); }
  });
  node.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    const wanted = {
      characterWPM: Number(inputs.characterWPM.value),
      effectiveWPM: Number(inputs.effectiveWPM.value),
      toneHertz: Number(inputs.toneHertz.value),
      riseMilliseconds: Number(inputs.riseMilliseconds.value),
      order: order.value,
      sessionSeconds: Math.round(Number(inputs.sessionMinutes.value) * 60),
    };
    // Only what changed, so a value another device set meanwhile is not overwritten.
    const patch = Object.fromEntries(Object.entries(wanted).filter(([key, value]) => value !== s[key]));
    const sent = await submitForm(node, error, { ...inputs, sessionSeconds: inputs.sessionMinutes, order }, async () => {
      if (Object.keys(patch).length) await api('/morse/settings', { method: 'PATCH', body: patch });
    });
    if (!sent) return;
    editing = false;
    await on.changed('mo-settings-edit');
    announce(t('morse.ui.settingsSaved'));
  });
  return node;
}
