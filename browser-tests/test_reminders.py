"""Settings → Reminders: the form saves kinds, quiet hours, the preferred time and daily reminders
(a refused value shows the server's message and changes nothing), and with permission granted a
planned reminder shows as a browser notification once — unless practice silenced it first.

The notification tests use the notifier's testing hook `?reminderClock=ISO` (its clock starts at
that instant), so a reminder the server plans a minute or two from now fires a few seconds after
the switch is pressed; the server plans with its own, real clock.
"""
import datetime
import time
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import (PHONE, allow_console, allow_notifications, axe_violations, open_app, recorded_notifications,
                      set_size, shot, wait_for)

ALL_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def open_reminders(browser, server, query=""):
    browser.get(f"{server.url}/{query}#settings")
    return wait_for(browser, lambda d: d.find_elements(By.ID, "r-form") and d.find_element(By.ID, "r-form"),
                    message="the Reminders form did not render")


def set_value(browser, element_id, value):
    """Sets an input's value as typing would (time inputs take HH:MM whatever the browser shows)."""
    browser.execute_script(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
        "e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));",
        element_id, value)


def click_label(browser, control_id):
    browser.find_element(By.CSS_SELECTOR, f'label[for="{control_id}"]').click()


def checked(browser, control_id):
    return browser.find_element(By.ID, control_id).is_selected()


def reminders(server):
    return server.get("/settings")["reminders"]


def shown_error(browser, control_id="r-quiet-start"):
    """The server's message, shown next to the field it is about."""
    return wait_for(browser, lambda d: (lambda e: e if e and e[0].is_displayed() and e[0].text else None)(
        d.find_elements(By.ID, f"{control_id}-error")), message="no error shown")[0]


def test_reminder_settings_are_saved_and_survive_a_reload(server, browser):
    open_reminders(browser, server)
    assert browser.find_element(By.ID, "r-title").text == "Reminders"
    assert browser.find_element(By.ID, "r-daily-none").is_displayed()
    assert not browser.find_element(By.ID, "r-notify").is_selected(), "notifications start off"
    assert browser.execute_script("return Notification.permission") == "default", "nothing was asked at load"

    browser.find_element(By.ID, "r-add").click()
    row = wait_for(browser, lambda d: d.find_elements(By.ID, "r-daily-1"))[0]
    assert browser.switch_to.active_element == browser.find_element(By.ID, "r-daily-1-time")
    assert all(checked(browser, f"r-daily-1-{day}") for day in ALL_DAYS), "a new reminder starts every day"
    set_value(browser, "r-daily-1-time", "07:30")
    click_label(browser, "r-daily-1-sat")
    click_label(browser, "r-daily-1-sun")
    Select(browser.find_element(By.ID, "r-daily-1-category")).select_by_value("workout")
    click_label(browser, "r-kind-streak")
    set_value(browser, "r-quiet-start", "21:30")
    set_value(browser, "r-quiet-end", "07:00")
    set_value(browser, "r-preferred", "10:00")
    assert not row.find_element(By.ID, "r-daily-1-sat").is_selected()
    browser.find_element(By.ID, "r-save").click()
    wait_for(browser, lambda d: reminders(server)["daily"], message="the daily reminder was not saved")
    saved = reminders(server)
    assert saved["daily"] == [{"id": "1", "time": "07:30", "weekdays": ALL_DAYS[:5], "category": "workout"}]
    assert saved["kinds"] == {"practiceDue": True, "streak": False, "levelReview": True, "welcomeBack": True,
                              "daily": True}
    assert saved["quietHours"] == {"start": "21:30", "end": "07:00"}
    assert saved["preferredTime"] == "10:00"
    wait_for(browser, lambda d: d.find_element(By.ID, "announcer").text.startswith("Saved."))

    browser.refresh()
    open_reminders(browser, server)
    assert not checked(browser, "r-kind-streak") and checked(browser, "r-kind-daily")
    assert browser.find_element(By.ID, "r-daily-1-time").get_attribute("value") == "07:30"
    assert [day for day in ALL_DAYS if checked(browser, f"r-daily-1-{day}")] == ALL_DAYS[:5]
    assert Select(browser.find_element(By.ID, "r-daily-1-category")).first_selected_option.get_attribute("value") == "workout"
    assert browser.find_element(By.ID, "r-quiet-start").get_attribute("value") == "21:30"
    assert browser.find_element(By.ID, "r-preferred").get_attribute("value") == "10:00"
    # The plan: workdays at 07:30 (the next seven days hold five), titled in the UI's language.
    upcoming = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#r-upcoming li"))
    assert upcoming[0].get_attribute("data-occurrence").startswith("daily.1.")
    assert "Time to move" in upcoming[0].text and "07:30" in upcoming[0].text, upcoming[0].text
    assert browser.find_element(By.ID, "r-feed-url").get_attribute("value") == f"{server.url}/reminders.ics"
    assert not browser.execute_script(
        "return [...document.getElementById('view-settings').childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())"
    ), "stray text (a null) in Settings"
    assert axe_violations(browser) == []
    browser.execute_script("document.getElementById('s-reminders').scrollIntoView()")
    shot(browser, "desktop-settings-reminders")
    browser.execute_script("document.getElementById('r-upcoming-title').scrollIntoView()")
    shot(browser, "desktop-settings-reminders-plan")
    set_size(browser, *PHONE)
    browser.execute_script("document.getElementById('r-daily-1').scrollIntoView()")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    shot(browser, "phone-settings-reminders")
    assert axe_violations(browser) == []

    # Removing the reminder and saving leaves none.
    browser.find_element(By.ID, "r-daily-1-remove").click()
    assert browser.switch_to.active_element == browser.find_element(By.ID, "r-add")
    browser.find_element(By.ID, "r-save").click()
    wait_for(browser, lambda d: reminders(server)["daily"] == [], message="the removal was not saved")


