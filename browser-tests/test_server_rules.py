"""The browser holds no practice rule, bound or formatter the core also has (issue 23).

- A guard reads every JS file of the UI and fails on a number written into a form control's
  bounds or on a known copy of a core rule; purely visual numbers are allowed one by one below.
- The forms take their bounds and defaults from the catalog's `forms` (the core's FormBounds).
- The ticking clock (`clock()` in js/i18n.js) reads the shared table clock-fixtures.json exactly as
  the core's DurationFormatting.clock does (ClockFixtureTests in Swift reads the same table).
- The paddle keyer (js/morse-keyer.js) must run in the page's audio thread, so it is the one rule
  kept in the browser: test_morse_keys.py pins it to the core's PaddleKeyer through the shared
  keyer-fixtures.json (PaddleKeyerTests reads the same table).
"""
import json
import re
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import REPO, go, open_app, set_size, shot, wait_for

PUBLIC = REPO / "Sources" / "MomentumServer" / "Public"
FIXTURES = Path(__file__).with_name("clock-fixtures.json")

# A literal number as a form control's bound: `min: 1`, `max: 60`, `maxlength: 100`, `step: 0.5`.
BOUND = re.compile(r"\b(min|max|maxlength|maxLength|step)\s*:\s*-?\d")

# Copies of the core's rules the browser once had; none may come back.
RULES = {
    "a duration-in-words formatter (the server sends …Text fields)": re.compile(r"\bdurationText\b"),
    "a language → locale table (the catalog's `locale` is the one)": re.compile(r"['\"](en|de)[-_][A-Z]{2}['\"]"),
    "the length of a day, for day arithmetic (the server counts days)": re.compile(r"\b86400000\b|\b864e5\b|24 \* 60 \* 60 \* 1000"),
    "a recent-days window (GET /log?recent)": re.compile(r"\bRECENT_DAYS\b"),
    "a Morse answer window or pause (the session carries them)": re.compile(
        r"\b(ANSWER_WINDOW|COMPLETION_PAUSE|AFTER_RIGHT|AFTER_REPLAY)\w*\s*=\s*\d"),
    "an upload of its own (js/api.js has uploadWithProgress)": re.compile(r"\bnew XMLHttpRequest\b"),
    "the Morse unit worked out from a speed (GET /morse/keyer sends unitMilliseconds)": re.compile(r"\b1200\s*/"),
}

# Purely visual numbers, and the browser's own bookkeeping, each with why it is no practice rule:
# (file, a piece of the line that must be on it).
ALLOWED = [
    # How long this browser remembers which reminders it already showed (its own memory, pruned
    # after two days): no day is counted with it.
    ("js/reminder-notifier.js", "export const REMEMBER_MS = 2 * 24 * 60 * 60 * 1000;"),
    # The ambient volume slider shows the plan's 0…1 as 0–100 % in steps of 5 %.
    ("js/meditate.js", "id: 'm-volume', name: 'volume', min: 0, max: 100, step: 5"),
    # Upload progress bars run from 0 to 100 %.
    ("js/library.js", "el('progress', { max: 100,"),
    ("js/settings-backup.js", "el('progress', { id: 'b-progress', max: 100,"),
    # The seek slider moves through the item in milliseconds, a tenth of a second a step.
    ("js/library.js", "id: 'lib-seek', min: 0, max: Math.max(1, Math.round(item.durationMs)), step: 100"),
]
# The one file allowed to send an XMLHttpRequest: the shared upload.
XHR_HOME = "js/api.js"


def guard_problems(public):
    """Every forbidden bound or rule in the UI's JS under `public`, as readable lines."""
    problems = []
    files = sorted(public.glob("js/*.js")) + [public / "app.js"]
    for path in files:
        name = path.relative_to(public).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf8").splitlines(), 1):
            if any(name == f and piece in line for f, piece in ALLOWED):
                continue
            if BOUND.search(line):
                problems.append(f"{name}:{number}: a bound written into the page: {line.strip()}")
            for what, pattern in RULES.items():
                if pattern.search(line) and not (name == XHR_HOME and "XMLHttpRequest" in pattern.pattern):
                    problems.append(f"{name}:{number}: {what}: {line.strip()}")
    return problems


def test_the_js_holds_no_bound_and_no_copy_of_a_core_rule():
    problems = guard_problems(PUBLIC)
    assert not problems, "\n".join(problems)


