// Timers: focus timers with their checklists; ticking an item PATCHes it.
import { api } from './api.js';
import { t, clock } from './i18n.js';
import { el } from './dom.js';

let root;

export async function mount(view) { root = view; await render(); }
export const remount = (view) => { root = view; return render(); };
export const show = () => render();

async function render() {
  const data = await api('/timers');
  const timers = data.timers || [];
  const listNode = el('ul', { class: 'timer-list' });
  for (const timer of timers) listNode.append(timerCard(timer));
  root.replaceChildren(
    el('h1', { id: 'h-timers' }, t('nav.timers')),
    timers.length ? listNode : el('p', { class: 'muted' }, t('focus.none')),
  );
}

function timerCard(timer) {
  const headingId = `timer-${timer.id}`;
  const items = el('ul', { class: 'checklist', 'aria-labelledby': headingId });
  for (const item of timer.items || []) {
    const box = el('input', { type: 'checkbox', id: `item-${timer.id}-${item.id}`, ...(item.done ? { checked: '' } : {}) });
    box.addEventListener('change', async () => {
      box.disabled = true;
      try {
        await api(`/timers/${encodeURIComponent(timer.id)}/items/${encodeURIComponent(item.id)}`, { method: 'PATCH', body: { done: box.checked } });
        box.closest('li').classList.toggle('done', box.checked);
      } catch (error) {
        console.error(error);
        box.checked = !box.checked;
      } finally {
        box.disabled = false;
      }
    });
    items.append(el('li', { class: item.done ? 'done' : '' }, el('label', { for: box.id }, box, el('span', {}, item.text))));
  }
  const status = t(`focus.status.${timer.status}`);
  return el('li', { class: 'card' },
    el('h2', { id: headingId }, timer.name),
    el('p', { class: 'muted' }, `${status} · ${t('focus.left', { time: clock(timer.remainingMs ?? timer.durationMs) })}`),
    items);
}
