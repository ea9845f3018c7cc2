"""Meditate in the browser: a sit run to its end is logged and fills today's day; pause holds
the clock here and on the server; the player schedules exactly the server's cues."""
import datetime
import subprocess
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import PHONE, axe_violations, go, meditate_options, momentum_bin, open_app, set_size, shot, tap, wait_for, stop_practice

# The form offers whole minutes (SPEC §2: "the pickers offer whole minutes 1–600"), so one
# minute is the shortest sit a person can start from the UI.
SHORTEST_MINUTES = 1


def iso(moment):
    return moment.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")


def parse_iso(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def fill_plan(driver, minutes, countdown_s, interval_minutes=0, reflection_minutes=0):
    """Types a plan into the Meditate form as a person would."""
    meditate_options(driver)
    for field, value in (("m-minutes", minutes), ("m-countdown", countdown_s),
                         ("m-reflection", reflection_minutes)):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value))
    choice = "off" if interval_minutes == 0 else str(interval_minutes)
    Select(driver.find_element(By.ID, "m-interval")).select_by_value(choice)


def start_sit(driver, server):
    """Clicks Start; returns the id of the run the server now holds (GET /runs lists it)."""
    tap(driver, "m-start")
    wait_for(driver, lambda d: d.find_elements(By.ID, "m-pause"), message="the player did not appear")
    runs = wait_for(driver, lambda d: [r for r in server.get("/runs")["runs"] if r["kind"] == "meditation"],
                    message="the server holds no meditation run")
    assert len(runs) == 1, runs
    return runs[0]["id"]


def shown_time(driver):
    return driver.execute_script("const n = document.querySelector('#m-ring .time'); return n && n.textContent")


def player_state(driver):
    return driver.execute_script("return window.momentumPlayer.state")


def today(driver):
    """Today's cell in the Progress calendar: its classes, label and fill (0…1)."""
    return driver.execute_script(
        "const day = document.querySelector('.calendar .day.today');"
        "if (!day) return null;"
        "const fill = day.querySelector('.fill').style.getPropertyValue('--fill');"
        "return {classes: [...day.classList], label: day.getAttribute('aria-label'), fill: Number(fill || 0)};")


def test_a_sit_run_to_its_end_is_logged_and_fills_today(server, browser):
    # One minute sat away from the app earlier today: on its own the day stays open (a day counts
    # from 2 minutes, SPEC §8), so the sit below is what makes it count.
    now = datetime.datetime.now(datetime.timezone.utc)
    status, by_hand = server.api("POST", "/log", {
        "kind": "meditation", "start": iso(now - datetime.timedelta(minutes=5)), "durationMs": 60000})
    assert status == 201, by_hand

    open_app(browser, server, "progress")
    before = wait_for(browser, lambda d: today(d))
    assert "counted" not in before["classes"] and before["fill"] == 0, before

    go(browser, "meditate")
    fill_plan(browser, SHORTEST_MINUTES, 0)
    started = time.monotonic()
    start_sit(browser, server)
    assert shown_time(browser) in ("01:00", "00:59"), shown_time(browser)
    wait_for(browser, lambda d: "01:00" not in d.title and "Momentum" in d.title and ":" in d.title,
             message="the tab title does not count down")

    # The unavoidable real-time part: the sit runs its full minute.
    ending = wait_for(browser, lambda d: d.execute_script(
        "const p = document.getElementById('m-end-done');"
        "return !document.getElementById('m-ring') && p ? p.textContent : null;"),
        timeout=SHORTEST_MINUTES * 60 + 20, message="the sit did not finish")
    assert time.monotonic() - started >= SHORTEST_MINUTES * 60 - 1
    assert ending == "Logged 1 min of meditation.", ending
    assert browser.title == "Momentum"
    # The completion view: what was done, today against the goal and the streak (the server's
    # words), focus on its heading; a note kept with the logged session; Done goes back.
    assert browser.find_element(By.ID, "m-end-title").text == "Well done."
    assert browser.switch_to.active_element.get_attribute("id") == "m-end-title"
    minutes = wait_for(browser, lambda d: d.find_element(By.ID, "end-minutes").text)
    assert minutes.startswith("Today: 2 min"), minutes
    assert browser.find_element(By.ID, "end-streak").text == "Mindfulness streak: 1 day."
    shot(browser, "meditate-completed")
    assert axe_violations(browser) == []
    browser.find_element(By.ID, "m-end-note").send_keys("Quiet morning")
    browser.find_element(By.ID, "m-end-note-save").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "m-end-note-status").text == "Note saved with the session.")
    tap(browser, "m-done")
    wait_for(browser, lambda d: d.switch_to.active_element.get_attribute("id") == "m-start", message="focus is not on Start")

    records = server.get("/log")["records"]
    sat = [r for r in records if r["id"] != by_hand["id"]]
    assert len(records) == 2 and len(sat) == 1, records
    assert sat[0]["kind"] == "meditation" and sat[0]["countedSeconds"] == SHORTEST_MINUTES * 60, sat
    assert sat[0]["details"].get("note") == "Quiet morning", sat
    assert parse_iso(sat[0]["start"]) >= now - datetime.timedelta(seconds=5), sat

    go(browser, "progress")
    after = wait_for(browser, lambda d: (lambda c: c if c and "counted" in c["classes"] else None)(today(d)),
                     message="today is not drawn as counted")
    assert after["fill"] > 0 and "2 min" in after["label"], after
    stats = browser.find_element(By.CSS_SELECTOR, "section[aria-labelledby='stats-title']").text
    assert "2 sessions" in stats, stats
    shot(browser, "meditate-logged-progress")


