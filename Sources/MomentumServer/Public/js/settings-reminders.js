// Settings → Reminders: which kinds may remind, quiet hours, the preferred time and the person's
// daily reminders (saved together with PATCH /settings; the server checks every value and its
// message shows next to the field it is about), the next planned reminders (with the server's
// sentence when quiet hours moved one), the calendar feed, and the switch for browser
// notifications. Times are typed on the 24-hour clock the page's language reads (the catalog's
// `hourCycle`), never in the browser's own locale as `<input type=time>` would show them.
import { api } from './api.js';
import { t, language, locale, errorText, hourCycle } from './i18n.js';
import { el, field, announce } from './dom.js';
import { showRefusal, clearRefusals } from './form-errors.js';
import { permission, notificationsOn, switchOn, switchOff } from './reminder-notifications.js';
import { pushAvailable, pushSubscriptionID, testPush } from './push-subscription.js';

const KINDS = ['practiceDue', 'streak', 'levelReview', 'welcomeBack', 'daily'];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const CATEGORIES = ['mindfulness', 'workout', 'morse', 'focus'];
const UPCOMING_SHOWN = 5;

/**
 * The Reminders card; `saved()` redraws Settings after a successful save; `session` (GET
 * /session) says whether this browser is on the server's own computer (`access: open`).
 */
export function remindersCard(reminders, { saved, session }) {
  return el('section', { class: 'card form', id: 's-reminders', 'aria-labelledby': 'r-title' },
    el('h2', { id: 'r-title' }, t('settings.reminders.title')),
    el('p', { class: 'muted' }, t('settings.reminders.intro')),
    remindersForm(reminders, saved),
    upcomingPart(),
    notificationsPart(),
    feedPart(session && session.access === 'open'));
}

function checkbox(id, checked, attrs = {}) {
  return el('input', { type: 'checkbox', id, name: id, ...attrs, ...(checked ? { checked: '' } : {}) });
}

/** A time typed as HH:MM (the server reads and checks it); described by the 24-hour hint. */
function timeInput(id, value) {
  return el('input', {
    type: 'text', id, name: id, value: value || '', size: 5, autocomplete: 'off', spellcheck: 'false',
    class: 'time-text', 'aria-describedby': 'r-time-hint',
  });
}

