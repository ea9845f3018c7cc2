// Settings: the language (en/de); the theme follows the system.
import { api } from './api.js';
import { t, language } from './i18n.js';
import { el } from './dom.js';

let root;

export async function mount(view) {
  root = view;
  render();
}
export const remount = (view) => { root = view; render(); };

function render() {
  const select = el('select', { id: 's-language', name: 'language' },
    el('option', { value: 'en', lang: 'en', ...(language() === 'en' ? { selected: '' } : {}) }, 'English'),
    el('option', { value: 'de', lang: 'de', ...(language() === 'de' ? { selected: '' } : {}) }, 'Deutsch'));
  const status = el('p', { class: 'muted', role: 'status', id: 's-status' });
  select.addEventListener('change', async () => {
    const lang = select.value;
    try {
      await api('/settings', { method: 'PATCH', body: { language: lang } });
    } catch (error) {
      console.error(error);
    }
    await window.momentumRelocalize(lang);
    root.querySelector('#s-language')?.focus();
  });
  root.replaceChildren(
    el('h1', { id: 'h-settings' }, t('nav.settings')),
    el('div', { class: 'card form' },
      el('div', { class: 'field' }, el('label', { for: 's-language' }, t('settings.language')), select),
      el('p', { class: 'muted' }, t('settings.theme')),
      status));
}