def test_pause_holds_the_clock_here_and_on_the_server(server, browser):
    open_app(browser, server, "meditate")
    fill_plan(browser, SHORTEST_MINUTES, 0)
    run_id = start_sit(browser, server)
    first = shown_time(browser)
    wait_for(browser, lambda d: shown_time(d) != first, message="the clock does not run")

    before_pause = time.time()
    browser.find_element(By.ID, "m-pause").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "m-pause").text == "Resume", message="no Resume button")
    paused_run = wait_for(browser, lambda d: (lambda r: r if r["status"] == "paused" else None)(
        server.get(f"/runs/{run_id}")), message="the server's run is not paused")
    paused = time.time()
    held_text = shown_time(browser)
    assert player_state(browser) == "paused"

    # A real pause: the clock must stand still while real time passes.
    time.sleep(2)
    assert shown_time(browser) == held_text
    assert "paused" in browser.find_element(By.ID, "m-ring").get_attribute("aria-label").lower()
    assert server.get(f"/runs/{run_id}")["elapsedMs"] == paused_run["elapsedMs"]

    before_resume = time.time()
    browser.find_element(By.ID, "m-pause").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "m-pause").text == "Pause", message="no Pause button")
    resumed = time.time()  # the button changes once the server answered the resume
    wait_for(browser, lambda d: shown_time(d) < held_text, message="the clock did not resume")

    # The server's run holds the pause: its elapsed time lags the wall clock by the pause, which
    # began between before_pause and paused and ended between before_resume and resumed.
    asked = time.time()
    running = server.get(f"/runs/{run_id}")
    answered = time.time()
    assert running["status"] == "running", running
    started = parse_iso(running["startedAt"]).timestamp()
    lag_ms = ((asked - started) * 1000 - running["elapsedMs"], (answered - started) * 1000 - running["elapsedMs"])
    shortest_ms, longest_ms = (before_resume - paused) * 1000, (resumed - before_pause) * 1000
    assert shortest_ms >= 2000
    assert lag_ms[1] >= shortest_ms - 5 and lag_ms[0] <= longest_ms + 5, (lag_ms, shortest_ms, longest_ms)

    violations = axe_violations(browser)
    assert not violations, violations
    shot(browser, "meditate-running")

    stop_practice(browser, "m-stop")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "m-ring"), message="stop did not end the sit")
    assert browser.find_element(By.ID, "m-end-title").text == "Practice ended."
    stopped = server.get(f"/runs/{run_id}")
    assert stopped["status"] == "stopped" and stopped["ending"]["outcome"] == "tooShortToLog", stopped
    assert server.get("/log")["records"] == []
    assert player_state(browser) == "stopped"


