"""Practising with the server out of reach (issue 43, docs/offline.md): the page reloaded with the
network emulated offline opens from the service worker in the person's language, Meditate,
Breathe and Workout list the practices kept on this device, and a saved sit, a breathing preset
and a workout program start there, play the kept sound (its cues where the timeline has them),
pause, resume, stop and end on the completion view — a note included. Back online, each is in the
log once, with the times it was played."""
import datetime
import time

from selenium.webdriver.common.by import By

from conftest import allow_console, axe_violations, go, open_app, set_size, shot, stop_practice, tap, wait_for
from test_offline_store import keep_offline, offline, refreshed

SIT = {"name": "Minute on the bench", "plan": {"durationMs": 60000, "countdownMs": 0}}
# 7 rounds of 4 s in, 6 s out: 70 s.
BREATHING = {"name": "Platform breath", "pattern": "4-0-6-0", "rounds": 7}
# Two rounds of 45 s work and 5 s rest: 95 s, stopped early after a minute.
WORKOUT = {"name": "Basement circuit", "plan": {
    "getReadyMs": 0, "warmUpMs": 0, "workMs": 45000, "restMs": 5000, "rounds": 2, "sets": 1,
    "setRestMs": 0, "coolDownMs": 0, "exerciseNames": ["Squats"]}}


def cue_offsets(browser, key, cues):
    """Decodes the kept sound of `key` in the page (Web Audio, at the file's own rate) and answers,
    for each cue of the timeline, where its sound begins (ms): the first sample in [-20, +50] ms
    around the cue that is four times louder than the 40 ms before that window (and at least 1 %
    of full scale), or null."""
    return browser.execute_async_script(
        "const [path, cues, done] = arguments;"
        "(async () => {"
        "  const bytes = await (await fetch(path)).arrayBuffer();"
        "  const context = new OfflineAudioContext(1, 1, 22050);"
        "  const audio = await context.decodeAudioData(bytes);"
        "  const x = audio.getChannelData(0); const rate = audio.sampleRate;"
        "  const at = (ms) => Math.round(ms * rate / 1000);"
        "  return cues.map((ms) => {"
        "    let floor = 0;"
        "    for (let i = Math.max(0, at(ms - 60)); i < Math.max(0, at(ms - 20)); i++) floor = Math.max(floor, Math.abs(x[i]));"
        "    const threshold = Math.max(0.01, 4 * floor);"
        "    for (let i = Math.max(0, at(ms - 20)); i < Math.min(x.length, at(ms + 50)); i++) {"
        "      if (Math.abs(x[i]) > threshold) return i * 1000 / rate;"
        "    }"
        "    return null;"
        "  });"
        "})().then(done, (e) => done(String(e)));", f"/offline/audio/{key}", cues)


def waiting_line(browser):
    """The line that says what waits to be saved, read as it is (it is drawn again as sending ends)."""
    return browser.execute_script("return document.getElementById('offline-waiting-count')?.textContent || null")


def logged(server):
    answer = server.get("/log")
    return answer["records"] if isinstance(answer, dict) else answer


def play_kept(browser, prefix, key):
    """Starts the kept practice `key` from the section's list; answers the wall instant."""
    button = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, f'#{prefix}-kept li[data-key="{key}"] button'),
                      timeout=15, message=f"{key} is not listed as kept")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    started = datetime.datetime.now(datetime.timezone.utc)
    button.click()
    wait_for(browser, lambda d: d.execute_script(
        "const a = document.getElementById('run-audio');"
        "return a && a.src.includes('/offline/audio/') && !a.paused && a.currentTime > 0.5;"),
        timeout=15, message=f"the kept sound of {key} did not play")
    return started


def position(browser):
    return browser.execute_script("return document.getElementById('run-audio').currentTime")


