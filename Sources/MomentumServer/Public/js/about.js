// About: the version, what Momentum is, where the data stays, where the sounds come from, and the
// open-source libraries with their licenses — all as the server says (GET /api/v1/about, the
// core's AboutInfo, which `momentum about` prints too).
import { api } from './api.js';
import { el } from './dom.js';

let root = null;

export async function mount(view) {
  root = view;
  await render();
}
export const remount = (view) => { root = view; return render(); };

async function render() {
  const about = await api('/about');
  const libraries = el('ul', { class: 'about-libraries', id: 'about-libraries' },
    ...about.libraries.map((library) => el('li', { class: 'about-library', 'data-library': library.name },
      el('p', { class: 'about-library-name' }, el('a', { href: library.url, rel: 'noopener noreferrer' }, library.name)),
      el('p', { class: 'about-library-role' }, library.role),
      el('p', { class: 'about-license', 'data-license': library.license }, library.licenseText),
      library.copyright ? el('p', { class: 'muted about-copyright' }, library.copyright) : null)));
  root.replaceChildren(
    el('h1', { id: 'h-about' }, about.title),
    el('section', { class: 'card about-intro', 'aria-label': about.title },
      el('p', { class: 'about-version muted', id: 'about-version' }, about.versionText),
      el('p', { class: 'about-summary', id: 'about-summary' }, about.summary),
      el('p', { id: 'about-privacy' }, about.privacy),
      el('p', { id: 'about-sounds' }, about.sounds)),
    el('section', { class: 'card', 'aria-labelledby': 'h-about-libraries' },
      el('h2', { id: 'h-about-libraries' }, about.librariesHeading),
      el('p', { id: 'about-libraries-intro' }, about.librariesIntro),
      libraries,
      el('p', { class: 'muted', id: 'about-libraries-more' }, about.librariesMore)));
}
