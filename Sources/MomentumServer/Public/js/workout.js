// Workout: not built yet in the browser; the section says so in the person's language.
import { t } from './i18n.js';
import { el } from './dom.js';

let root;
export async function mount(view) { root = view; render(); }
export const remount = (view) => { root = view; render(); };
function render() {
  root.replaceChildren(el('h1', { id: 'h-workout' }, t('nav.workout')), el('p', { class: 'muted' }, t('section.later')));
}
