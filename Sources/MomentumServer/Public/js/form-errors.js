// A refused form shows the server's sentence (already in the page's language) next to the field
// it is about: the 422 answer names the field by its path in the body (`progress.goals.focus`,
// `reminders.daily[0].time`); the form says which control that is. The control gets
// `aria-invalid` and `aria-describedby` pointing at the message, and focus; a refusal that names
// no known field shows in the form's own error line.
import { el } from './dom.js';
import { errorText, t } from './i18n.js';

/** Removes every field message under `form` and what pointed at them. */
export function clearRefusals(form, general) {
  for (const message of form.querySelectorAll('.field-error')) message.remove();
  for (const control of form.querySelectorAll('[aria-invalid="true"]')) control.removeAttribute('aria-invalid');
  for (const control of form.querySelectorAll('[data-described-error]')) {
    const ids = (control.getAttribute('aria-describedby') || '').split(' ').filter((id) => id && id !== control.dataset.describedError);
    if (ids.length) control.setAttribute('aria-describedby', ids.join(' '));
    else control.removeAttribute('aria-describedby');
    delete control.dataset.describedError;
  }
  if (general) {
    general.textContent = '';
    general.hidden = true;
  }
}

/**
 * Shows `failure` next to the control `controlFor(field)` names (an element, or a list whose
 * first gets the message and focus), else in `general`. `focus: false` leaves the cursor where it
 * is: for a refusal read in the background, while the person has moved on.
 */
export function showRefusal(form, failure, controlFor, general, { focus = true } = {}) {
  clearRefusals(form, general);
  const text = errorText(failure);
  const found = failure && failure.field ? controlFor(failure.field) : null;
  const controls = (Array.isArray(found) ? found : [found]).filter((control) => control && control.isConnected);
  if (!controls.length) {
    general.textContent = text;
    general.hidden = false;
    return;
  }
  const [first] = controls;
  const id = `${first.id}-error`;
  const message = el('p', { class: 'error field-error', id, role: 'alert' }, text);
  const place = first.closest('.field, fieldset') || first.parentElement;
  place.append(message);
  for (const control of controls) {
    if (control.tagName !== 'FIELDSET') control.setAttribute('aria-invalid', 'true');
    const ids = (control.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    control.setAttribute('aria-describedby', [id, ...ids].join(' '));
    control.dataset.describedError = id;
  }
  if (focus) (first.tagName === 'FIELDSET' ? first.querySelector('input, select') : first)?.focus();
}

/**
 * The first number field under `form` that the browser finds outside the bounds its attributes
 * carry (the catalog's, from the core's FormBounds: `min`, `max`, `step`), as a refusal said in
 * the field's own unit ("Choose a whole number from 1 to 600 min."), or null. A minutes field
 * then speaks minutes, where the server, given milliseconds, could only speak seconds.
 */
export function numberRefusal(form) {
  for (const input of form.querySelectorAll('input[type=number]')) {
    if (input.disabled || input.closest('[hidden]')) continue;
    const { validity } = input;
    if (validity.valid && input.value.trim() !== '') continue;
    const unit = input.closest('.input-unit, .duration-control')?.querySelector('[aria-hidden="true"]')?.textContent || '';
    const whole = !input.step || Number.isInteger(Number(input.step));
    const key = input.min === '' || input.max === '' ? 'form.numberNeeded' : whole ? 'form.wholeNumberRange' : 'form.numberRange';
    // A unit that ends in a full stop ("Min.") ends the sentence too.
    const message = t(key, { min: input.min, max: input.max, unit: unit ? ` ${unit}` : '' }).replace(/\.\.$/, '.');
    return { status: 422, code: 'invalid_value', message, field: input.id };
  }
  return null;
}

/**
 * Sends `form` the one way every form in the app answers (`send` does the request): a number
 * the browser finds outside the catalog's bounds is refused beside its field before anything is
 * sent; a refusal of the server stands beside the field it names — `controls` maps the body's
 * field names (`name`, `durationMs`; the last part of a path such as `plan.workMs`) to controls —
 * else in `general`. Resolves true when `send` went through.
 */
export async function submitForm(form, general, controls, send) {
  clearRefusals(form, general);
  const local = numberRefusal(form);
  if (local) {
    showRefusal(form, local, (id) => form.querySelector(`#${CSS.escape(id)}`), general);
    return false;
  }
  try {
    await send();
    return true;
  } catch (failure) {
    const controlFor = (path) => controls[path] || controls[String(path).split('.').pop().replace(/\[\d+\]$/, '')] || null;
    showRefusal(form, failure, controlFor, general);
    return false;
  }
}
