"""Morse: the course overview; a receive session copied by ear (what each item sounds like is read
back from the server's session with the server's own decoder — nothing in the page gives the
answer away), with a missed item and a level up; keys typed while a miss is replayed answer the next
item; a send session keyed with dit/dah keys and with a straight key held for real durations; the
overview in German. Level 1 practises K and M (SPEC §7)."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import (PHONE, DESKTOP, allow_console, axe_violations, go, missing_keys, open_app, set_size, shot,
                      wait_for)

SEED = "7"  # data-seed on #view-morse: the server draws the same items every run
PATTERNS = {"K": "− · −", "M": "− −"}  # as the page shows them


def by_id(driver, id_):
    return driver.find_element(By.ID, id_)


def text_of(driver, id_):
    found = driver.find_elements(By.ID, id_)
    return found[0].text if found else ""


def start_session(driver, direction):
    """From the overview: start a session with the fixed seed, wait for the introduction, begin."""
    driver.execute_script("document.getElementById('view-morse').dataset.seed = arguments[0]", SEED)
    by_id(driver, f"mo-start-{direction}").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "mo-intro"), message="no introduction")
    return wait_for(driver, lambda d: d.find_elements(By.ID, "mo-begin"))[0]


def training(driver):
    return driver.find_element(By.ID, "mo-training")


def attempts(driver):
    return int(training(driver).get_attribute("data-attempts") or 0)


def drill_state(driver):
    return by_id(driver, "mo-drill").get_attribute("data-state")


def heard(server, session_id):
    """What the waiting item sounds like: its elements, keyed back into the server's decoder."""
    session = server.get(f"/morse/sessions/{session_id}")
    signals = [{"down": e["ms"]} if e["on"] else {"up": e["ms"]} for e in session["item"]["elements"]]
    status, reading = server.api("POST", "/morse/decode", {"signals": signals})
    assert status == 200, reading
    return reading["text"]


def level_one_item(server, session_id):
    """K or M, read from the waiting item's elements: a tone longer than twice the gap is a dah."""
    elements = server.get(f"/morse/sessions/{session_id}")["item"]["elements"]
    unit = min(e["ms"] for e in elements if not e["on"])
    pattern = "".join("-" if e["ms"] > 2 * unit else "." for e in elements if e["on"])
    return {"-.-": "K", "--": "M"}[pattern]


def page_width(driver):
    """The page's width; a phone widens its layout viewport for content that is too wide."""
    return driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, window.innerWidth)")


def sequences(driver):
    """How many sounds the page has put on the Web Audio clock so far."""
    return driver.execute_script("return window.momentumMorseAudio.sequences")


def test_the_overview_shows_the_course_and_passes_axe(server, browser):
    open_app(browser, server, "morse")
    for direction, count in (("receive", 25), ("send", 25)):
        assert text_of(browser, f"mo-{direction}-level") == f"Level 1 of {count}"
        assert "".join(text_of(browser, f"mo-{direction}-characters").split()) == "KM"
        assert text_of(browser, f"mo-{direction}-next") == "Practice is due now."
    assert "Morse streak: 0 days" in text_of(browser, "mo-streak")
    assert by_id(browser, "mo-accuracy-none").is_displayed()

    # Settings: a value out of bounds shows the server's message and changes nothing.
    allow_console(browser, r"status of 422")
    by_id(browser, "mo-settings-edit").click()
    speed = wait_for(browser, lambda d: d.find_elements(By.ID, "mo-char-wpm"))[0]
    assert browser.switch_to.active_element == speed
    speed.clear()
    speed.send_keys("70")
    by_id(browser, "mo-settings-save").click()
    error = wait_for(browser, lambda d: text_of(d, "mo-char-wpm-error"), message="no error beside the speed")
    assert "60" in error, error
    assert speed.get_attribute("aria-invalid") == "true"
    assert server.get("/morse/settings")["characterWPM"] == 20
    speed.clear()
    speed.send_keys("25")
    by_id(browser, "mo-settings-save").click()
    wait_for(browser, lambda d: "25 wpm" in text_of(d, "mo-settings-summary"), message="not saved")
    assert server.get("/morse/settings")["characterWPM"] == 25

    assert axe_violations(browser) == []
    shot(browser, "desktop-morse")
    set_size(browser, *PHONE)
    assert axe_violations(browser) == []
    assert page_width(browser) <= PHONE[0]
    shot(browser, "phone-morse")


