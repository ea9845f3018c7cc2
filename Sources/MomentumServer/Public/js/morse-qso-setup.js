// QSO practice on the Morse overview: the person's call sign (GET/PUT /morse/call-sign), what the
// contact exchanges (four styles, each with a line on what is sent), who calls CQ, and Start.
// The server checks the call sign and refuses a contact without one; its message shows here.
import { api } from './api.js';
import { t, number, errorText, boundAttributes } from './i18n.js';
import { el, field, announce } from './dom.js';
import { bandField } from './morse-text.js';

export const STYLES = ['firstContact', 'signalReport', 'contest', 'ragChew'];
const MODES = ['call', 'answer'];

/** The last choice, kept while the page is open (a redraw or "New contact" reuses it). */
export const choice = { style: 'firstContact', mode: 'answer', conditions: 'clean' };

/**
 * The QSO card. `callSign` is the saved one (or null); `on.start({style, mode})` starts a contact
 * and rejects with the server's refusal.
 */
/** Whether "Try a contact anyway" was opened on this page (kept across redraws). */
let triedEarly = false;

export function qsoCard(callSign, on, progress) {
  let saved = callSign || '';
  const card = el('section', { class: 'card morse-qso-setup', id: 'mo-qso-setup', 'aria-labelledby': 'mo-qso-setup-title' },
    el('h2', { id: 'mo-qso-setup-title' }, t('morse.ui.qso.title')),
    el('p', { class: 'muted' }, t('morse.ui.qso.intro')));
  // Offered from the level where a contact makes sense (the core's MorseQSOReadiness); before
  // that the card says why, and the contact is one tap further (issue 39).
  const qso = progress && progress.qso;
  const early = qso && !qso.isRecommended;

  // The call sign: its own small form, so it can be saved without starting a contact.
  const call = el('input', {
    type: 'text', id: 'mo-qso-call', name: 'callSign', value: saved, autocomplete: 'off', autocapitalize: 'characters',
    autocorrect: 'off', spellcheck: 'false', ...boundAttributes('qso.callSign'), 'aria-describedby': 'mo-qso-call-none',
  });
  const none = el('p', { class: 'muted', id: 'mo-qso-call-none', hidden: saved ? '' : null }, t('morse.ui.qso.callSignNone'));
  const callError = el('p', { class: 'error', id: 'mo-qso-call-error', role: 'alert', hidden: '' });
  const callForm = el('form', { class: 'morse-qso-call', id: 'mo-qso-call-form', novalidate: '' },
    el('label', { for: 'mo-qso-call' }, t('morse.ui.qso.callSign')),
    el('div', { class: 'inline' }, call,
      el('button', { type: 'submit', class: 'secondary', id: 'mo-qso-call-save' }, t('morse.ui.qso.callSignSave'))),
    none, callError);

  /** Saves the field when it differs from what is stored; resolves false (message shown) when refused. */
  async function saveCallSign() {
    const wanted = call.value.trim().toUpperCase();
    if (wanted === saved) return true;
    callError.hidden = true;
    try {
      const answer = await api('/morse/call-sign', { method: 'PUT', body: { callSign: wanted || null } });
      saved = answer.callSign || '';
    } catch (failure) {
      callError.textContent = errorText(failure);
      callError.hidden = false;
      call.focus();
      return false;
    }
    call.value = saved;
    none.hidden = !!saved;
    if (saved) error.hidden = true; // "needs your call sign" no longer holds
    announce(saved ? t('morse.ui.qso.callSignSaved', { call: saved }) : t('morse.ui.qso.callSignCleared'));
    return true;
  }
  callForm.addEventListener('submit', (event) => {
    event.preventDefault();
    saveCallSign();
  });

  // Style and mode: radio groups; each style says what the contact exchanges.
  const styles = el('fieldset', { class: 'morse-qso-choices', id: 'mo-qso-styles' },
    el('legend', {}, t('morse.ui.qso.style')),
    ...STYLES.map((style) => radio('mo-qso-style', 'qso-style', style, choice.style,
      t(`morse.ui.qso.style.${style}`), t(`morse.ui.qso.style.${style}.about`))));
  const modes = el('fieldset', { class: 'morse-qso-choices two', id: 'mo-qso-modes' },
    el('legend', {}, t('morse.ui.qso.mode')),
    ...MODES.map((mode) => radio('mo-qso-mode', 'qso-mode', mode, choice.mode, t(`morse.ui.qso.mode.${mode}`))));
  const band = bandField('mo-qso-band', choice.conditions, 'morse.ui.qso.bandAbout', (value) => { choice.conditions = value; });
  const error = el('p', { class: 'error', id: 'mo-qso-error', role: 'alert', hidden: '' });
  const start = el('button', { type: 'submit', class: 'primary', id: 'mo-qso-start' }, t('morse.ui.qso.start'));
  const form = el('form', { class: 'form', id: 'mo-qso-form', novalidate: '' },
    styles, modes, band, error, el('div', { class: 'actions' }, start));

  form.addEventListener('change', (event) => {
    if (event.target.name === 'qso-style') choice.style = event.target.value;
    if (event.target.name === 'qso-mode') choice.mode = event.target.value;
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    on.unlock();
    error.hidden = true;
    start.disabled = true;
    try {
      if (!(await saveCallSign())) return;
      await on.start({ ...choice });
    } catch (failure) {
      error.textContent = errorText(failure);
      error.hidden = false;
      // Without a call sign the way on is the call sign field.
      if (!saved) call.focus();
    } finally {
      if (start.isConnected) start.disabled = false;
    }
  });

  // Once opened, it stays open for this page (back from a contact, Start has the focus again).
  const tryAnyway = early && el('details', { id: 'mo-qso-try', ...(triedEarly ? { open: '' } : {}) },
    el('summary', {}, t('morse.ui.qso.tryAnyway')), callForm, form);
  if (early) {
    card.append(
      el('p', { id: 'mo-qso-later' }, t('morse.ui.qso.later', {
        level: number(qso.recommendedLevel), count: number(progress.receive.levelCount), current: number(progress.receive.level),
      })),
      tryAnyway);
    tryAnyway.addEventListener('toggle', () => { triedEarly = tryAnyway.open; });
  } else {
    card.append(callForm, form);
  }
  return card;
}

/** One radio with its label (and a description the screen reader reads with it). */
function radio(prefix, name, value, chosen, label, about) {
  const id = `${prefix}-${value}`;
  const input = el('input', {
    type: 'radio', id, name, value, checked: value === chosen ? '' : null,
    'aria-describedby': about ? `${id}-about` : null,
  });
  return el('div', { class: 'morse-qso-choice' }, input,
    el('label', { for: id }, label),
    about ? el('span', { class: 'about', id: `${id}-about` }, about) : null);
}