def expected_cues(timeline):
    """The timeline's sounding cues with repeating ones expanded, in offset order (stable).
    Worked out here from `cues` and `repeatingCues`, independently of the server's own
    expansion (`scheduledCues`), which the test checks against it."""
    cues = [{"sound": c["sound"], "offsetMs": c["offsetMs"]} for c in timeline["cues"] if c.get("sound")]
    for r in timeline.get("repeatingCues", []):
        until = r.get("untilMs") or timeline["totalMs"]
        cues += [{"sound": r["sound"], "offsetMs": at} for at in range(r["firstMs"], until, r["intervalMs"])]
    return sorted(cues, key=lambda c: c["offsetMs"])


AUDIO = ("const a = document.getElementById('run-audio');"
         "return a && {src: a.currentSrc || a.src, paused: a.paused, time: a.currentTime, ready: a.readyState};")

SESSION = ("const s = navigator.mediaSession; const m = s.metadata;"
           "return {state: s.playbackState, title: m && m.title, album: m && m.album,"
           "artwork: m && m.artwork.map((x) => x.src), position: window.momentumPlayer.position};")


def run_audio(driver):
    return driver.execute_script(AUDIO)


def playing_audio(driver, after=0.0):
    audio = run_audio(driver)
    return audio if audio and not audio["paused"] and audio["time"] > after else None


def test_a_sit_plays_the_runs_stream_and_pause_pauses_the_sound_and_the_run(server, browser):
    """Issue 24: a running sit plays through an <audio> element pointed at the run's stream; the
    ring follows the element; Media Session names it; Pause pauses the element and the run; a
    reload picks the sound up where the run is; a stall is noted and told with the ending."""
    set_size(browser, *PHONE)
    open_app(browser, server, "meditate")
    # Every kind of cue: start gong after a countdown, interval gongs, phase gong, end gong.
    fill_plan(browser, 3, 5, interval_minutes=1, reflection_minutes=1)
    run_id = start_sit(browser, server)
    plan = {"durationMs": 180000, "countdownMs": 5000, "reflectionMs": 60000,
            "intervalGongs": {"mode": "every", "minutes": 1}, "ambientID": "silent",
            "ambientVolume": 0.15, "isOpenEnded": False}
    # The server keeps the last plan a sit started with: the UI sent exactly this one.
    assert server.get("/settings")["meditation"] == plan
    status, timeline = server.api("POST", "/meditation/timeline", plan)
    assert status == 200, timeline
    assert [c["sound"] for c in expected_cues(timeline)] == \
        ["startGong", "intervalGong", "intervalGong", "phaseGong", "endGong"]
    assert server.get(f"/runs/{run_id}")["timeline"] == timeline

    # The sound is the run's stream, and it plays: its position moves.
    audio = wait_for(browser, lambda d: playing_audio(d, 0.5), timeout=15, message="the run's stream does not play")
    assert f"/api/v1/runs/{run_id}/audio" in audio["src"], audio
    # The ring's clock is the element's position: the countdown's own 5 s, then the sit's 3 min
    # and 1 min of reflection, counted down.
    at, shown = browser.execute_script(
        "return [document.getElementById('run-audio').currentTime,"
        " document.querySelector('#m-ring .time').textContent];")
    left = 5 - at if at < 5 else 245 - at
    assert abs(int(shown[:2]) * 60 + int(shown[3:]) - left) <= 1.5, (at, shown)

    session = wait_for(browser, lambda d: (lambda s: s if s["title"] and s["position"] else None)(
        d.execute_script(SESSION)), message="no Media Session")
    assert session["state"] == "playing", session
    # What is playing in the server's words: no clock that counts the countdown, no "off".
    assert session["title"] == "Meditation", session
    assert session["album"].startswith("3 min · "), session
    assert session["artwork"] and session["artwork"][0].endswith("/icon-512.png"), session
    assert session["position"]["duration"] == 245, session
    shot(browser, "meditate-stream-phone")

    # Pause: the element, the lock screen and the server's run.
    tap(browser, "m-pause")
    wait_for(browser, lambda d: run_audio(d)["paused"], message="Pause did not pause the sound")
    wait_for(browser, lambda d: server.get(f"/runs/{run_id}")["status"] == "paused", message="the run was not paused")
    assert browser.execute_script(SESSION)["state"] == "paused"
    held = run_audio(browser)["time"]
    time.sleep(0.6)
    assert run_audio(browser)["time"] == held
    tap(browser, "m-pause")
    wait_for(browser, lambda d: playing_audio(d, held + 0.2), message="Resume did not play the sound on")
    wait_for(browser, lambda d: server.get(f"/runs/{run_id}")["status"] == "running", message="the run was not resumed")

    # A reload picks the run up: the same stream, from where the run is.
    browser.refresh()
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-pause"), message="the player did not come back")
    audio = wait_for(browser, lambda d: playing_audio(d), timeout=15, message="the stream does not play after a reload")
    assert f"/api/v1/runs/{run_id}/audio" in audio["src"], audio
    elapsed = server.get(f"/runs/{run_id}")["elapsedMs"] / 1000
    assert abs(audio["time"] - elapsed) < 2.5, (audio, elapsed)

    # A stall of the stream is noted with where it happened: the element says it has too little
    # data (HAVE_CURRENT_DATA) and waits, then plays again.
    browser.execute_script(
        "const a = document.getElementById('run-audio');"
        "Object.defineProperty(a, 'readyState', {configurable: true, get: () => 2});"
        "a.dispatchEvent(new Event('waiting'));")
    time.sleep(1.3)
    browser.execute_script(
        "const a = document.getElementById('run-audio'); delete a.readyState;"
        "a.dispatchEvent(new Event('playing'));")
    stalls = browser.execute_script("return window.momentumPlayer.stalls")
    assert len(stalls) == 1 and stalls[0]["durationMs"] >= 1200, stalls

    stop_practice(browser, "m-stop")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "m-ring"))
    stopped = server.get(f"/runs/{run_id}")
    assert stopped["status"] == "stopped"
    # The sound ended with the run, and the ending tells of the interruption.
    assert run_audio(browser)["paused"]
    told = wait_for(browser, lambda d: d.find_element(By.ID, "m-end-sound").text)
    assert told.startswith("The sound was interrupted for 1 s at "), (told, stopped.get("ending"))
    assert stopped["ending"]["soundInterruptions"][0]["durationMs"] >= 1200, stopped


