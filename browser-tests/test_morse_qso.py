"""Morse QSO practice: the call sign (none, a bad one refused, a good one saved), a contact where
the person answers a station's CQ — copied by ear first (the text is hidden until asked for),
an incomplete reply answered with a repeat request and its hint, then every over the hint asks
for until the contact is complete — and the QSO card and a contact in German."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (PHONE, wait_for, DESKTOP, allow_console, axe_violations, missing_keys, open_app, set_size, shot,
                      wait_for)

SEED = "7"  # data-seed on #view-morse: the server draws the same station every run
OWN_CALL = "DL1ABC"


def by_id(driver, id_):
    return driver.find_element(By.ID, id_)


def text_of(driver, id_):
    found = driver.find_elements(By.ID, id_)
    return found[0].text if found else ""


def press(driver, id_):
    """Clicks a button after scrolling it to the middle (on a phone the tab bar covers the bottom)."""
    button = by_id(driver, id_)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def sequences(driver):
    """How many sounds the page has put on the Web Audio clock so far."""
    return driver.execute_script("return window.momentumMorseAudio.sequences")


def contact(driver):
    return by_id(driver, "mo-qso")


def contact_data(driver, name):
    """A data attribute of the contact, read in the page (the card is replaced by a new contact)."""
    return driver.execute_script(
        "const c = document.getElementById('mo-qso'); return c ? c.dataset[arguments[0]] || null : null", name)


def turns(driver):
    return int(contact_data(driver, "turns") or 0)


def revealed(driver):
    return contact_data(driver, "revealed") == "true"


def page_width(driver):
    return driver.execute_script("return Math.max(document.documentElement.scrollWidth, window.innerWidth)")


def transcript(driver):
    """The transcript as (sender label, text) pairs."""
    return [(li.find_element(By.CLASS_NAME, "sender").text, li.find_element(By.CLASS_NAME, "text").text)
            for li in driver.find_elements(By.CSS_SELECTOR, "#mo-qso-transcript li")]


def send(driver, text):
    """Types an over into the send field and presses Enter; waits for the station's answer."""
    before = turns(driver)
    field = by_id(driver, "mo-qso-text")
    field.send_keys(text + Keys.ENTER)
    wait_for(driver, lambda d: d.find_elements(By.ID, "mo-qso-done") or turns(d) == before + 2,
             message=f"no answer to {text!r}")


def over_for(hint, station_call):
    """What to send for the page's hint ("Send the other station’s call sign, your call sign and
    report (RST)."): each element the hint names, in the hint's order."""
    parts = {
        "the other station’s call sign": f"{station_call} DE",
        "your call sign": OWN_CALL,
        "report (RST)": "UR RST 579",
        "name": "NAME ANNA",
        "sign-off (73 or SK)": "73 SK",
    }
    named = sorted(((hint.find(name), words) for name, words in parts.items() if name in hint))
    assert named, f"the hint names nothing this test knows: {hint!r}"
    return " ".join(words for _, words in named) + " K"


def open_qso(driver):
    """A learner at level 1 is told when a contact makes sense; "Try a contact anyway" opens it."""
    wait_for(driver, lambda d: d.find_elements(By.ID, "mo-qso-setup"))
    tried = driver.find_elements(By.ID, "mo-qso-try")
    if tried and not tried[0].get_attribute("open"):
        assert "25 of 25" in text_of(driver, "mo-qso-later") or "25 von 25" in text_of(driver, "mo-qso-later")
        summary = tried[0].find_element(By.TAG_NAME, "summary")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", summary)
        summary.click()