def test_every_allowed_visual_number_is_still_there():
    # An allow-list entry nothing matches any more is a hole: remove it.
    for name, piece in ALLOWED:
        assert piece in (PUBLIC / name).read_text(encoding="utf8"), f"{name} no longer has: {piece}"


def catalog_forms(server):
    return server.get("/catalog?lang=en")["forms"]


def attributes(driver, element_id):
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]);"
        "return e && Object.fromEntries(['min', 'max', 'step', 'maxlength', 'value']"
        ".filter((n) => e.hasAttribute(n)).map((n) => [n, Number(e.getAttribute(n))]));", element_id)


def expected(bounds, value=None):
    names = {"min": "min", "max": "max", "step": "step"}
    wanted = {names[k]: v for k, v in bounds.items() if k in names}
    if value is not None:
        wanted["value"] = value
    return wanted


def test_the_forms_take_their_bounds_from_the_catalog(server, browser):
    forms = catalog_forms(server)
    assert forms["breathing.rounds"] == {"min": 1, "max": 99, "step": 1, "default": 10}
    open_app(browser, server, "meditate")
    set_size(browser, 390, 844)
    minutes = wait_for(browser, lambda d: attributes(d, "m-minutes"))
    assert {k: minutes[k] for k in ("min", "max", "step")} == expected(forms["meditation.durationMinutes"])

    go(browser, "breathe")
    browser.find_element(By.ID, "b-new").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "b-editor"), message="the editor did not open")
    # A name's limit is the server's to refuse, with the limit: no maxlength cuts it silently.
    assert "maxlength" not in attributes(browser, "b-name")
    for element_id, field in (("b-inhale", "breathing.inhale"), ("b-hold-in", "breathing.holdAfterInhale"),
                              ("b-exhale", "breathing.exhale"), ("b-hold-out", "breathing.holdAfterExhale"),
                              ("b-rounds", "breathing.rounds")):
        assert attributes(browser, element_id) == expected(forms[field], value=forms[field]["default"]), element_id
    shot(browser, "rules-breathe-editor-390")

    go(browser, "timers")
    wait_for(browser, lambda d: d.find_elements(By.ID, "t-minutes"), message="no timer form")
    assert attributes(browser, "t-minutes") == expected(forms["focus.minutes"], value=forms["focus.minutes"]["default"])
    assert "maxlength" not in attributes(browser, "t-name")
    shot(browser, "rules-timer-form-390")

    go(browser, "settings")
    wait_for(browser, lambda d: d.find_elements(By.ID, "s-goal-mindfulness"), message="no progress settings")
    goal = attributes(browser, "s-goal-mindfulness")
    assert {k: goal[k] for k in ("min", "max", "step")} == expected(forms["progress.mindfulnessGoal"])
    hours = browser.execute_script(
        "return [...document.querySelectorAll('#s-day-start option')].map((o) => Number(o.value));")
    day_start = forms["progress.dayStartHour"]
    assert hours == list(range(int(day_start["min"]), int(day_start["max"]) + 1))
    shot(browser, "rules-settings-progress-390")

    go(browser, "morse")
    edit = wait_for(browser, lambda d: d.find_elements(By.ID, "mo-settings-edit"), message="no Morse settings")[0]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", edit)  # above the tab bar
    edit.click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-tone"), message="the Morse form did not open")
    for element_id, field in (("mo-char-wpm", "morse.characterWPM"), ("mo-eff-wpm", "morse.effectiveWPM"),
                              ("mo-tone", "morse.toneHertz"), ("mo-rise", "morse.riseMilliseconds"),
                              ("mo-minutes", "morse.sessionMinutes")):
        got = attributes(browser, element_id)
        assert {k: got[k] for k in ("min", "max", "step")} == expected(forms[field]), element_id
    browser.execute_script("document.getElementById('mo-settings-form').scrollIntoView({block: 'center'})")
    shot(browser, "rules-morse-settings-390")


def test_the_browser_clock_reads_the_shared_table_as_the_core_does(server, browser):
    cases = json.loads(FIXTURES.read_text(encoding="utf8"))["cases"]
    assert len(cases) >= 10
    open_app(browser, server, "meditate")
    got = browser.execute_async_script(
        "const [cases, done] = arguments;"
        "import('/js/i18n.js').then(({ clock }) => done(cases.map((c) => clock(c.ms))),"
        " (e) => done(String(e)));", cases)
    assert got == [c["text"] for c in cases]


def test_the_page_formats_in_the_catalogs_locale(server, browser):
    open_app(browser, server, "meditate")
    assert browser.execute_script("return window.momentumI18n.locale()") == "en-GB"
