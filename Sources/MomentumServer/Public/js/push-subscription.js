// Web Push on this device (docs/notifications.md): subscribes this browser with the server's key
// and keeps the subscription current — on every load while notifications are on, since browsers
// let subscriptions expire and rotate them — and ends it when notifications are switched off.
// Web Push needs a secure page (HTTPS, or this computer's own address) and a service worker.
import { api } from './api.js';

const ID_KEY = 'momentum.push.subscription';

/** Whether this browser, on this page, can get notifications while the app is closed. */
export function pushAvailable() {
  return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window;
}

/** The id the server gave this browser's subscription, or null. */
export function pushSubscriptionID() {
  return localStorage.getItem(ID_KEY);
}

/**
 * Subscribes this browser (or renews its subscription) and tells the server. Resolves to
 * 'subscribed', 'unavailable' (no Web Push on this page) or 'failed' (the browser's push service
 * or the server refused); never rejects.
 */
export async function subscribePush() {
  if (!pushAvailable()) return 'unavailable';
  try {
    const registration = await withTimeout(navigator.serviceWorker.ready, 10000);
    const { publicKey } = await api('/push/key');
    const key = fromBase64URL(publicKey);
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameBytes(subscription.options?.applicationServerKey, key)) {
      await subscription.unsubscribe(); // made with another server's key
      subscription = null;
    }
    if (!subscription) {
      // A browser with no push service to reach (a headless one, a locked-down network) may
      // never answer: after 20 s this browser counts as one without Web Push.
      subscription = await withTimeout(
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), 20000);
    }
    const { endpoint, expirationTime, keys } = subscription.toJSON();
    const kept = await api('/push/subscriptions', { method: 'POST', body: { endpoint, expirationTime, keys } });
    localStorage.setItem(ID_KEY, kept.id);
    return 'subscribed';
  } catch (error) {
    console.info('Web Push is not available here:', error?.message || error);
    return 'failed';
  }
}

/** Ends this browser's subscription, on the server and in the browser. Never rejects. */
export async function unsubscribePush() {
  const id = pushSubscriptionID();
  localStorage.removeItem(ID_KEY);
  if (id) await api(`/push/subscriptions/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {});
  if (!pushAvailable()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    await subscription?.unsubscribe();
  } catch {
    // The browser forgets it with the site's data; the server's copy is already gone.
  }
}

/** Asks the server to send a test notification to this browser: the answer's `outcome`. */
export async function testPush() {
  const id = pushSubscriptionID();
  if (!id) return { outcome: 'failed' };
  let answer;
  try {
    answer = await api(`/push/subscriptions/${encodeURIComponent(id)}/test`, { method: 'POST' });
  } catch (error) {
    if (error.status !== 404) throw error;
    answer = { outcome: 'gone' }; // ended elsewhere (`momentum push remove`, another device's list)
  }
  if (answer.outcome === 'gone') localStorage.removeItem(ID_KEY);
  return answer;
}

function fromBase64URL(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function sameBytes(buffer, bytes) {
  if (!buffer) return false;
  const other = new Uint8Array(buffer);
  return other.length === bytes.length && other.every((b, i) => b === bytes[i]);
}

function withTimeout(promise, ms) {
  return Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error('no answer in time')), ms))]);
}