def test_refused_quiet_hours_show_the_servers_message_and_change_nothing(server, browser):
    allow_console(browser, r"/api/v1/settings - Failed to load resource.* 422")
    open_reminders(browser, server)
    before = server.get("/settings")
    click_label(browser, "r-kind-welcomeBack")
    set_value(browser, "r-quiet-start", "08:00")
    set_value(browser, "r-quiet-end", "08:00")
    browser.find_element(By.ID, "r-save").click()
    error = shown_error(browser)
    assert error.text == ("Quiet hours from 08:00 to 08:00 would last zero or 24 hours: "
                          "choose a different start and end."), error.text
    assert error.get_attribute("role") == "alert"
    start = browser.find_element(By.ID, "r-quiet-start")
    assert start.get_attribute("aria-invalid") == "true" and "r-quiet-start-error" in start.get_attribute("aria-describedby")
    assert server.get("/settings") == before
    # The form keeps what the person typed, to correct it.
    assert browser.find_element(By.ID, "r-quiet-start").get_attribute("value") == "08:00"
    assert not checked(browser, "r-kind-welcomeBack")


def test_reminders_in_german(server, browser):
    status, _ = server.api("PATCH", "/settings", {"language": "de", "reminders": {"daily": [
        {"id": "1", "time": "18:00", "weekdays": ["sat", "sun"], "category": "mindfulness"}]}})
    assert status == 200
    allow_console(browser, r"/api/v1/settings - Failed to load resource.* 422")
    open_reminders(browser, server)
    assert browser.find_element(By.ID, "r-title").text == "Erinnerungen"
    assert browser.find_element(By.ID, "r-daily-1-sat").get_attribute("aria-label") == "Samstag"
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#r-upcoming li"))
    assert "Zeit für eine achtsame Pause" in browser.find_element(By.ID, "r-upcoming").text
    set_value(browser, "r-quiet-start", "08:00")
    set_value(browser, "r-quiet-end", "08:00")
    browser.find_element(By.ID, "r-save").click()
    error = shown_error(browser)
    assert error.text == ("Ruhezeiten von 08:00 bis 08:00 wären null oder 24 Stunden lang: "
                          "wähle verschiedene Anfangs- und Endzeiten."), error.text
    assert reminders(server)["quietHours"] == {"start": "22:00", "end": "08:00"}
    set_size(browser, *PHONE)
    browser.execute_script("document.getElementById('s-reminders').scrollIntoView()")
    shot(browser, "phone-settings-reminders-de")
    assert axe_violations(browser) == []


# ---------------------------------------------------------------------------------------------
# Notifications


