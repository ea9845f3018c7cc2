// Settings → Back up & restore (issue 22): "Back up…" first asks the server what a backup holds
// and how large its archive is (GET /backup/summary), then offers the download (GET /backup).
// "Restore from a file…" uploads the file once (POST /restores, with progress), shows the
// server's sentences — what it holds, what would be added and kept — and asks before restoring
// (POST /restores/{id}/apply) or drops it (DELETE). Every sentence about the backup is the
// server's (the terminal's, in the person's language); after a restore every view is drawn again.
import { api, uploadWithProgress } from './api.js';
import { t, language, errorText } from './i18n.js';
import { el, announce } from './dom.js';

// Kept while the page lives: a restore draws Settings again and the result must stay.
const state = {
  backup: { phase: 'idle', summary: null, error: '' }, // idle | counting | ready | failed
  // idle | uploading | checking | staged | restoring | done | cancelled | failed
  restore: { phase: 'idle', file: '', percent: 0, id: null, lines: [], error: '' },
};
let card = null;

/** The card, drawn from the state; Settings calls it on every render. */
export function backupCard() {
  card = render();
  return card;
}

function redraw(focusID) {
  if (!card || !card.isConnected) return;
  const next = render();
  card.replaceWith(next);
  card = next;
  if (focusID) next.querySelector(`#${focusID}`)?.focus();
}

function render() {
  return el('section', { class: 'card form backup', id: 'backup-card', 'aria-labelledby': 'b-title' },
    el('h2', { id: 'b-title' }, t('backup.web.title')),
    el('p', { class: 'muted' }, t('backup.web.intro')),
    backupPart(),
    restorePart());
}

// MARK: backing up

function backupPart() {
  const { phase, summary, error } = state.backup;
  const part = el('div', { class: 'backup-part', id: 'b-backup-part' });
  if (phase === 'ready' && summary) {
    const link = el('a', {
      class: 'button primary', id: 'b-download', href: '/api/v1/backup', download: summary.fileName,
      'aria-describedby': 'b-summary',
    }, t('backup.web.download', { size: summary.archiveSize }));
    link.addEventListener('click', () => announce(t('backup.web.downloadStarted', { file: summary.fileName })));
    part.append(el('p', { id: 'b-summary' }, summary.message), el('div', { class: 'actions' }, link));
    return part;
  }
  const hasStatus = phase === 'counting' || phase === 'failed';
  const button = el('button', {
    type: 'button', class: 'primary', id: 'b-backup', 'aria-describedby': hasStatus ? 'b-backup-status' : null,
  }, t('backup.web.backUp'));
  if (phase === 'counting') button.setAttribute('disabled', '');
  button.addEventListener('click', countBackup);
  part.append(el('div', { class: 'actions' }, button));
  const status = el('p', { id: 'b-backup-status', class: phase === 'failed' ? 'error' : 'muted' });
  if (phase === 'counting') status.textContent = t('backup.web.counting');
  if (phase === 'failed') status.textContent = error;
  if (status.textContent) part.append(status);
  return part;
}

async function countBackup() {
  state.backup = { phase: 'counting', summary: null, error: '' };
  redraw('b-backup');
  try {
    const summary = await api('/backup/summary');
    state.backup = { phase: 'ready', summary, error: '' };
    redraw('b-download');
    announce(summary.message);
  } catch (failure) {
    state.backup = { phase: 'failed', summary: null, error: errorText(failure) };
    redraw('b-backup');
    announce(state.backup.error);
  }
}

// MARK: restoring