function remindersForm(reminders, saved) {
  const kinds = reminders.kinds || {};
  const quiet = reminders.quietHours || {};
  const list = el('ul', { class: 'daily-list', id: 'r-daily' });
  const none = el('p', { class: 'muted', id: 'r-daily-none' }, t('settings.reminders.dailyNone'));
  const showNone = () => { none.hidden = list.children.length > 0; };
  for (const daily of reminders.daily || []) list.append(dailyRow(daily, list, showNone));
  showNone();
  const preferred = timeInput('r-preferred', reminders.preferredTime);
  const add = el('button', { type: 'button', class: 'secondary', id: 'r-add' }, t('settings.reminders.add'));
  add.addEventListener('click', () => {
    const row = dailyRow({ id: freeID(list), time: preferred.value || '09:00', weekdays: WEEKDAYS, category: 'mindfulness' },
      list, showNone);
    list.append(row);
    showNone();
    row.querySelector('input.time-text').focus();
  });
  const error = el('p', { class: 'error', id: 'r-error', role: 'alert', hidden: '' });
  const save = el('button', { type: 'submit', class: 'primary', id: 'r-save' }, t('action.save'));
  // novalidate: the server's message (in the person's language) says what is wrong.
  const form = el('form', { id: 'r-form', class: 'form', novalidate: true, 'aria-labelledby': 'r-title' },
    el('fieldset', { class: 'plain' },
      el('legend', {}, t('settings.reminders.kinds')),
      ...KINDS.map((kind) => el('label', { class: 'check', for: `r-kind-${kind}` },
        checkbox(`r-kind-${kind}`, kinds[kind] !== false),
        el('span', {}, t(`reminder.kind.${kind}`), ' ',
          el('span', { class: 'muted' }, `(${t(`settings.reminders.hint.${kind}`)})`))))),
    el('fieldset', { class: 'plain' },
      el('legend', {}, t('settings.reminders.quietHours')),
      el('div', { class: 'form-grid' },
        field('r-quiet-start', t('settings.reminders.quietStart'), timeInput('r-quiet-start', quiet.start)),
        field('r-quiet-end', t('settings.reminders.quietEnd'), timeInput('r-quiet-end', quiet.end)),
        field('r-preferred', t('settings.reminders.preferredTime'), preferred)),
      el('p', { class: 'muted', id: 'r-time-hint' }, t('settings.reminders.timeHint'))),
    el('p', { class: 'muted', id: 'r-preferred-hint' }, t('settings.reminders.preferredHint')),
    el('h3', { id: 'r-daily-title' }, t('settings.reminders.daily')),
    none,
    list,
    el('div', { class: 'actions' }, add),
    error,
    el('div', { class: 'actions' }, save));
  preferred.setAttribute('aria-describedby', 'r-time-hint r-preferred-hint');
  // The body's paths (reminders.quietHours.start, reminders.daily[0].time …) and their controls.
  const controlFor = (path) => {
    const id = { 'reminders.quietHours.start': 'r-quiet-start', 'reminders.quietHours.end': 'r-quiet-end',
      'reminders.preferredTime': 'r-preferred' }[path];
    if (id) return form.querySelector(`#${id}`);
    if (path === 'reminders.quietHours') return [form.querySelector('#r-quiet-start'), form.querySelector('#r-quiet-end')];
    const daily = path.match(/^reminders\.daily\[(\d+)\](?:\.(\w+))?$/);
    const row = daily && list.children[Number(daily[1])];
    if (!row) return null;
    const prefix = `r-daily-${row.dataset.id}`;
    const part = { weekdays: 'weekdays', category: 'category' }[daily[2]] || 'time';
    return row.querySelector(`#${prefix}-${part}`);
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearRefusals(form, error);
    const body = {
      reminders: {
        kinds: Object.fromEntries(KINDS.map((kind) => [kind, form.querySelector(`#r-kind-${kind}`).checked])),
        quietHours: { start: form.querySelector('#r-quiet-start').value, end: form.querySelector('#r-quiet-end').value },
        preferredTime: preferred.value,
        daily: [...list.children].map(readRow),
      },
    };
    try {
      await api('/settings', { method: 'PATCH', body });
      announce(t('settings.reminders.saved'));
      await saved();
    } catch (failure) {
      showRefusal(form, failure, controlFor, error);
    }
  });
  return form;
}

/** The smallest whole number not yet used as an id (as the terminal does). */
function freeID(list) {
  const used = new Set([...list.children].map((row) => row.dataset.id));
  let n = 1;
  while (used.has(String(n))) n += 1;
  return String(n);
}