def plan_a_reminder_soon(server):
    """A daily reminder at a whole minute 1–2 minutes from now in the server's time zone, with quiet
    hours well away from it; returns the server's planned reminder."""
    zone = ZoneInfo(server.get("/reminders")["timeZone"])
    now = datetime.datetime.now(zone)
    at = (now + datetime.timedelta(minutes=2)).replace(second=0, microsecond=0)
    if at.date() != now.date():
        # "Practised today" and the reminder's day must be the same local day: wait out midnight.
        time.sleep((at - now).total_seconds() + 1)
        return plan_a_reminder_soon(server)
    quiet_start = (at + datetime.timedelta(hours=6)).strftime("%H:%M")
    quiet_end = (at + datetime.timedelta(hours=7)).strftime("%H:%M")
    status, body = server.api("PATCH", "/settings", {"reminders": {
        "quietHours": {"start": quiet_start, "end": quiet_end},
        "daily": [{"id": "1", "time": at.strftime("%H:%M"), "weekdays": ALL_DAYS, "category": "focus"}]}})
    assert status == 200, body
    planned = [r for r in server.get("/reminders")["reminders"] if r["id"] == "daily.1"]
    fire_at = datetime.datetime.fromisoformat(planned[0]["fireAt"].replace("Z", "+00:00"))
    assert fire_at == at and planned[0]["movedFrom"] is None, planned[0]
    return planned[0], fire_at


def iso(instant):
    return instant.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def notifier_state(browser):
    return browser.execute_script("return window.momentumReminders.state()")


def test_a_due_reminder_shows_as_a_notification_once(server, browser):
    reminder, fire_at = plan_a_reminder_soon(server)
    allow_notifications(browser, server)
    open_reminders(browser, server, f"?reminderClock={iso(fire_at - datetime.timedelta(seconds=4))}")
    assert notifier_state(browser)["running"] is False, "nothing runs before the person switches it on"

    click_label(browser, "r-notify")
    wait_for(browser, lambda d: d.find_element(By.ID, "r-notify-status").text == "Notifications are on in this browser.")
    assert checked(browser, "r-notify")
    browser.execute_script("document.getElementById('r-upcoming-title').scrollIntoView()")
    shot(browser, "desktop-settings-reminders-notifications-on")
    shown = wait_for(browser, lambda d: recorded_notifications(d), timeout=20, message="no notification was shown")
    assert shown == [{"title": reminder["title"], "body": reminder["body"], "tag": reminder["occurrenceID"]}]
    assert reminder["title"] == "Time to focus"

    # Reloaded at the same moment: on from the start, and the same occurrence is not shown again.
    browser.refresh()
    wait_for(browser, lambda d: d.find_elements(By.ID, "r-form"))
    assert checked(browser, "r-notify")
    state = wait_for(browser, lambda d: (s := notifier_state(d))["lastFetchAt"] and s)
    assert state["pending"] == [] and reminder["occurrenceID"] in state["shown"], state
    assert recorded_notifications(browser) == []

    # Off is off.
    click_label(browser, "r-notify")
    assert notifier_state(browser)["running"] is False
    assert browser.find_element(By.ID, "r-notify-status").text == "Notifications are off."


def test_practice_before_the_reminder_silences_it(server, browser):
    reminder, fire_at = plan_a_reminder_soon(server)
    allow_notifications(browser, server)
    # 25 s before: too early to show from this plan; the notifier asks again 15 s before (10 s on).
    clock_start = fire_at - datetime.timedelta(seconds=25)
    open_reminders(browser, server, f"?reminderClock={iso(clock_start)}")
    click_label(browser, "r-notify")
    first = wait_for(browser, lambda d: (s := notifier_state(d))["lastFetchAt"] and s)
    assert first["pending"] == [], "not yet: the plan is asked again before showing"

    now = datetime.datetime.now(datetime.timezone.utc)
    status, body = server.api("POST", "/log", {
        "kind": "focus", "start": iso(now - datetime.timedelta(seconds=30)), "durationMs": 20000})
    assert status == 201, body
    assert all(r["id"] != "daily.1" or r["fireAt"] != reminder["fireAt"] for r in server.get("/reminders")["reminders"])

    confirm_at = (clock_start + datetime.timedelta(seconds=10)).timestamp() * 1000
    state = wait_for(browser, lambda d: (s := notifier_state(d))["lastFetchAt"] >= confirm_at and s, timeout=20,
                     message="the plan was not asked again before the reminder")
    assert state["pending"] == [] and state["shown"] == [], state
    assert recorded_notifications(browser) == []


