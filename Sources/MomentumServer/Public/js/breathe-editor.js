// The breathing preset editor: name, the four phases in seconds (half-second steps) and rounds.
// POST makes a new preset, PUT changes one (a built-in is kept and saved as a copy by the
// server). The server checks the values; its message shows beside the field it is about.
import { api } from './api.js';
import { t, boundAttributes, fieldBounds } from './i18n.js';
import { el, field } from './dom.js';
import { submitForm } from './form-errors.js';

// [input id, label key and bounds id (the catalog's `forms`), the preset's field]
const PHASES = [
  ['b-inhale', 'breathing.inhale', 'inhaleMs'],
  ['b-hold-in', 'breathing.holdAfterInhale', 'holdAfterInhaleMs'],
  ['b-exhale', 'breathing.exhale', 'exhaleMs'],
  ['b-hold-out', 'breathing.holdAfterExhale', 'holdAfterExhaleMs'],
];

/** `preset` is `{}` for a new one; `on.saved(preset)` and `on.cancel()` are called back. */
export function presetEditor(preset, on) {
  const isNew = !preset.id;
  const title = isNew ? t('breathing.newPreset') : t('breathing.editPreset');
  // No maxlength: a name over the limit is refused with the limit, never cut while typing.
  const name = el('input', { type: 'text', id: 'b-name', name: 'name', autocomplete: 'off', value: isNew ? '' : preset.name });
  const grid = el('div', { class: 'form-grid' });
  for (const [id, key, prop] of PHASES) {
    const seconds = preset[prop] != null ? preset[prop] / 1000 : fieldBounds(key).default;
    grid.append(field(id, t(key), el('input', { type: 'number', id, name: id, ...boundAttributes(key), value: seconds, inputmode: 'decimal' }), t('meditate.secondsUnit')));
  }
  grid.append(field('b-rounds', t('breathing.rounds'), el('input', { type: 'number', id: 'b-rounds', name: 'rounds', ...boundAttributes('breathing.rounds'), value: preset.rounds ?? fieldBounds('breathing.rounds').default, inputmode: 'numeric' })));
  const error = el('p', { class: 'error', id: 'b-error', role: 'alert', hidden: '' });
  const cancel = el('button', { type: 'button', class: 'secondary', id: 'b-cancel' }, t('action.cancel'));
  cancel.addEventListener('click', () => on.cancel());
  // novalidate: the server's message (in the person's language) explains what is out of bounds.
  const form = el('form', { class: 'form card editor', id: 'b-editor', novalidate: '', 'aria-labelledby': 'b-editor-title' },
    el('h2', { id: 'b-editor-title' }, title),
    preset.isBuiltIn ? el('p', { class: 'muted' }, t('breathing.builtInCopy')) : null,
    field('b-name', t('breathing.name'), name),
    grid,
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: 'b-save' }, t('action.save')), cancel));
  form.addEventListener('keydown', (event) => { if (event.key === 'Escape') on.cancel(); });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = (id) => form.querySelector(`#${id}`).value.trim();
    const rounds = Number.parseInt(value('b-rounds'), 10);
    const body = {
      name: value('b-name'),
      pattern: PHASES.map(([id]) => value(id)).join('-'),
      rounds: Number.isFinite(rounds) ? rounds : 0,
    };
    let result;
    const sent = await submitForm(form, error, {
      name, rounds: form.querySelector('#b-rounds'), inhaleMs: form.querySelector('#b-inhale'), exhaleMs: form.querySelector('#b-exhale'),
    }, async () => {
      result = isNew
        ? await api('/breathing/presets', { method: 'POST', body })
        : await api(`/breathing/presets/${encodeURIComponent(preset.id)}`, { method: 'PUT', body });
    });
    if (sent) on.saved(result);
  });
  return form;
}
