// The theme, chosen per device in Settings: 'system' (the default: the device's light or dark
// mode, followed as it changes), 'light' or 'dark', kept in this browser's localStorage. Set on
// <html data-theme="light|dark"> before the page paints (a classic script in <head>), which is
// what app.css's colours follow; the browser's bar colour (theme-color) follows too.
(function () {
  const KEY = 'momentum.theme';
  const CHOICES = ['system', 'light', 'dark'];
  const media = window.matchMedia('(prefers-color-scheme: dark)');

  function chosen() {
    try {
      const saved = window.localStorage.getItem(KEY);
      return CHOICES.includes(saved) ? saved : 'system';
    } catch {
      return 'system';
    }
  }

  function apply() {
    const choice = chosen();
    const dark = choice === 'dark' || (choice === 'system' && media.matches);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    const bar = document.querySelector('meta[name="theme-color"]');
    if (bar) bar.setAttribute('content', dark ? '#1f1a16' : '#f6efe6');
  }

  media.addEventListener('change', apply);
  window.momentumTheme = {
    choices: CHOICES,
    chosen,
    choose(choice) {
      try { window.localStorage.setItem(KEY, CHOICES.includes(choice) ? choice : 'system'); } catch { /* kept for this page only */ }
      apply();
    },
  };
  apply();
  document.addEventListener('DOMContentLoaded', apply);
})();
