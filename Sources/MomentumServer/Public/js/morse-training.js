// The training screen shared by receive and send: the drill's own area, the feedback on the last
// answer (aria-live), the time left, Pause/Resume and End. Each answer goes to the server, which
// scores it and hands out the next item; once the time is up the session is ended and the results
// shown. A miss replays the right character's sound before the next item.
import { api } from './api.js';
import { t, clock, number, errorText } from './i18n.js';
import { el, announce } from './dom.js';
import * as audio from './morse-audio.js';
import { keyingView } from './morse-keying.js';
import { patternView, directionName } from './morse-text.js';
import { receiveDrill } from './morse-receive.js';
import { sendDrill } from './morse-send.js';

/**
 * The page's own beat before the replay of a miss, so the feedback shows first (animation timing,
 * not a practice rule). The calm after the feedback is the core's: `pauseAfterFeedbackMs`.
 */
const BEFORE_REPLAY_MS = 400;

/**
 * Draws the training screen into `root` (after its heading) and runs it. `on.changed(session)`
 * keeps the latest session; `on.ended(ending)` shows the results. Returns `{ leave }` (pauses).
 */
export function trainingScreen(root, initial, on) {
  let session = initial;
  let answeredAt = performance.now(); // when `session.remainingMs` was true
  let busy = false;
  const path = (action) => `/morse/sessions/${session.id}/${action}`;

  const timeLeft = el('p', { class: 'morse-time', id: 'mo-time-left' });
  const score = el('p', { class: 'muted', id: 'mo-score' });
  const feedback = el('div', { class: 'morse-feedback', id: 'mo-feedback', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const error = el('p', { class: 'error', id: 'mo-error', role: 'alert', hidden: '' });
  const pause = el('button', { type: 'button', class: 'secondary', id: 'mo-pause' }, t('action.pause'));
  const end = el('button', { type: 'button', class: 'secondary', id: 'mo-end' }, t('morse.ui.end'));
  const area = el('div', { class: 'morse-drill', id: 'mo-drill' });
  const card = el('section', {
    class: `card morse-training ${initial.direction}`, id: 'mo-training', 'aria-labelledby': 'mo-training-title',
    'data-session-id': initial.id,
  },
  el('div', { class: 'morse-training-head' },
    el('h2', { id: 'mo-training-title' }, t('morse.ui.trainingTitle', { direction: directionName(initial.direction), level: number(initial.level) })),
    timeLeft),
  score, area, feedback, error,
  el('div', { class: 'actions' }, pause, end));
  root.append(card);

  const drill = (initial.direction === 'receive' ? receiveDrill : sendDrill)(area, {
    tone: initial.tone, introduction: initial.introduction, answer: (body) => answer(body),
  });

  function fail(failure) {
    error.textContent = errorText(failure);
    error.hidden = false;
  }

  function update(next) {
    session = next;
    answeredAt = performance.now();
    card.dataset.attempts = String(next.attempts);
    card.dataset.phase = next.phase;
    on.changed(next);
    score.textContent = next.attempts ? t('morse.ui.score', { correct: number(next.correct), attempts: number(next.attempts) }) : '';
    pause.textContent = t(next.phase === 'paused' ? 'action.resume' : 'action.pause');
    pause.id = next.phase === 'paused' ? 'mo-resume' : 'mo-pause';
    card.classList.toggle('paused', next.phase === 'paused');
    tick();
  }

  function leftMs() {
    if (session.phase !== 'training') return session.remainingMs;
    return Math.max(0, session.remainingMs - (performance.now() - answeredAt));
  }

  function tick() {
    if (!card.isConnected) { clearInterval(ticker); return; }
    const left = leftMs();
    timeLeft.textContent = session.phase === 'paused' ? t('morse.ui.pausedLeft', { time: clock(left) }) : t('player.remaining', { time: clock(left) });
    document.title = `${clock(left)} · ${t('nav.morse')} · ${t('app.name')}`;
  }
  const ticker = setInterval(tick, 250);

  function showFeedback(attempt) {
    const right = attempt.symbols.map((s) => s.text).join('');
    const patterns = attempt.symbols.map((s) => patternView(s.pattern));
    const mark = el('span', { class: 'mark', 'aria-hidden': 'true' }, attempt.isCorrect ? '✓' : '✗');
    const answered = attempt.answer == null || attempt.answer === ''
      ? t('morse.ui.noAnswer')
      : t('morse.ui.yourAnswer', { answer: attempt.answer });
    feedback.className = `morse-feedback ${attempt.isCorrect ? 'right' : 'wrong'}`;
    feedback.replaceChildren(mark,
      el('span', { class: 'verdict' }, t(attempt.isCorrect ? 'morse.ui.right' : 'morse.ui.wrong')),
      el('span', { class: 'morse-char' }, right),
      ...patterns);
    if (!attempt.isCorrect) feedback.append(el('span', { class: 'muted' }, answered));
  }

  async function answer(body) {
    if (busy || session.phase !== 'training') return false;
    busy = true;
    error.hidden = true;
    try {
      const next = await api(path('answer'), { method: 'POST', body });
      update(next);
      const attempt = next.lastAttempt;
      showFeedback(attempt);
      if (next.lastKeying) feedback.append(keyingView(next.lastKeying));
      let wait = next.pauseAfterFeedbackMs;
      if (!attempt.isCorrect) wait += audio.play(attempt.elements, session.tone, BEFORE_REPLAY_MS);
      if (!next.item) {
        await finish(wait);
        return true;
      }
      drill.present(next.item, wait);
      return true;
    } catch (failure) {
      fail(failure);
      return false;
    } finally {
      busy = false;
    }
  }

  /** Ends the session once any replay has sounded, then shows the results. */
  async function finish(afterMs = 0) {
    drill.halt();
    busy = true;
    pause.disabled = true;
    end.disabled = true;
    if (afterMs > 0) await new Promise((resolve) => setTimeout(resolve, afterMs));
    audio.silence();
    try {
      const ending = await api(path('end'), { method: 'POST', body: {} });
      clearInterval(ticker);
      document.title = t('app.name');
      on.ended(ending);
    } catch (failure) {
      busy = false;
      pause.disabled = false;
      end.disabled = false;
      fail(failure);
    }
  }

  async function togglePause() {
    if (busy) return;
    const resuming = session.phase === 'paused';
    busy = true;
    error.hidden = true;
    try {
      if (!resuming) { drill.halt(); audio.silence(); }
      const next = await api(path(resuming ? 'resume' : 'pause'), { method: 'POST', body: {} });
      update(next);
      announce(t(resuming ? 'morse.ui.resumed' : 'morse.ui.paused'));
      pause.focus();
      if (resuming && next.item) drill.present(next.item, 0);
      else if (resuming) await finish();
    } catch (failure) {
      fail(failure);
    } finally {
      busy = false;
    }
  }

  pause.addEventListener('click', () => { audio.unlock(); togglePause(); });
  end.addEventListener('click', () => { if (!busy) finish(); });

  update(session);
  if (session.phase === 'training') {
    drill.present(session.item, 0);
    announce(t('morse.ui.trainingStarted', { direction: directionName(session.direction) }));
  } else {
    drill.halt(); // drawn again while paused (a language change): Resume goes on
  }

  return {
    /** The tab is left: a session in training pauses. */
    leave() {
      if (session.phase === 'training' && !busy) togglePause();
    },
  };
}

