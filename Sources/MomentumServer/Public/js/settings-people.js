// Settings → People: the household of this server (GET /api/v1/people). An owner sees everyone —
// name, role, PIN lock, their devices (paired phones, this server's screen, tokens) with when each
// was last used — adds people, renames them, changes roles and PINs, removes them (after typing
// the name, as the terminal asks) and pairs anyone's device; a member sees their own devices. "Add
// a device" shows a one-time code as a QR code, a link and large letters (POST …/pairing). Every
// date comes from the server already in words; the server's sentence shows under a refused field.
import { api } from './api.js';
import { t, errorText } from './i18n.js';
import { el, svg, field, announce, confirmDialog } from './dom.js';
import { showRefusal, clearRefusals } from './form-errors.js';

const QUIET_ZONE = 4;

/**
 * The People card. `people` is GET /api/v1/people, `session` GET /api/v1/session;
 * `changed(focusId)` draws Settings again (and focuses `focusId` after).
 */
export function peopleCard(people, session, changed) {
  const manage = people.canManage;
  const heading = el('h2', { id: 'p-title' }, t(manage ? 'people.title' : 'people.yourDevices'));
  const card = el('section', { class: 'card people', id: 'p-people', 'aria-labelledby': 'p-title' }, heading);
  if (manage) {
    card.append(el('p', { class: 'muted' }, t('people.intro')));
    card.append(el('ul', { class: 'people-list' }, ...people.people.map((person) => el('li', {}, personBlock(person, true, changed)))));
    card.append(addPersonForm(people, session, changed));
  } else {
    const me = people.people.find((person) => person.isYou) || people.people[0];
    if (me) card.append(devicesBlock(me, changed), el('div', { class: 'actions' }, pairButton(me)));
  }
  return card;
}

/** "Signed in as Anna": whether the household has more than one person, seen from `people`. */
export function isShared(people) {
  return !people.canManage || people.people.length > 1;
}

function personBlock(person, manage, changed) {
  const id = `p-${person.id}`;
  const facts = [t(`people.role.${person.role}`)];
  if (person.hasPIN) facts.push(t('people.pinLocked'));
  const title = el('h3', { class: 'person-name', id: `${id}-name` }, person.name,
    person.isYou ? el('span', { class: 'badge' }, t('people.you')) : null);
  return el('article', { class: 'person', 'aria-labelledby': `${id}-name` },
    title,
    el('p', { class: 'muted person-facts' }, facts.join(' · ')),
    devicesBlock(person, changed),
    el('div', { class: 'actions' }, pairButton(person)),
    manage ? changeBlock(person, changed) : null);
}

function devicesBlock(person, changed) {
  const id = `p-${person.id}`;
  if (!person.devices.length) return el('p', { class: 'muted', id: `${id}-no-devices` }, t('people.noDevices'));
  return el('ul', { class: 'device-list', 'aria-label': t('people.devicesOf', { name: person.name }) },
    ...person.devices.map((device) => {
      const kind = t(`people.device.${device.kind}`);
      const label = device.kind === 'screen' ? kind : device.name;
      const details = [device.kind === 'screen' ? null : kind, device.scope === 'feed' ? t('people.device.feedOnly') : null,
        device.lastUsedText ? t('people.device.lastUsed', { when: device.lastUsedText }) : t('people.device.neverUsed')].filter(Boolean);
      const end = el('button', {
        type: 'button', class: 'secondary danger small', id: `${id}-end-${device.id}`,
        'aria-label': t('people.device.endNamed', { device: label }),
      }, t('people.device.end'));
      end.addEventListener('click', async () => {
        const yes = await confirmDialog(t('people.device.endAsk', { device: label, name: person.name }),
          t('people.device.end'), t('action.cancel'));
        if (!yes) return;
        try {
          await api(`/people/${person.id}/devices/${encodeURIComponent(device.id)}`, { method: 'DELETE' });
          announce(t('people.device.ended', { device: label }));
          await changed(`p-${person.id}-pair`);
        } catch (error) {
          announce(errorText(error));
        }
      });
      return el('li', { class: 'device' },
        el('div', { class: 'device-text' }, el('p', { class: 'device-label' }, label), el('p', { class: 'muted' }, details.join(' · '))),
        end);
    }));
}

function pairButton(person) {
  const button = el('button', { type: 'button', class: 'secondary', id: `p-${person.id}-pair` },
    person.isYou ? t('people.addMyDevice') : t('people.addDeviceFor', { name: person.name }));
  button.addEventListener('click', async () => {
    try {
      const pairing = await api(`/people/${person.id}/pairing`, { method: 'POST' });
      pairingDialog(pairing);
    } catch (error) {
      announce(errorText(error));
    }
  });
  return button;
}

