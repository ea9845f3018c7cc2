// Morse: the Koch course. The overview (levels, schedule, streak, accuracy per character,
// settings) starts a receive or send session; the server draws, scores and saves everything,
// the browser plays what it is given and reports what the person typed or keyed.
// Screens: overview → introduction → training → results (each its own module); QSO practice
// starts from the overview too and has its own contact screen.
import { api } from './api.js';
import { t } from './i18n.js';
import { el, refocus } from './dom.js';
import * as audio from './morse-audio.js';
import { overviewScreen, receiveChoice } from './morse-overview.js';
import { courseIntroScreen, wantsIntroduction } from './morse-course-intro.js';
import { introductionScreen } from './morse-intro.js';
import { trainingScreen } from './morse-training.js';
import { resultsScreen } from './morse-results.js';
import { qsoCard, choice } from './morse-qso-setup.js';
import { contactScreen } from './morse-qso.js';
import { handsFreeCard } from './morse-hands-free.js';

let root;
// or { name: 'introduction' | 'training', session }, { name: 'results', ending }, { name: 'contact', contact }
let screen = { name: 'overview' };
/** The page of the course's introduction shown (0 or 1), while it is. */
let coursePage = 0;
let training = null; // the training screen's controls while it is up
let contactControls = null; // the contact screen's, while it is up

export async function mount(view) {
  root = view;
  await render();
}
export const remount = (view) => { root = view; return render(); };
export const show = () => (screen.name === 'overview' ? render() : undefined);

/** Morse's tab, tapped on Morse: from the results back to the overview (a session in progress stays). */
export function home() {
  if (screen.name !== 'results') return;
  screen = { name: 'overview' };
  render().catch(console.error);
}
/** Leaving the tab pauses a session in training, so no answer runs out unseen. */
export const hide = () => {
  if (training) training.leave();
  if (contactControls) contactControls.leave();
};

const heading = () => el('h1', { id: 'h-morse' }, t('nav.morse'));

async function render(focusId) {
  training = null;
  contactControls = null;
  if (screen.name === 'overview') {
    const [progress, settings, call, handsFree] = await Promise.all([
      api('/morse/progress'), api('/morse/settings'), api('/morse/call-sign'),
      // Hands-free copy is a card of its own: without its view the course still shows.
      api('/morse/hands-free').catch(() => null)]);
    // A learner at the start meets the course first: two short screens, once (issue 39).
    if (wantsIntroduction(progress)) {
      root.replaceChildren(heading(), ...courseIntroScreen(coursePage, progress, settings, {
        page: (page) => { coursePage = page; render('mo-course-title'); },
        done: () => { coursePage = 0; render('mo-start-receive'); },
      }));
      if (focusId) refocus(root, focusId);
      return;
    }
    const qso = qsoCard(call.callSign, { start: (chosen) => startContact(chosen), unlock: () => audio.unlock() }, progress);
    root.replaceChildren(heading(), ...overviewScreen(progress, settings, {
      start: (direction) => start(direction),
      changed: (id) => render(id),
    }, qso, handsFree && handsFreeCard(handsFree)));
  } else if (screen.name === 'contact') {
    root.replaceChildren(heading());
    contactControls = contactScreen(root, screen.contact, {
      again: () => startContact({ ...choice }),
      back: () => { screen = { name: 'overview' }; render('mo-qso-start'); },
    });
  } else if (screen.name === 'introduction') {
    root.replaceChildren(heading(), ...introductionScreen(screen.session, {
      begin: () => beginTraining(),
      back: () => abandon(),
    }));
  } else if (screen.name === 'training') {
    root.replaceChildren(heading());
    training = trainingScreen(root, screen.session, {
      changed: (session) => { screen.session = session; },
      ended: (ending) => showResults(ending),
    });
  } else {
    root.replaceChildren(heading(), ...resultsScreen(screen.ending, {
      back: () => { const { direction } = screen; screen = { name: 'overview' }; render(`mo-start-${direction}`); },
      again: (direction) => start(direction),
    }));
  }
  if (focusId) refocus(root, focusId);
}

/**
 * Starts a session (in its introduction). Tests make the drill repeatable by setting
 * `data-seed` on `#view-morse` (a testing aid: the server then draws the same items).
 */
async function start(direction) {
  audio.unlock();
  const body = { direction };
  if (direction === 'receive' && receiveChoice.conditions !== 'clean') body.conditions = receiveChoice.conditions;
  if (root.dataset.seed) body.seed = Number(root.dataset.seed);
  const session = await api('/morse/sessions', { method: 'POST', body });
  screen = { name: 'introduction', session };
  await render('mo-begin');
}

/**
 * Starts a QSO with the chosen style and mode (the call sign is the saved one); `data-seed` on
 * `#view-morse` draws the same station every run, as for sessions. Rejects with the server's
 * refusal (no call sign), which the QSO card shows.
 */
async function startContact({ style, mode, conditions }) {
  audio.unlock();
  const body = { style, mode, conditions };
  if (root.dataset.seed) body.seed = Number(root.dataset.seed);
  const contact = await api('/morse/qso', { method: 'POST', body });
  screen = { name: 'contact', contact };
  await render();
}

async function beginTraining() {
  audio.unlock();
  audio.silence();
  const session = await api(`/morse/sessions/${screen.session.id}/start`, { method: 'POST', body: {} });
  screen = { name: 'training', session };
  await render();
}

/** Back from the introduction: the session ends with no attempts, so nothing is saved. */
async function abandon() {
  audio.silence();
  const direction = screen.session.direction;
  await api(`/morse/sessions/${screen.session.id}/end`, { method: 'POST', body: {} }).catch(console.error);
  screen = { name: 'overview' };
  await render(`mo-start-${direction}`);
}

async function showResults(ending) {
  screen = { name: 'results', ending, direction: ending.session.direction };
  await render('mo-results-title');
}