def test_answering_a_cq_copied_by_ear_to_the_end(server, browser):
    allow_console(browser, r"status of 422")
    open_app(browser, server, "morse")
    open_qso(browser)
    card = by_id(browser, "mo-qso-setup")
    assert text_of(browser, "mo-qso-setup-title") == "QSO practice"
    assert by_id(browser, "mo-qso-call-none").is_displayed()
    about = text_of(browser, "mo-qso-style-contest-about")
    assert "serial number" in about, about
    assert by_id(browser, "mo-qso-style-firstContact").is_selected()

    # No call sign: Start says so (the server's message) and leads to the call sign field.
    by_id(browser, "mo-qso-start").click()
    error = wait_for(browser, lambda d: text_of(d, "mo-qso-error"), message="no message without a call sign")
    assert "call sign" in error, error
    assert browser.switch_to.active_element == by_id(browser, "mo-qso-call")
    assert not browser.find_elements(By.ID, "mo-qso")

    # A bad call sign is refused with the server's message and changes nothing.
    call = by_id(browser, "mo-qso-call")
    call.send_keys("ABC")
    by_id(browser, "mo-qso-call-save").click()
    refusal = wait_for(browser, lambda d: text_of(d, "mo-qso-call-error"), message="a bad call sign was not refused")
    assert "digit" in refusal, refusal
    assert server.get("/morse/call-sign") == {"callSign": None}
    assert axe_violations(browser) == []
    shot(browser, "desktop-morse-qso-setup")

    call.clear()
    call.send_keys(OWN_CALL.lower())
    by_id(browser, "mo-qso-call-save").click()
    wait_for(browser, lambda d: server.get("/morse/call-sign") == {"callSign": OWN_CALL}, message="not saved")
    wait_for(browser, lambda d: not by_id(d, "mo-qso-call-error").is_displayed())
    assert call.get_attribute("value") == OWN_CALL
    assert not by_id(browser, "mo-qso-call-none").is_displayed()
    assert not by_id(browser, "mo-qso-error").is_displayed()  # the refusal no longer holds
    set_size(browser, *PHONE)
    assert page_width(browser) <= PHONE[0]
    assert axe_violations(browser) == []
    browser.execute_script("arguments[0].scrollIntoView()", card)
    shot(browser, "phone-morse-qso-setup")
    set_size(browser, *DESKTOP)

    # Answer a CQ, first contact, with a fixed station.
    browser.find_element(By.CSS_SELECTOR, "label[for=mo-qso-mode-answer]").click()
    assert by_id(browser, "mo-qso-mode-answer").is_selected()
    browser.execute_script("document.getElementById('view-morse').dataset.seed = arguments[0]", SEED)
    before = sequences(browser)
    by_id(browser, "mo-qso-start").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-qso"), message="no contact")
    contact_id = contact(browser).get_attribute("data-contact-id")
    on_server = server.get(f"/morse/qso/{contact_id}")
    cq = on_server["station"]["text"]
    assert cq.startswith("CQ CQ CQ DE "), cq

    # The CQ plays on the audio clock; its text is nowhere on the page yet.
    wait_for(browser, lambda d: sequences(d) == before + 1, message="the CQ did not play")
    audio = browser.execute_script("return window.momentumMorseAudio")
    assert audio["lastEndAt"] > audio["lastStartAt"]
    assert browser.switch_to.active_element == by_id(browser, "mo-qso-text")
    assert "You are DL1ABC and answer the station’s CQ." == text_of(browser, "mo-qso-as")
    assert not revealed(browser)
    assert text_of(browser, "mo-qso-station-text") == ""
    assert cq not in browser.find_element(By.TAG_NAME, "body").text
    assert transcript(browser) == [("Station", "(hidden — copy by ear)")]
    wait_for(browser, lambda d: "Copy by ear" in text_of(d, "mo-qso-status"), timeout=30,
             message="the status did not follow the sound's end")
    shot(browser, "desktop-morse-qso-listening")

    # Replay plays it again.
    by_id(browser, "mo-qso-replay").click()
    wait_for(browser, lambda d: sequences(d) == before + 2, message="Replay did not play")

    # Show text: the CQ, and from it the station's call.
    by_id(browser, "mo-qso-show").click()
    wait_for(browser, lambda d: revealed(d))
    assert text_of(browser, "mo-qso-station-text") == cq
    assert not by_id(browser, "mo-qso-show").is_displayed()
    assert transcript(browser) == [("Station", cq)]
    station_call = re.search(r"\bDE (\S+)", cq).group(1)

    # An incomplete reply: the station asks again, and the hint names what was missing.
    played = sequences(browser)
    send(browser, f"{station_call} DE")
    assert "missing: your call sign" in text_of(browser, "mo-qso-repeat")
    wait_for(browser, lambda d: sequences(d) == played + 1, message="the repeat request did not play")
    assert not revealed(browser)  # the new transmission is hidden again …
    lines = transcript(browser)
    assert lines[:2] == [("Station", cq), ("You", f"{station_call} DE")]  # … the answered one is not
    assert lines[2] == ("Station", "(hidden — copy by ear)")
    # Enter on an empty field shows the text, as in the terminal.
    by_id(browser, "mo-qso-text").send_keys(Keys.ENTER)
    wait_for(browser, lambda d: revealed(d))
    assert text_of(browser, "mo-qso-station-text") == server.get(f"/morse/qso/{contact_id}")["station"]["text"]
    shot(browser, "desktop-morse-qso-repeat")

    # The hint of what to send next, revealed on request; each over sent as it asks.
    by_id(browser, "mo-qso-next").find_element(By.TAG_NAME, "summary").click()
    for _ in range(6):
        if browser.find_elements(By.ID, "mo-qso-done"):
            break
        hint = text_of(browser, "mo-qso-next-list")
        assert hint.startswith("Send "), hint
        send(browser, over_for(hint, station_call))
        assert text_of(browser, "mo-qso-repeat") == "", text_of(browser, "mo-qso-repeat")
        if not browser.find_elements(By.ID, "mo-qso-done"):
            assert not revealed(browser)
            by_id(browser, "mo-qso-show").click()
    # Complete: calm, with the whole contact and nothing hidden (waited for: on a busy machine the
    # card shows a moment after the element exists).
    wait_for(browser, lambda d: any("Contact complete. 73!" in e.text for e in d.find_elements(By.ID, "mo-qso-done")),
             timeout=15, message="the contact did not end")
    assert contact(browser).get_attribute("data-phase") == "done"
    finished = server.get(f"/morse/qso/{contact_id}")
    assert finished["isDone"] is True
    assert transcript(browser) == [
        ("Station" if line["sender"] == "station" else "You", line["text"]) for line in finished["transcript"]]
    assert browser.switch_to.active_element == by_id(browser, "mo-qso-done-title")
    assert not browser.find_elements(By.ID, "mo-qso-text")
    wait_for(browser, lambda d: d.execute_script(
        "return document.getAnimations().every((a) => a.playState === 'finished')"))
    assert axe_violations(browser) == []
    shot(browser, "desktop-morse-qso-done")
    set_size(browser, *PHONE)
    assert page_width(browser) <= PHONE[0]
    assert axe_violations(browser) == []
    shot(browser, "phone-morse-qso-done")
    set_size(browser, *DESKTOP)

    # New contact: the same choices, another contact; End contact leads back to the overview.
    by_id(browser, "mo-qso-new").click()
    wait_for(browser, lambda d: contact_data(d, "contactId") not in (None, contact_id), message="no new contact")
    assert not browser.find_elements(By.ID, "mo-qso-done")
    by_id(browser, "mo-qso-end").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-qso-setup"), message="not back on the overview")
    assert browser.switch_to.active_element == by_id(browser, "mo-qso-start")
    assert by_id(browser, "mo-qso-mode-answer").is_selected()