/** The link as an SVG QR code: dark modules on white with a light quiet zone, in both themes. */
export function qrSVG(rows, label) {
  const size = rows.length + QUIET_ZONE * 2;
  const image = svg('svg', {
    viewBox: `0 0 ${size} ${size}`, class: 'qr', role: 'img', 'aria-label': label, 'shape-rendering': 'crispEdges', id: 'pair-qr',
  }, svg('rect', { x: 0, y: 0, width: size, height: size, fill: '#ffffff' }));
  rows.forEach((row, y) => {
    // One rectangle per run of dark modules keeps the drawing small.
    for (let x = 0; x < row.length;) {
      if (row[x] !== '1') { x += 1; continue; }
      let end = x;
      while (end < row.length && row[end] === '1') end += 1;
      image.append(svg('rect', { x: x + QUIET_ZONE, y: y + QUIET_ZONE, width: end - x, height: 1, fill: '#000000' }));
      x = end;
    }
  });
  return image;
}

function pairingDialog(pairing) {
  document.getElementById('pair-dialog')?.remove();
  const opener = document.activeElement;
  const link = el('input', { type: 'text', id: 'pair-link', readonly: true, value: pairing.link, 'aria-label': t('people.pairing.link'), spellcheck: 'false' });
  const copy = el('button', { type: 'button', class: 'secondary', id: 'pair-copy' }, t('action.copy'));
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(pairing.link);
    } catch {
      link.select();
      document.execCommand('copy');
    }
    announce(t('people.pairing.copied'));
  });
  const close = el('button', { type: 'button', class: 'primary', id: 'pair-close' }, t('people.pairing.done'));
  // A link a phone cannot open (the server listens on this machine only) gets the server's
  // sentence of why and what to change instead of "scan this" and a QR code that cannot work.
  const phoneCanOpen = pairing.reachableByPhone !== false;
  const dialog = el('dialog', { id: 'pair-dialog', class: 'card pair-dialog', 'aria-labelledby': 'pair-dialog-title', 'aria-describedby': phoneCanOpen ? 'pair-dialog-hint' : 'pair-notice' },
    el('h2', { id: 'pair-dialog-title' }, t('people.pairing.title', { name: pairing.person })),
    ...(phoneCanOpen
      ? [el('p', { id: 'pair-dialog-hint' }, t('people.pairing.hint')), qrSVG(pairing.qr, t('people.pairing.qr'))]
      : [el('p', { id: 'pair-notice', class: 'pair-notice', role: 'note' }, pairing.notice)]),
    el('div', { class: 'inline' }, link, copy),
    el('p', { class: 'muted' }, t('people.pairing.orType')),
    el('p', { class: 'pair-code', id: 'pair-code-text', lang: 'en' }, pairing.code),
    el('p', { class: 'muted', id: 'pair-expires' }, t('people.pairing.expires', { time: pairing.expiresText })),
    el('div', { class: 'actions' }, close));
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener && opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}

function roleSelect(id, current) {
  return el('select', { id, name: 'role' },
    ...['member', 'owner'].map((role) => el('option', { value: role, ...(role === current ? { selected: '' } : {}) }, t(`people.role.${role}`))));
}

function addPersonForm(people, session, changed) {
  const name = el('input', { type: 'text', id: 'p-new-name', name: 'name', autocomplete: 'off' });
  const role = roleSelect('p-new-role', 'member');
  const language = el('select', { id: 'p-new-language', name: 'language' },
    el('option', { value: '' }, t('people.language.auto')),
    el('option', { value: 'en', lang: 'en' }, 'English'),
    el('option', { value: 'de', lang: 'de' }, 'Deutsch'));
  const error = el('p', { class: 'error', id: 'p-new-error', role: 'alert', hidden: '' });
  const form = el('form', { class: 'form add-person', id: 'p-add', novalidate: true, 'aria-labelledby': 'p-add-title' },
    el('h3', { id: 'p-add-title' }, t('people.add')),
    field('p-new-name', t('people.name'), name),
    el('div', { class: 'form-grid' }, field('p-new-role', t('people.role'), role), field('p-new-language', t('people.language'), language)),
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: 'p-new-submit' }, t('people.addSubmit'))));
  const controlFor = (path) => ({ name, role, language }[path] || null);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearRefusals(form, error);
    const body = { name: name.value, role: role.value };
    if (language.value) body.language = language.value;
    try {
      // On the server's own screen a second person means choosing whose practice shows: this
      // screen stays the owner's who adds them (the picker asks when they switch). Chosen first,
      // so no request of this page finds the household shared without a profile.
      const me = people.people.find((person) => person.isYou);
      if (session.access === 'open' && me) await keepThisScreen(me);
      const added = await api('/people', { method: 'POST', body });
      announce(t('people.added', { name: added.name }));
      await changed(`p-${added.id}-pair`);
    } catch (failure) {
      showRefusal(form, nameFirst(failure), controlFor, error);
    }
  });
  return form;
}

/** Chooses `person`'s profile on this screen (POST /api/v1/profiles/choose; no PIN asked here). */
async function keepThisScreen(person) {
  try {
    await fetch('/api/v1/profiles/choose', {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ id: person.id }),
    });
  } catch { /* the picker asks on the next request */ }
}

/** A refusal about the name (taken, too long …) belongs under the name field. */
function nameFirst(failure) {
  if (failure && !failure.field && (failure.status === 422 || failure.status === 409)) return { ...failure, message: failure.message, status: failure.status, field: 'name' };
  return failure;
}

