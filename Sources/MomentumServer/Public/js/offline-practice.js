// What Meditate, Breathe and Workout show when the server is out of reach (docs/offline.md): the
// practices of their kind kept on this device, each with Start, and how fresh what is kept is.
// Started, a practice plays as a local run (js/local-runs.js) on the page's own player, and its
// report waits in the outbox until the server is reached.
import { t, keptTime } from './i18n.js';
import { el } from './dom.js';
import { kept } from './offline-store.js';
import { startLocal } from './local-runs.js';

/** Whether `error` says the server was not reached (rather than refusing something). */
export function unreached(error) {
  return !!error && error.code === 'network';
}

/**
 * Calls `show()` of a section whose view (`view()`) is on screen when the browser comes back
 * online, so a page that found the server out of reach asks again by itself.
 */
export function askAgainWhenOnline(view, show) {
  window.addEventListener('online', () => {
    const node = view();
    if (node && !node.hidden) show().catch((error) => console.warn(error));
  });
}

/**
 * The card of kept practices of `kind` ('meditation' | 'breathing' | 'workout'); `prefix` makes
 * the ids, `onStart(run)` plays a started one (a run view with its own id). Filled in as what is
 * kept is read.
 */
export function keptCard(kind, prefix, onStart) {
  const body = el('div', { id: `${prefix}-kept-list` });
  const card = el('section', { class: 'card offline-kept', id: `${prefix}-kept`, 'aria-labelledby': `${prefix}-kept-title` },
    el('h2', { id: `${prefix}-kept-title`, tabindex: '-1' }, t('offline.practice.title')),
    el('p', { class: 'muted' }, t('offline.practice.intro')),
    body);
  fill(body, kind, prefix, onStart).catch((error) => console.warn(error));
  return card;
}

async function fill(body, kind, prefix, onStart) {
  const index = await kept();
  const prepared = new Map((index?.prepared || []).map((p) => [p.key, p]));
  const ready = (index?.practices || []).filter((entry) => entry.kind === kind && entry.state === 'kept' && prepared.has(entry.key));
  if (!ready.length) {
    body.replaceChildren(el('p', { id: `${prefix}-kept-none` }, t('offline.practice.none')));
    return;
  }
  const time = keptTime(index.refreshedAt);
  body.replaceChildren(
    el('ul', { class: 'offline-list', 'aria-label': t('offline.practice.title') },
      ...ready.map((entry) => {
        const start = el('button', { type: 'button', class: 'primary small', 'data-key': entry.key, 'aria-label': t('offline.practice.startNamed', { name: entry.name }) }, t('action.start'));
        start.addEventListener('click', () => onStart(startLocal(prepared.get(entry.key))));
        return el('li', { class: 'kept', 'data-key': entry.key }, el('span', { class: 'name' }, entry.name), start);
      })),
    el('p', { class: 'muted', id: `${prefix}-kept-fresh` }, t('offline.practice.fresh', { time })));
}