# A phone's autoplay policy, in a page: play() is refused until the page has been tapped.
REFUSE_UNTIL_TAPPED = """
(() => {
  const play = HTMLMediaElement.prototype.play;
  let tapped = false;
  addEventListener('click', () => { tapped = true; }, true);
  HTMLMediaElement.prototype.play = function () {
    if (!tapped) return Promise.reject(new DOMException('play() needs a tap', 'NotAllowedError'));
    return play.call(this);
  };
})();
"""


def test_after_a_reload_a_phone_that_refuses_sound_gets_one_tap_that_joins_the_run(server, browser):
    set_size(browser, *PHONE)
    open_app(browser, server, "meditate")
    fill_plan(browser, 5, 0)
    run_id = start_sit(browser, server)
    wait_for(browser, lambda d: playing_audio(d, 0.3), timeout=15, message="the run's stream does not play")
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": REFUSE_UNTIL_TAPPED})
    try:
        browser.refresh()
        button = wait_for(browser, lambda d: (b := d.find_element(By.ID, "m-tap")).is_displayed() and b,
                          message="no tap button when the browser refuses sound")
        assert button.text == "Tap to hear the sound"
        why = browser.find_element(By.ID, "m-tap-why").text
        assert why == "The practice is running; your browser waits for a tap before it plays sound.", why
        assert run_audio(browser)["paused"]
        # The practice goes on meanwhile: the ring counts from the server's clock.
        first = shown_time(browser)
        wait_for(browser, lambda d: shown_time(d) != first, timeout=3, message="the clock stopped")
        shot(browser, "meditate-tap-to-hear-phone")
        assert axe_violations(browser) == []
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
        button.click()
        audio = wait_for(browser, lambda d: playing_audio(d), timeout=15, message="the tap did not start the sound")
        assert f"/api/v1/runs/{run_id}/audio" in audio["src"], audio
        elapsed = server.get(f"/runs/{run_id}")["elapsedMs"] / 1000
        assert abs(audio["time"] - elapsed) < 2.5, (audio, elapsed)
        wait_for(browser, lambda d: not d.find_element(By.ID, "m-tap").is_displayed(), message="the button stays")
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    stop_practice(browser, "m-stop")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "m-ring"))


START_IS_ON_TOP = ("const b = document.getElementById('m-start'); const r = b.getBoundingClientRect();"
                   "const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
                   "return {top: r.top, bottom: r.bottom, height: innerHeight, onTop: hit === b || b.contains(hit)};")