function changeBlock(person, changed) {
  const id = `p-${person.id}`;
  const name = el('input', { type: 'text', id: `${id}-rename`, name: 'name', value: person.name, autocomplete: 'off' });
  const role = roleSelect(`${id}-role`, person.role);
  const error = el('p', { class: 'error', id: `${id}-change-error`, role: 'alert', hidden: '' });
  const form = el('form', { class: 'form', id: `${id}-change`, novalidate: true },
    el('div', { class: 'form-grid' }, field(`${id}-rename`, t('people.name'), name), field(`${id}-role`, t('people.role'), role)),
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: `${id}-change-save` }, t('action.save'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearRefusals(form, error);
    const body = {};
    if (name.value !== person.name) body.name = name.value;
    if (role.value !== person.role) body.role = role.value;
    if (!Object.keys(body).length) return;
    try {
      const saved = await api(`/people/${person.id}`, { method: 'PATCH', body });
      announce(t('people.saved', { name: saved.name }));
      await changed(`${id}-change-save`);
    } catch (failure) {
      showRefusal(form, 'name' in body && !('role' in body) ? nameFirst(failure) : failure, (path) => ({ name, role }[path] || null), error);
    }
  });

  const pin = el('input', { type: 'password', id: `${id}-pin`, name: 'pin', inputmode: 'numeric', autocomplete: 'new-password' });
  const pinError = el('p', { class: 'error', id: `${id}-pin-error`, role: 'alert', hidden: '' });
  const clear = person.hasPIN ? el('button', { type: 'button', class: 'secondary', id: `${id}-pin-clear` }, t('people.pin.clear')) : null;
  const pinForm = el('form', { class: 'form', id: `${id}-pin-form`, novalidate: true },
    field(`${id}-pin`, t(person.hasPIN ? 'people.pin.change' : 'people.pin.set'), pin),
    el('p', { class: 'muted', id: `${id}-pin-hint` }, t('people.pin.hint')),
    pinError,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'secondary', id: `${id}-pin-save` }, t('people.pin.save')), clear));
  pin.setAttribute('aria-describedby', `${id}-pin-hint`);
  pinForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearRefusals(pinForm, pinError);
    try {
      await api(`/people/${person.id}/pin`, { method: 'PUT', body: { pin: pin.value } });
      announce(t('user.pinSet', { name: person.name }));
      await changed(`${id}-pin-save`);
    } catch (failure) {
      showRefusal(pinForm, { ...failure, message: failure.message, status: failure.status, code: failure.code, field: 'pin' }, () => pin, pinError);
    }
  });
  clear?.addEventListener('click', async () => {
    try {
      await api(`/people/${person.id}/pin`, { method: 'DELETE' });
      announce(t('user.pinCleared', { name: person.name }));
      await changed(`${id}-pin-save`);
    } catch (failure) {
      showRefusal(pinForm, failure, () => null, pinError);
    }
  });

  const remove = el('button', { type: 'button', class: 'secondary danger', id: `${id}-remove` }, t('people.remove', { name: person.name }));
  remove.addEventListener('click', () => removeDialog(person, changed));
  const summary = el('summary', { id: `${id}-manage` }, t('people.manage', { name: person.name }));
  return el('details', { class: 'person-manage' }, summary,
    el('div', { class: 'person-manage-body' }, form, pinForm, person.isYou ? null : el('div', { class: 'actions' }, remove)));
}

/** Removing a person asks for their name, as `momentum user remove` does. */
function removeDialog(person, changed) {
  document.getElementById('remove-dialog')?.remove();
  const opener = document.activeElement;
  const typed = el('input', { type: 'text', id: 'remove-name', autocomplete: 'off', spellcheck: 'false' });
  const error = el('p', { class: 'error', id: 'remove-error', role: 'alert', hidden: '' });
  const yes = el('button', { type: 'submit', class: 'primary danger', id: 'remove-yes' }, t('people.removeYes'));
  const no = el('button', { type: 'button', class: 'secondary', id: 'remove-no' }, t('action.cancel'));
  const form = el('form', { novalidate: true, class: 'form' },
    el('p', { id: 'remove-text' }, t('user.removeAsk', { name: person.name })),
    field('remove-name', t('people.removeType', { name: person.name }), typed),
    error,
    el('div', { class: 'actions' }, yes, no));
  const dialog = el('dialog', { id: 'remove-dialog', class: 'card', 'aria-labelledby': 'remove-text' }, form);
  let removed = false;
  no.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearRefusals(form, error);
    if (typed.value.trim() !== person.name) {
      showRefusal(form, { status: 422, message: t('people.removeMismatch', { name: person.name }), field: 'name' }, () => typed, error);
      return;
    }
    try {
      await api(`/people/${person.id}`, { method: 'DELETE' });
      removed = true;
      dialog.close();
      announce(t('user.removed', { name: person.name }));
      await changed('p-new-name');
    } catch (failure) {
      showRefusal(form, failure, () => null, error);
    }
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (!removed && opener && opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  typed.focus();
}