def test_kept_practices_start_offline_and_reach_the_log_once_back_online(server, browser):
    keys = {}
    status, sit = server.api("POST", "/meditation/presets", SIT)
    assert status == 201, sit
    keys["sit"] = f"sit.{sit['id']}"
    status, preset = server.api("POST", "/breathing/presets", BREATHING)
    assert status == 201, preset
    keys["breathing"] = f"breathing.{preset['id']}"
    status, program = server.api("POST", "/workouts/programs", WORKOUT)
    assert status == 201, program
    keys["workout"] = f"workout.{program['id']}"

    set_size(browser, 390, 844)
    open_app(browser, server, "meditate")
    keep_offline(browser, 2)
    open_app(browser, server, "meditate")
    wait_for(browser, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=15,
             message="the service worker never took the page")
    index = refreshed(browser)
    states = {entry["key"]: entry["state"] for entry in index["practices"]}
    assert all(states[key] == "kept" for key in keys.values()), [(e["key"], e["state"], e["bytes"]) for e in index["practices"][:6]]
    prepared = {entry["key"]: entry for entry in index["prepared"]}

    # The kept sound keeps the timeline: each cue sounds within 10 ms of its place.
    for key in keys.values():
        # The cues that sound (a breathing's "get ready" is words on the screen only).
        cues = [cue["offsetMs"] for cue in prepared[key]["run"]["timeline"]["cues"] if cue.get("sound")]
        assert cues, key
        found = cue_offsets(browser, key, cues)
        assert isinstance(found, list), found
        late = [(cue, onset) for cue, onset in zip(cues, found) if onset is None or abs(onset - cue) > 10]
        assert not late, (key, late, prepared[key]["run"]["timeline"]["cues"][:4])

    # With the network gone, the app opens from the service worker, in English.
    allow_console(browser, r"net::ERR_INTERNET_DISCONNECTED")
    offline(browser, True)
    browser.refresh()  # a load of its own (the same address with another #section would not be)
    card = wait_for(browser, lambda d: d.find_element(By.ID, "m-kept"), timeout=15,
                    message="Meditate did not show what is kept")
    assert "Kept on this device" in card.text
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-kept-fresh"))
    assert browser.find_element(By.ID, "m-kept-fresh").text.startswith("As prepared by the server on")
    listed = [li.get_attribute("data-key") for li in card.find_elements(By.CSS_SELECTOR, "li")]
    # The saved sit, then the usual sit Meditate starts with (kept too: a person who saved none
    # has it offline).
    assert listed == [keys["sit"], "sit.usual"], listed
    shot(browser, "offline-kept-390")
    assert not axe_violations(browser)

    # The sit: paused and resumed, it plays to its end.
    sit_started = play_kept(browser, "m", keys["sit"])
    tap(browser, "m-pause")
    held = position(browser)
    time.sleep(2)  # the pause lasts on the wall clock: the sit ends two seconds later
    assert abs(position(browser) - held) < 0.05
    tap(browser, "m-pause")
    wait_for(browser, lambda d: position(d) > held + 0.3, message="the sound did not resume")
    end = wait_for(browser, lambda d: d.find_element(By.ID, "m-end"), timeout=90, message="the sit did not end")
    assert end.get_attribute("data-outcome") == "completed"
    assert "Kept on this device: it goes into your log once the server is reached." in end.text
    note = browser.find_element(By.ID, "m-end-note")
    note.send_keys("Pigeons, then quiet")
    tap(browser, "m-end-note-save")
    wait_for(browser, lambda d: d.find_element(By.ID, "m-end-note-status").text == "Note kept: it goes into your log with this practice.")
    shot(browser, "offline-sit-end-390")
    assert wait_for(browser, lambda d: waiting_line(d)) == "1 practice waiting to be saved."
    tap(browser, "m-done")
    wait_for(browser, lambda d: d.find_element(By.ID, "m-kept"))

    # The breathing preset plays to its end.
    go(browser, "breathe")
    breathing_started = play_kept(browser, "b", keys["breathing"])
    wait_for(browser, lambda d: d.find_element(By.ID, "b-end"), timeout=100, message="the breathing did not end")

    # The workout is stopped after a minute: asked, and kept.
    tap(browser, "b-done")
    wait_for(browser, lambda d: d.find_element(By.ID, "b-kept"))
    go(browser, "workout")
    workout_started = play_kept(browser, "w", keys["workout"])
    wait_for(browser, lambda d: position(d) > 62, timeout=90, message="the workout did not play a minute")
    question = stop_practice(browser, "w-stop", "stop-keep")
    assert "It is saved once the server is reached." in question
    end = wait_for(browser, lambda d: d.find_element(By.ID, "w-end"))
    assert end.get_attribute("data-outcome") == "stopped"
    wait_for(browser, lambda d: waiting_line(d) == "3 practices waiting to be saved.",
             message="three practices were not waiting")
    assert logged(server) == []

    # Back online: each is logged once, with the times it was played.
    offline(browser, False)
    wait_for(browser, lambda d: not d.find_elements(By.ID, "offline-waiting"), timeout=20,
             message="the practices were not sent when the browser came back online")
    records = {record["kind"]: record for record in logged(server)}
    assert len(logged(server)) == 3, logged(server)
    for kind, started in (("meditation", sit_started), ("breathing", breathing_started), ("workout", workout_started)):
        start = datetime.datetime.fromisoformat(records[kind]["start"].replace("Z", "+00:00"))
        assert abs((start - started).total_seconds()) < 3, (kind, records[kind])
    # Counted as practised: the pause is not practice.
    assert records["meditation"]["countedSeconds"] == 60, records["meditation"]
    assert records["meditation"]["details"].get("note") == "Pigeons, then quiet"
    assert records["meditation"]["details"].get("preset") == SIT["name"]
    assert records["breathing"]["countedSeconds"] == 70, records["breathing"]
    assert 62 <= records["workout"]["countedSeconds"] <= 66, records["workout"]
    assert records["workout"]["details"].get("stoppedEarly") == "true"

    # Reloaded online, the pages are as they are with the server.
    open_app(browser, server, "meditate")
    wait_for(browser, lambda d: d.find_element(By.ID, "m-start"))
    assert not browser.find_elements(By.ID, "m-kept")