# The rules alone, in the page, with a fake clock and timers: nothing waits on real time.
DRIVE_THE_RULES = """
const done = arguments[arguments.length - 1];
import('/js/reminder-notifier.js').then(async ({ ReminderNotifier, decide, pruned }) => {
  let now = Date.parse('2026-11-24T06:00:00Z');
  const timers = [];
  let next = 0;
  const setTimer = (fn, ms) => { timers.push({ id: ++next, at: now + ms, fn }); return next; };
  const clearTimer = (id) => { const i = timers.findIndex((t) => t.id === id); if (i >= 0) timers.splice(i, 1); };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  async function advance(ms) {
    const end = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      if (!timers.length || timers[0].at > end) break;
      const timer = timers.shift();
      now = timer.at;
      timer.fn();
      await settle();
    }
    now = end;
  }
  const reminder = (id, at) => ({ occurrenceID: id, fireAt: new Date(at).toISOString(), title: id, body: '' });
  const sevenThirty = Date.parse('2026-11-24T06:30:00Z');
  let plan = [reminder('daily.1.2026-11-24', sevenThirty), reminder('daily.1.2026-11-25', sevenThirty + 864e5)];
  let memory = {};
  const shown = [];
  const fetches = [];
  const notifier = new ReminderNotifier({
    // As the server: only what is still ahead.
    fetchPlan: async () => { fetches.push(now); return plan.filter((r) => Date.parse(r.fireAt) > now); },
    show: (r) => shown.push([r.occurrenceID, now]),
    memory: { load: () => memory, save: (m) => { memory = m; } },
    now: () => now, setTimer, clearTimer,
  });
  const result = {};
  await notifier.start();
  result.afterStart = notifier.state();
  await advance(30 * 60e3);
  result.shown = shown.slice();
  result.lookedAgain = fetches.includes(sevenThirty - 15e3);
  // A second notifier sharing the memory (a reload, another tab) does not show it again.
  const again = [];
  const second = new ReminderNotifier({
    fetchPlan: async () => [reminder('daily.1.2026-11-24', sevenThirty)],
    show: (r) => again.push(r.occurrenceID), memory: { load: () => memory, save: (m) => { memory = m; } },
    now: () => sevenThirty - 3e3, setTimer: () => 0, clearTimer: () => {},
  });
  await second.start();
  result.secondPending = second.state().pending;
  // A timer that fires long after its time (the computer slept) shows nothing.
  const late = [];
  const sleepy = new ReminderNotifier({
    fetchPlan: async () => [reminder('daily.1.2026-11-26', sevenThirty + 2 * 864e5)],
    show: (r) => late.push(r.occurrenceID), memory: { load: () => ({}), save: () => {} },
    now: () => now, setTimer, clearTimer,
  });
  now = sevenThirty + 2 * 864e5 - 10e3;
  await sleepy.start();
  const sleepyTimer = timers.find((t) => t.at === sevenThirty + 2 * 864e5);
  now += 60 * 60e3;
  timers.splice(timers.indexOf(sleepyTimer), 1);
  sleepyTimer.fn();
  sleepy.stop();
  result.lateShown = late;
  // Silenced: gone from the plan at the last look, never shown.
  now = Date.parse('2026-11-25T06:00:00Z');
  timers.length = 0;
  plan = [];
  await notifier.refresh();
  await advance(60 * 60e3);
  result.shownAfterPractice = shown.length;
  notifier.stop();
  result.decided = decide([reminder('a', now + 10e3), reminder('b', now + 60e3), reminder('c', now + 5e3)], now,
    (id) => id === 'c').show.map((s) => [s.reminder.occurrenceID, s.delayMs]);
  result.nextFetch = decide([reminder('b', now + 60e3)], now, () => false).nextFetchMs;
  result.pruned = Object.keys(pruned({ old: now - 3 * 864e5, recent: now - 864e5 }, now));
  done(result);
}, (e) => done({ error: String(e) }));
"""


def test_the_notifier_rules_on_a_fake_clock(server, browser):
    open_app(browser, server, "settings")
    result = browser.execute_async_script(DRIVE_THE_RULES)
    assert "error" not in result, result
    assert result["afterStart"]["pending"] == [], "30 minutes ahead: not yet, only a look 15 s before"
    assert result["shown"] == [["daily.1.2026-11-24", 1795501800000]], "shown once, exactly at its time"
    assert result["lookedAgain"], "the plan was read again 15 s before"
    assert result["secondPending"] == [], "an occurrence already shown is not scheduled again"
    assert result["lateShown"] == [], "an hour late is too late"
    assert result["shownAfterPractice"] == 1
    assert result["decided"] == [["a", 10000]]
    assert result["nextFetch"] == 45000
    assert result["pruned"] == ["recent"]