def test_a_receive_session_copied_by_ear_levels_up_and_says_what_was_logged(server, browser):
    status, body = server.api("PATCH", "/morse/settings", {"sessionSeconds": 60})
    assert status == 200, body
    open_app(browser, server, "morse")
    begin = start_session(browser, "receive")
    # The newest character first: M, then K.
    first = by_id(browser, "mo-intro-0")
    assert first.find_element(By.CLASS_NAME, "morse-char").text == "M"
    assert "− −" in first.text
    assert by_id(browser, "mo-intro-1").find_element(By.CLASS_NAME, "morse-char").text == "K"
    wait_for(browser, lambda d: sequences(d) >= 1, message="the introduction did not sound")
    shot(browser, "desktop-morse-intro")
    begin.click()

    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-training"))
    session_id = training(browser).get_attribute("data-session-id")
    answer = by_id(browser, "mo-answer")
    assert browser.switch_to.active_element == answer
    right = 0
    missed = False
    while right < 20:
        done = attempts(browser)
        wait_for(browser, lambda d: drill_state(d) in ("listening", "answering"))
        if done == 2 and not missed:
            # No answer: the visible 3 s countdown starts when the sound ends and runs out.
            wait_for(browser, lambda d: drill_state(d) == "answering", message="the sound never ended")
            assert "s to answer" in text_of(browser, "mo-countdown")
            expected = heard(server, session_id)
            before = sequences(browser)
            wait_for(browser, lambda d: attempts(d) == done + 1, timeout=8, message="the countdown did not run out")
            feedback = by_id(browser, "mo-feedback")
            assert "wrong" in feedback.get_attribute("class")
            assert "It was" in feedback.text and expected in feedback.text, feedback.text
            assert PATTERNS[expected] in feedback.text, feedback.text
            assert "no answer in time" in feedback.text
            # The miss is replayed (then the next item sounds).
            wait_for(browser, lambda d: sequences(d) >= before + 2, message="the miss was not replayed")
            shot(browser, "desktop-morse-missed")
            missed = True
            continue
        answer.send_keys(heard(server, session_id) + Keys.ENTER)
        wait_for(browser, lambda d: attempts(d) == done + 1, message=f"answer {done + 1} was not taken")
        assert "right" in by_id(browser, "mo-feedback").get_attribute("class")
        right += 1
        if right == 5:
            shot(browser, "desktop-morse-receive")

    assert text_of(browser, "mo-score") == "20 of 21 right so far"
    by_id(browser, "mo-end").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-results"), message="no results")
    assert text_of(browser, "mo-results-score") == "20 of 21"
    assert text_of(browser, "mo-results-accuracy") == "95%"
    # The card may still be filling in on a busy machine: wait for its words.
    celebration = wait_for(browser, lambda d: (lambda e: e if "Level 2 reached" in e.text else None)(
        d.find_element(By.ID, "mo-levelup")), message="no level-up card")
    assert "New character: R" in celebration.text, celebration.text
    assert [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#mo-results-table tbody th")] == ["K", "M"]
    assert "Next practice:" in text_of(browser, "mo-results-next") or "due" in text_of(browser, "mo-results-next")
    # The card fades in (unless motion is reduced); contrast is checked once it has settled.
    wait_for(browser, lambda d: d.execute_script(
        "return document.getAnimations().every((a) => a.playState === 'finished')"))
    assert axe_violations(browser) == []
    shot(browser, "desktop-morse-results")
    set_size(browser, *PHONE)
    assert page_width(browser) <= PHONE[0]
    shot(browser, "phone-morse-results")
    set_size(browser, *DESKTOP)

    # Under a minute of training: the course moved, the log did not (one rule for every kind).
    assert text_of(browser, "mo-results-logged").startswith("Not in the log:"), text_of(browser, "mo-results-logged")
    assert [r for r in server.get("/log")["records"] if r["kind"] == "morse"] == []
    assert server.get("/morse/progress")["receive"]["level"] == 2

    # Back on the overview: level 2, and the accuracy chart with its table.
    by_id(browser, "mo-results-back").click()
    wait_for(browser, lambda d: text_of(d, "mo-receive-level") == "Level 2 of 25")
    chart = by_id(browser, "mo-chart-receive-svg")
    assert chart.get_attribute("aria-label").startswith("Receive: accuracy per character: K "), chart.get_attribute("aria-label")
    assert "".join(text_of(browser, "mo-receive-characters").split()) == "KMR"
    assert axe_violations(browser) == []
    shot(browser, "desktop-morse-chart")
    set_size(browser, *PHONE)
    assert page_width(browser) <= PHONE[0]
    browser.execute_script("document.getElementById('mo-accuracy').scrollIntoView()")
    shot(browser, "phone-morse-chart")


def test_keys_typed_while_a_miss_is_replayed_answer_the_next_item(server, browser):
    # Slow sounds (8 wpm), so the replay of the miss lasts long enough to type into it.
    status, body = server.api("PATCH", "/morse/settings", {"characterWPM": 8, "effectiveWPM": 8})
    assert status == 200, body
    open_app(browser, server, "morse")
    start_session(browser, "receive").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-training"))
    session_id = training(browser).get_attribute("data-session-id")
    answer = by_id(browser, "mo-answer")
    wait_for(browser, lambda d: drill_state(d) in ("listening", "answering"))
    first = level_one_item(server, session_id)
    answer.send_keys(("M" if first == "K" else "K") + Keys.ENTER)
    wait_for(browser, lambda d: attempts(d) == 1, message="the wrong answer was not taken")
    assert "wrong" in by_id(browser, "mo-feedback").get_attribute("class")

    # On the audio clock: the replay of the miss, then 1 s of calm, then the next item.
    session = server.get(f"/morse/sessions/{session_id}")
    replay_s = sum(e["ms"] for e in session["lastAttempt"]["elements"]) / 1000
    next_start = browser.execute_script("return window.momentumMorseAudio.lastStartAt")
    replay_end = next_start - 1.05  # the calm, and the scheduling lead of the next sound
    replay_start = replay_end - replay_s
    audio_now = "return window.momentumMorseAudio.clock()"
    wait_for(browser, lambda d: d.execute_script(audio_now) > replay_start + 0.1, message="the replay did not start")
    assert drill_state(browser) == "between"

    # Typed while the miss sounds: the next item's answer, with Enter.
    following = level_one_item(server, session_id)
    answer.send_keys(following + Keys.ENTER)
    assert browser.execute_script(audio_now) < replay_end, "typed too late to test the replay"
    # Held, not sent: the next item has not sounded yet.
    assert drill_state(browser) == "between"
    assert attempts(browser) == 1
    assert answer.get_attribute("value") == ""

    # Once the next item sounds, the held keys are its answer.
    wait_for(browser, lambda d: attempts(d) == 2, timeout=8, message="the keys typed during the replay were lost")
    attempt = server.get(f"/morse/sessions/{session_id}")["lastAttempt"]
    assert attempt["answer"] == following and attempt["isCorrect"], attempt
    assert "right" in by_id(browser, "mo-feedback").get_attribute("class")
    # Sent when the item started, not before: the calm after the replay kept its length.
    assert browser.execute_script(audio_now) >= next_start - 0.1


def key_space(driver, *durations):
    """Holds Space for each (down, up) pair of seconds: a straight key keyed by hand."""
    chain = ActionChains(driver)
    for down, up in durations:
        chain.key_down(Keys.SPACE).pause(down).key_up(Keys.SPACE)
        if up:
            chain.pause(up)
    chain.perform()


def test_a_send_session_keyed_with_dit_dah_keys_and_a_straight_key(server, browser):
    open_app(browser, server, "morse")
    start_session(browser, "send").click()
    target = wait_for(browser, lambda d: text_of(d, "mo-target") in ("K", "M") and text_of(d, "mo-target"),
                      message="no target shown")
    assert not browser.find_elements(By.CSS_SELECTOR, "#mo-drill .morse-pattern")  # no pattern hint
    wait_for(browser, lambda d: drill_state(d) == "keying")

    # Dit/dah keys from the keyboard: J F J is dah dit dah (K), J J dah dah (M).
    ActionChains(browser).send_keys(*({"K": "jfj", "M": "jj"}[target])).perform()
    wait_for(browser, lambda d: PATTERNS[target] in text_of(d, "mo-pattern"), message="the pattern did not grow")
    assert sequences(browser) >= 3  # each element sounded as it was keyed
    shot(browser, "desktop-morse-send")
    # 2 s after the last element the character is complete and scored.
    wait_for(browser, lambda d: attempts(d) == 1, timeout=6, message="the character was not completed")
    assert "right" in by_id(browser, "mo-feedback").get_attribute("class")

    # Backspace clears a character being keyed.
    wait_for(browser, lambda d: drill_state(d) == "keying")
    ActionChains(browser).send_keys("f").perform()
    wait_for(browser, lambda d: "·" in text_of(d, "mo-pattern"))
    ActionChains(browser).send_keys(Keys.BACKSPACE).perform()
    wait_for(browser, lambda d: "·" not in text_of(d, "mo-pattern"), message="Backspace did not clear")

    # Pause and resume, by the button and by leaving the tab (which pauses a session in training).
    session_id = training(browser).get_attribute("data-session-id")
    by_id(browser, "mo-pause").click()
    wait_for(browser, lambda d: training(d).get_attribute("data-phase") == "paused", message="did not pause")
    assert text_of(browser, "mo-time-left").startswith("Paused")
    assert server.get(f"/morse/sessions/{session_id}")["phase"] == "paused"
    by_id(browser, "mo-resume").click()
    wait_for(browser, lambda d: training(d).get_attribute("data-phase") == "training" and drill_state(d) == "keying")
    go(browser, "progress")
    wait_for(browser, lambda d: server.get(f"/morse/sessions/{session_id}")["phase"] == "paused",
             message="leaving the tab did not pause")
    go(browser, "morse")
    assert training(browser).get_attribute("data-phase") == "paused"
    by_id(browser, "mo-resume").click()
    wait_for(browser, lambda d: drill_state(d) == "keying")

    # Straight key: Space held 240 ms for a dah, 80 ms for a dit, with 80 ms gaps (about 15 wpm).
    target = text_of(browser, "mo-target")
    by_id(browser, "mo-mode-straight").click()
    assert by_id(browser, "mo-key").is_displayed() and not by_id(browser, "mo-dit").is_displayed()
    if target == "K":
        key_space(browser, (0.24, 0.08), (0.08, 0.08), (0.24, 0))
    else:
        key_space(browser, (0.24, 0.08), (0.24, 0))
    wait_for(browser, lambda d: f"Read so far: {target}" in text_of(d, "mo-decoded"), message="no live decoding")
    shot(browser, "desktop-morse-straight")
    wait_for(browser, lambda d: attempts(d) == 2, timeout=6, message="the keying was not sent")
    assert "right" in by_id(browser, "mo-feedback").get_attribute("class"), text_of(browser, "mo-feedback")
    assert server.get(f"/morse/sessions/{session_id}")["lastAttempt"]["answer"] == target
    set_size(browser, *PHONE)
    assert page_width(browser) <= PHONE[0]
    shot(browser, "phone-morse-send")
    set_size(browser, *DESKTOP)

    by_id(browser, "mo-end").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-results"), message="no results")
    assert text_of(browser, "mo-results-score") == "2 of 2"
    assert not browser.find_elements(By.ID, "mo-levelup")


def test_a_receive_session_on_a_band_plays_the_servers_sound_and_counts_from_its_end(server, browser):
    open_app(browser, server, "morse")
    Select(by_id(browser, "mo-receive-band")).select_by_value("weak-dx")
    start_session(browser, "receive").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-training"))
    session_id = training(browser).get_attribute("data-session-id")
    session = server.get(f"/morse/sessions/{session_id}")
    assert session["conditions"] == "weak-dx"
    assert session["item"]["audio"].endswith(f"/morse/sessions/{session_id}/item.wav?item=0")
    state = "window.momentumMorseAudio"
    wait_for(browser, lambda d: d.execute_script(f"return {state}.sounds") == 1, message="the band's sound did not play")
    # The server's sound lasts as long as the elements the page was given (keyed by the band's
    # hand), and the answer window opens when it ends, not before.
    start, end = browser.execute_script(f"return [{state}.lastStartAt, {state}.lastEndAt]")
    keyed_s = sum(e["ms"] for e in session["item"]["elements"]) / 1000
    assert abs((end - start) - keyed_s) < 0.03, (end - start, keyed_s)
    wait_for(browser, lambda d: drill_state(d) == "answering", timeout=10, message="no answer window")
    assert browser.execute_script(f"return {state}.clock()") >= end - 0.05
    answer = by_id(browser, "mo-answer")
    answer.send_keys(heard(server, session_id) + Keys.ENTER)
    wait_for(browser, lambda d: attempts(d) == 1, message="the answer was not taken")
    assert "right" in by_id(browser, "mo-feedback").get_attribute("class")
    # The next item is the band's too.
    wait_for(browser, lambda d: d.execute_script(f"return {state}.sounds") == 2, message="the next item was not the band's")
    by_id(browser, "mo-end").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-results"), message="no results")
    # Back on the overview, the band is still the one chosen.
    by_id(browser, "mo-results-back").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-receive-band"))
    assert Select(by_id(browser, "mo-receive-band")).first_selected_option.get_attribute("value") == "weak-dx"
    set_size(browser, *PHONE)
    shot(browser, "phone-morse-receive-band")


def test_the_overview_in_german_has_every_string(server, browser):
    status, body = server.api("PATCH", "/settings", {"language": "de"})
    assert status == 200, body
    open_app(browser, server, "morse")
    assert browser.find_element(By.CSS_SELECTOR, "#view-morse h1").text == "Morse"
    assert text_of(browser, "mo-receive-title") == "Hören"
    assert text_of(browser, "mo-receive-level") == "Stufe 1 von 25"
    assert text_of(browser, "mo-start-send") == "Gebetraining starten"
    by_id(browser, "mo-settings-edit").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-settings-form"))
    assert missing_keys(browser) == []
    assert axe_violations(browser) == []
    set_size(browser, *PHONE)
    shot(browser, "phone-morse-de")


def test_hidden_streaks_are_hidden_in_the_course_too(server, browser):
    status, _ = server.api("PATCH", "/settings", {"progress": {"hideStreaks": True}})
    assert status == 200
    open_app(browser, server, "morse")
    streak = wait_for(browser, lambda d: text_of(d, "mo-streak"), message="no streak card")
    assert streak == "Streaks are hidden. You can show them again in Settings.", streak
    assert "0 days" not in streak