function restorePart() {
  const r = state.restore;
  const busy = ['uploading', 'checking', 'restoring'].includes(r.phase);
  const input = el('input', {
    type: 'file', id: 'b-file', class: 'visually-hidden', accept: '.zip,.json,application/zip,application/json',
    'aria-describedby': 'b-file-hint', ...(busy ? { disabled: '' } : {}),
  });
  input.addEventListener('change', () => {
    const file = input.files && input.files[0];
    input.value = '';
    if (file) upload(file).catch(console.error);
  });
  const part = el('div', { class: 'backup-part', id: 'b-restore-part' },
    el('div', { class: 'actions' },
      el('label', { for: 'b-file', id: 'b-file-label', class: `button secondary file-button${busy ? ' disabled' : ''}` },
        t('backup.web.restoreChoose'), input)),
    el('p', { class: 'muted', id: 'b-file-hint' }, t('backup.web.restoreHint')));

  if (r.phase === 'uploading') {
    part.append(
      el('p', { id: 'b-restore-status' }, t('backup.web.uploading', { file: r.file })),
      el('progress', { id: 'b-progress', max: 100, value: r.percent, 'aria-label': t('backup.web.uploadProgress', { file: r.file }) }));
  } else if (r.phase === 'checking' || r.phase === 'restoring') {
    const text = r.phase === 'checking' ? t('backup.web.checking', { file: r.file }) : t('backup.web.restoring');
    part.append(el('p', { id: 'b-restore-status' }, text), el('progress', { id: 'b-progress', 'aria-label': text }));
  }
  if (['staged', 'restoring', 'done'].includes(r.phase) && r.lines.length) {
    part.append(el('div', { class: 'backup-lines', id: 'b-result', tabindex: '-1' },
      ...r.lines.map((line) => el('p', {}, line))));
  }
  if (r.phase === 'staged') {
    const yes = el('button', { type: 'button', class: 'primary', id: 'b-restore' }, t('backup.web.restore'));
    const no = el('button', { type: 'button', class: 'secondary', id: 'b-cancel' }, t('action.cancel'));
    yes.addEventListener('click', () => apply().catch(console.error));
    no.addEventListener('click', () => cancel().catch(console.error));
    part.append(el('p', { id: 'b-question', class: 'backup-question' }, t('backup.web.question')),
      el('div', { class: 'actions', role: 'group', 'aria-labelledby': 'b-question' }, yes, no));
  }
  if (r.phase === 'cancelled') part.append(el('p', { class: 'muted', id: 'b-result', tabindex: '-1' }, t('backup.web.cancelled')));
  if (r.phase === 'failed') part.append(el('p', { class: 'error', id: 'b-error', tabindex: '-1' }, r.error));
  return part;
}

async function upload(file) {
  state.restore = { phase: 'uploading', file: file.name, percent: 0, id: null, lines: [], error: '' };
  redraw('b-progress');
  announce(t('backup.web.uploading', { file: file.name }));
  try {
    const answer = await send(file);
    state.restore = { ...state.restore, phase: 'staged', id: answer.id, lines: answer.lines || [] };
    redraw('b-result');
    announce([...state.restore.lines, t('backup.web.question')].join(' '));
  } catch (failure) {
    fail(failure);
  }
}

/** Sends the file, its progress bar following; "checking" once every byte is out. */
function send(file) {
  const isJSON = /\.json$/i.test(file.name) || file.type === 'application/json';
  return uploadWithProgress(`/restores?name=${encodeURIComponent(file.name)}`, file, isJSON ? 'application/json' : 'application/zip',
    (percent) => {
      state.restore.percent = percent;
      const bar = card && card.querySelector('#b-progress');
      if (bar) bar.value = percent;
    },
    () => {
      if (state.restore.phase !== 'uploading') return;
      state.restore.phase = 'checking';
      redraw();
    });
}

async function apply() {
  const { id } = state.restore;
  state.restore.phase = 'restoring';
  redraw('b-progress');
  announce(t('backup.web.restoring'));
  try {
    const answer = await api(`/restores/${encodeURIComponent(id)}/apply`, { method: 'POST' });
    state.restore = { ...state.restore, phase: 'done', id: null, lines: answer.lines || [] };
    // What a backup holds has changed: count again when asked.
    state.backup = { phase: 'idle', summary: null, error: '' };
  } catch (failure) {
    fail(failure);
    return;
  }
  try {
    await refreshEverything();
  } catch (error) {
    // Restored all the same: a view that could not be drawn again shows on its next visit.
    console.error(error);
    redraw();
  }
  document.getElementById('b-result')?.focus();
  announce(state.restore.lines.join(' '));
}

async function cancel() {
  const { id } = state.restore;
  state.restore = { ...state.restore, phase: 'cancelled', id: null, lines: [] };
  redraw('b-result');
  announce(t('backup.web.cancelled'));
  try {
    await api(`/restores/${encodeURIComponent(id)}`, { method: 'DELETE' });
  } catch (failure) {
    // Expired or gone already: nothing is kept either way.
    if (!failure || !failure.status || failure.status >= 500) console.error(failure);
  }
}

function fail(failure) {
  state.restore = { ...state.restore, phase: 'failed', id: null, lines: [], error: errorText(failure) };
  redraw('b-error');
  announce(state.restore.error);
}

/** Draws every view again with the restored data, in the language the settings now name. */
async function refreshEverything() {
  let lang = language();
  try {
    const settings = await api('/settings');
    if (settings && settings.language) lang = settings.language;
  } catch { /* keep the language shown */ }
  if (window.momentumRelocalize) await window.momentumRelocalize(lang);
  else redraw();
}