function weekdayNames() {
  const short = t('calendar.weekdays').split(' ');
  const long = new Intl.DateTimeFormat(locale(), { weekday: 'long', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return WEEKDAYS.map((code, i) => ({ code, short: short[i] || code, long: long.format(Date.UTC(2024, 0, 1 + i)) }));
}

function dailyRow(daily, list, changed) {
  const prefix = `r-daily-${daily.id}`;
  const legendID = `${prefix}-label`;
  const weekdays = new Set(daily.weekdays || []);
  const category = el('select', { id: `${prefix}-category`, name: `${prefix}-category` },
    ...CATEGORIES.map((name) => el('option', { value: name, ...(name === daily.category ? { selected: '' } : {}) },
      t(`category.${name}`))));
  const remove = el('button', { type: 'button', class: 'secondary danger', id: `${prefix}-remove`, 'aria-describedby': legendID },
    t('settings.reminders.remove'));
  const row = el('li', { id: prefix, 'data-id': daily.id, 'data-testid': 'daily-reminder' },
    el('fieldset', { class: 'plain daily' },
      el('legend', { id: legendID }, t('settings.reminders.dailyLabel', { number: daily.id })),
      el('div', { class: 'form-grid' },
        field(`${prefix}-time`, t('settings.reminders.time'), timeInput(`${prefix}-time`, daily.time)),
        field(`${prefix}-category`, t('settings.reminders.category'), category)),
      el('fieldset', { class: 'plain chips', id: `${prefix}-weekdays` },
        el('legend', { class: 'label' }, t('settings.reminders.weekdays')),
        ...weekdayNames().map(({ code, short, long }) => el('label', { class: 'chip', for: `${prefix}-${code}` },
          checkbox(`${prefix}-${code}`, weekdays.has(code), { 'data-day': code, 'aria-label': long }),
          el('span', { 'aria-hidden': 'true' }, short)))),
      el('div', { class: 'actions' }, remove)));
  remove.addEventListener('click', () => {
    const next = row.previousElementSibling || row.nextElementSibling;
    row.remove();
    changed();
    (next?.querySelector('[id$=-remove]') || document.getElementById('r-add'))?.focus();
  });
  return row;
}

function readRow(row) {
  const prefix = `r-daily-${row.dataset.id}`;
  return {
    id: row.dataset.id,
    time: row.querySelector(`#${prefix}-time`).value,
    weekdays: [...row.querySelectorAll('input[data-day]')].filter((box) => box.checked).map((box) => box.dataset.day),
    category: row.querySelector(`#${prefix}-category`).value,
  };
}

/** The next planned reminders, from the server's plan, at their times in the person's zone. */
function upcomingPart() {
  const list = el('ul', { class: 'upcoming', id: 'r-upcoming' });
  const none = el('p', { class: 'muted', id: 'r-upcoming-none', hidden: '' }, t('settings.reminders.upcomingNone'));
  api(`/reminders?days=7&lang=${encodeURIComponent(language())}`).then((plan) => {
    const format = dateTimeFormat(plan.timeZone, { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });
    const shown = plan.reminders.slice(0, UPCOMING_SHOWN);
    none.hidden = shown.length > 0;
    list.replaceChildren(...shown.map((reminder) => el('li', { 'data-occurrence': reminder.occurrenceID },
      el('time', { datetime: reminder.fireAt }, format.format(new Date(reminder.fireAt))),
      el('span', { class: 'upcoming-title' }, reminder.title),
      reminder.movedText ? el('span', { class: 'muted moved' }, reminder.movedText) : null)));
  }).catch((failure) => {
    none.textContent = errorText(failure);
    none.hidden = false;
  });
  return el('div', { class: 'reminder-part' },
    el('h3', { id: 'r-upcoming-title' }, t('settings.reminders.upcoming')),
    none,
    list);
}

function dateTimeFormat(timeZone, options) {
  try {
    return new Intl.DateTimeFormat(locale(), { ...options, hourCycle: hourCycle(), timeZone });
  } catch {
    return new Intl.DateTimeFormat(locale(), { ...options, hourCycle: hourCycle() }); // a zone this browser lacks
  }
}

/**
 * The switch for notifications in this browser (permission is asked only when it is pressed), what
 * they reach — also a closed app (Web Push) or only an open one — and a test button once this
 * browser is subscribed.
 */
function notificationsPart() {
  const toggle = checkbox('r-notify', notificationsOn(), { 'aria-describedby': 'r-notify-help' });
  const status = el('p', { id: 'r-notify-status', role: 'status' }, notificationsOn() ? t(onKey()) : '');
  const testButton = el('button', { type: 'button', id: 'r-push-test', class: 'secondary' }, t('settings.reminders.pushTest'));
  const testStatus = el('p', { id: 'r-push-test-status', role: 'status' });
  const testActions = el('div', { class: 'actions' }, testButton);
  const showTest = () => { testActions.hidden = !(notificationsOn() && pushSubscriptionID()); };
  showTest();
  const say = (key) => { status.textContent = t(key); };
  toggle.addEventListener('change', async () => {
    testStatus.textContent = '';
    if (!toggle.checked) {
      switchOff(); // this browser's subscription ends in the background
      say('settings.reminders.notifyOff');
      showTest();
      return;
    }
    const before = permission();
    if (before === 'unavailable' || before === 'denied') {
      toggle.checked = false;
      say(before === 'denied' ? 'settings.reminders.notifyDenied' : 'settings.reminders.notifyUnavailable');
      return;
    }
    const after = await switchOn();
    if (after.state === 'granted') {
      say('settings.reminders.notifyOn');
      after.push.then((push) => {
        if (toggle.checked) say(onKey(push));
        showTest();
      });
    } else {
      toggle.checked = false;
      say(after.state === 'denied' ? 'settings.reminders.notifyDenied' : 'settings.reminders.notifyDismissed');
    }
    showTest();
  });
  testButton.addEventListener('click', async () => {
    testButton.disabled = true;
    try {
      const answer = await testPush();
      testStatus.textContent = answer.outcome === 'delivered' ? t('settings.reminders.pushTestSent')
        : answer.outcome === 'gone' ? t('settings.reminders.pushTestGone')
          : t('settings.reminders.pushTestFailed', { reason: answer.reason || '—' });
    } catch (error) {
      testStatus.textContent = error.message;
    } finally {
      testButton.disabled = false;
      if (!pushSubscriptionID()) say(onKey());
      showTest();
    }
  });
  return el('div', { class: 'reminder-part' },
    el('label', { class: 'check', for: 'r-notify' }, toggle, el('span', {}, t('settings.reminders.notify'))),
    el('p', { class: 'muted', id: 'r-notify-help' }, t('settings.reminders.notifyHelp')),
    status, testActions, testStatus);
}

/** What "on" means here: also when closed (subscribed), or only while open (and why). */
function onKey(push) {
  if (push === 'subscribed' || (push === undefined && pushSubscriptionID())) return 'settings.reminders.notifyOnPush';
  if (push === 'failed') return 'settings.reminders.notifyPushFailed';
  return pushAvailable() && push === undefined ? 'settings.reminders.notifyOn' : 'settings.reminders.notifyOnPageOnly';
}

/**
 * The calendar feed: how to subscribe and a Copy button. On the server's own computer (`local`)
 * the address is copied, not shown, and nothing is said about tokens; from another device the
 * address shows, with how to add an access token.
 */
function feedPart(local) {
  const url = `${location.origin}/reminders.ics`;
  const input = el('input', {
    type: 'text', id: 'r-feed-url', readonly: '', value: url, 'aria-describedby': local ? 'r-feed-help' : 'r-feed-help r-feed-token',
  });
  const copy = el('button', { type: 'button', class: 'secondary', id: 'r-feed-copy', ...(local ? { 'aria-describedby': 'r-feed-help' } : {}) },
    t(local ? 'settings.reminders.feedCopy' : 'action.copy'));
  const shown = el('div', { class: 'field', id: 'r-feed-field', ...(local ? { hidden: '' } : {}) },
    el('label', { for: 'r-feed-url' }, t('settings.reminders.feedURL')),
    local ? input : el('div', { class: 'inline' }, input, copy));
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(url);
      announce(t('settings.reminders.copied'));
    } catch {
      shown.hidden = false; // to copy by hand
      input.select();
      announce(t('settings.reminders.copyFailed'));
    }
  });
  if (local) {
    return el('div', { class: 'reminder-part' },
      el('h3', { id: 'r-feed-title' }, t('settings.reminders.feed')),
      el('p', { class: 'muted', id: 'r-feed-help' }, t('settings.reminders.feedLocalHelp')),
      el('div', { class: 'actions' }, copy),
      shown);
  }
  return el('div', { class: 'reminder-part' },
    el('h3', { id: 'r-feed-title' }, t('settings.reminders.feed')),
    shown,
    el('p', { class: 'muted', id: 'r-feed-help' }, t('settings.reminders.feedHelp')),
    el('p', { class: 'muted', id: 'r-feed-token' }, t('settings.reminders.feedToken')));
}