def test_start_is_on_the_first_phone_screen_clear_of_the_tab_bar(server, browser):
    """Issue 25: on 320–430 px phones Start is fully visible and nothing covers it, with the
    options closed and open (then it stays above the tab bar while the form scrolls under it)."""
    for width, height in ((320, 640), (360, 740), (390, 844), (430, 932)):
        set_size(browser, width, height)
        open_app(browser, server, "meditate")
        start = browser.execute_script(START_IS_ON_TOP)
        assert start["onTop"] and 0 <= start["top"] and start["bottom"] <= start["height"], (width, start)
        meditate_options(browser)
        browser.execute_script("scrollTo(0, 0)")
        start = browser.execute_script(START_IS_ON_TOP)
        assert start["onTop"] and 0 <= start["top"] and start["bottom"] <= start["height"], (width, "open", start)
        shot(browser, f"meditate-options-open-{width}")
        browser.find_element(By.CSS_SELECTOR, "#m-options summary").click()
    # The usual lengths set the length in one tap, and − and + step it by a minute.
    browser.find_element(By.CSS_SELECTOR, '.chips [data-minutes="20"]').click()
    assert browser.find_element(By.ID, "m-minutes").get_attribute("value") == "20"
    assert browser.find_element(By.CSS_SELECTOR, '.chips [data-minutes="20"]').get_attribute("aria-pressed") == "true"
    browser.find_element(By.ID, "m-more").click()
    assert browser.find_element(By.ID, "m-minutes").get_attribute("value") == "21"
    browser.find_element(By.ID, "m-less").click()
    browser.find_element(By.ID, "m-less").click()
    assert browser.find_element(By.ID, "m-minutes").get_attribute("value") == "19"
    assert axe_violations(browser) == []


def test_a_saved_sit_made_in_the_terminal_is_a_card_that_starts_with_one_tap(server, browser):
    """Issue 25: Meditate opens on the person's saved sits; one made with `momentum meditate
    presets add` shows with the server's summary and starts with one tap; a deep link chooses it;
    the quick sit can be saved as one from the page."""
    made = subprocess.run([momentum_bin(), "meditate", "presets", "add", "Morning", "20", "--interval", "10",
                           "--countdown", "0", "--data", str(server.data_dir)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    set_size(browser, *PHONE)
    open_app(browser, server, "meditate")
    card = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.saved-sit[data-name="Morning"]'),
                    message="the saved sit is not shown")
    assert card.text.splitlines() == ["Morning", "20 min · gongs every 10 min"], card.text
    start = browser.execute_script(START_IS_ON_TOP)
    assert start["onTop"] and start["bottom"] <= start["height"], start
    shot(browser, "meditate-saved-sits-phone")
    assert axe_violations(browser) == []

    # A deep link shows it with its own Start, focused, ready for the one tap.
    morning = [p for p in server.get("/meditation/presets")["presets"] if p["name"] == "Morning"][0]
    browser.get(f"{server.url}/#meditate/preset/morning")
    wait_for(browser, lambda d: d.switch_to.active_element.get_attribute("data-preset") == morning["id"],
             message="the deep link did not show the saved sit's Start")
    assert browser.find_element(By.ID, "m-linked-title").text == "Morning"
    browser.switch_to.active_element.click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-pause"), message="the saved sit did not start")
    run = [r for r in server.get("/runs")["runs"] if r["kind"] == "meditation"][-1]
    assert run["timeline"]["totalMs"] == 20 * 60000, run["timeline"]["totalMs"]
    title = wait_for(browser, lambda d: d.execute_script(
        "return navigator.mediaSession.metadata && navigator.mediaSession.metadata.title"))
    assert title == "Morning", title
    stop_practice(browser, "m-stop")
    tap(browser, "m-done")

    # The quick sit saved from the page becomes a card too.
    fill_plan(browser, 25, 5, interval_minutes=5)
    name = browser.find_element(By.ID, "m-save-name")
    name.send_keys("Evening")
    tap(browser, "m-save")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.saved-sit[data-name="Evening"]'),
             message="the saved sit was not added")
    saved = [p for p in server.get("/meditation/presets")["presets"] if p["name"] == "Evening"]
    assert saved and saved[0]["plan"]["durationMs"] == 25 * 60000, saved