def test_calling_cq_in_german_has_every_string(server, browser):
    status, body = server.api("PATCH", "/settings", {"language": "de"})
    assert status == 200, body
    status, body = server.api("PUT", "/morse/call-sign", {"callSign": OWN_CALL})
    assert status == 200, body
    open_app(browser, server, "morse")
    open_qso(browser)
    assert text_of(browser, "mo-qso-setup-title") == "QSO-Übung"
    assert by_id(browser, "mo-qso-call").get_attribute("value") == OWN_CALL
    assert not by_id(browser, "mo-qso-call-none").is_displayed()
    assert "Plauderrunde" in text_of(browser, "mo-qso-styles")
    browser.find_element(By.CSS_SELECTOR, "label[for=mo-qso-style-ragChew]").click()
    browser.find_element(By.CSS_SELECTOR, "label[for=mo-qso-mode-call]").click()
    assert axe_violations(browser) == []
    set_size(browser, *PHONE)
    assert page_width(browser) <= PHONE[0]
    browser.execute_script("document.getElementById('mo-qso-setup').scrollIntoView()")
    shot(browser, "phone-morse-qso-de")

    browser.execute_script("document.getElementById('view-morse').dataset.seed = arguments[0]", SEED)
    press(browser, "mo-qso-start")
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-qso"), message="no contact")
    assert text_of(browser, "mo-qso-title") == "QSO-Übung: Plauderrunde"
    # Calling CQ: the station has said nothing yet, so there is nothing to show or replay.
    assert text_of(browser, "mo-qso-status") == "Du bist dran: Rufe CQ."
    assert not by_id(browser, "mo-qso-show").is_displayed()
    assert not by_id(browser, "mo-qso-replay").is_displayed()
    assert text_of(browser, "mo-qso-transcript-none") == "Noch nichts gesendet."

    send(browser, "CQ CQ DE")
    assert "fehlt: dein Rufzeichen" in text_of(browser, "mo-qso-repeat")
    summary = by_id(browser, "mo-qso-next").find_element(By.TAG_NAME, "summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    assert text_of(browser, "mo-qso-next-list") == "Sende CQ und dein Rufzeichen."
    send(browser, f"CQ CQ DE {OWN_CALL} {OWN_CALL} K")
    assert text_of(browser, "mo-qso-repeat") == ""
    press(browser, "mo-qso-show")
    wait_for(browser, lambda d: revealed(d))
    assert OWN_CALL in text_of(browser, "mo-qso-station-text")
    assert "Rapport (RST)" in text_of(browser, "mo-qso-next-list")
    assert missing_keys(browser) == []
    assert axe_violations(browser) == []
    assert page_width(browser) <= PHONE[0]
    shot(browser, "phone-morse-qso-contact-de")


def test_keying_an_over_with_paddles_and_asking_agn_and_qrs(server, browser):
    """Issue 44: the contact takes the device's paddles — what is keyed on the pad is read by the
    server's decoder into the field — and the station answers AGN? and QRS (then keys slower)."""
    from test_morse_keys import CASES, DISPATCH, KEY_CODES, SQUEEZE_A
    assert server.api("PUT", "/morse/call-sign", {"callSign": OWN_CALL})[0] == 200
    open_app(browser, server, "morse")
    browser.execute_script("localStorage.setItem('momentum.morseKey', JSON.stringify({kind: 'paddles', mode: 'iambicA'}))")
    open_qso(browser)
    browser.find_element(By.CSS_SELECTOR, "label[for=mo-qso-mode-answer]").click()
    browser.execute_script("document.getElementById('view-morse').dataset.seed = arguments[0]", SEED)
    by_id(browser, "mo-qso-start").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-qso"), message="no contact")
    contact_id = contact_data(browser, "contactId")
    shown = lambda: server.get(f"/morse/qso/{contact_id}")  # noqa: E731
    opening = shown()["station"]["text"]
    fast = sum(e["ms"] for e in shown()["station"]["elements"])

    # AGN? gets the last transmission again, and the contact stays where it was.
    send(browser, "AGN?")
    assert shown()["transcript"][-1]["text"] == opening
    assert shown()["phase"] == "calling"
    # QRS: the same again, 5 wpm slower, as the server keys it.
    send(browser, "QRS")
    slowed = shown()
    assert slowed["stationWPM"] == 15, slowed["stationWPM"]
    assert slowed["station"]["text"] == f"QRS {opening}"
    assert sum(e["ms"] for e in slowed["station"]["elements"]) > fast * 1.2

    # Key K with the paddles on the contact's pad: it is read into the field.
    summary = browser.find_element(By.CSS_SELECTOR, "#mo-qso-key summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    pad = wait_for(browser, lambda d: by_id(d, "mo-qso-pad").get_attribute("data-ready") and by_id(d, "mo-qso-pad"),
                   message="the QSO key pad did not get the keyer")
    browser.execute_script("arguments[0].focus()", pad)
    browser.execute_script(DISPATCH, CASES[SQUEEZE_A]["events"], KEY_CODES)
    wait_for(browser, lambda d: by_id(d, "mo-qso-text").get_attribute("value") == "K", timeout=8,
             message="the keyed K was not read into the field")
    assert text_of(browser, "mo-qso-key-read") == "Read so far: K"
    shot(browser, "desktop-morse-qso-keyed")


def test_a_contact_on_a_weak_dx_band_plays_the_servers_sound(server, browser):
    """Issue 44: the band is chosen with the contact; the station's sound is the server's render
    (noise, fading, chirp, a heavy fist), and the page keys nothing itself."""
    assert server.api("PUT", "/morse/call-sign", {"callSign": OWN_CALL})[0] == 200
    open_app(browser, server, "morse")
    open_qso(browser)
    browser.find_element(By.CSS_SELECTOR, "label[for=mo-qso-mode-answer]").click()
    from selenium.webdriver.support.ui import Select
    Select(by_id(browser, "mo-qso-band")).select_by_value("weak-dx")
    by_id(browser, "mo-qso-start").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-qso"), message="no contact")
    contact_id = contact_data(browser, "contactId")
    shown = server.get(f"/morse/qso/{contact_id}")
    assert shown["conditions"] == "weak-dx"
    fetched = wait_for(browser, lambda d: d.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)"
        ".filter((n) => n.includes('/station.wav'))"), message="the station's sound was not fetched")
    assert fetched[0].endswith(shown["station"]["audio"]), fetched
    assert by_id(browser, "mo-qso-status").text == "The station is sending…"
    # A new contact keeps the band.
    by_id(browser, "mo-qso-end").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-qso-band"))
    assert Select(by_id(browser, "mo-qso-band")).first_selected_option.get_attribute("value") == "weak-dx"
