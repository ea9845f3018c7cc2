"""Hands-free copy in the browser (issue 44): the Morse overview's card plays the server's
rendered session in an <audio> element, logs what played as Morse practice, shows the server's
sentence for a refused list and, without espeak-ng on the server, says so instead of a form."""
import pytest
from selenium.webdriver.support.ui import Select

from conftest import PHONE, allow_console, open_app, run_server, set_size, shot, wait_for

READ_LOG = """
const done = arguments[arguments.length - 1];
fetch('/api/v1/log?kind=morse', { headers: { Accept: 'application/json' } })
  .then((r) => r.json()).then(done, (e) => done({ error: String(e) }));
"""


@pytest.fixture
def speechless_server():
    """A server whose PATH has no espeak-ng."""
    yield from run_server(environment={"PATH": "/nonexistent"})


def fill_list(browser, entries):
    browser.find_element("id", "mo-hf-content-list").click()
    area = browser.find_element("id", "mo-hf-list")
    area.clear()
    area.send_keys("\n".join(entries))


def test_a_list_plays_spoken_in_german_and_is_logged_as_morse_practice(server, browser):
    set_size(browser, *PHONE)
    open_app(browser, server, "morse")
    card = wait_for(browser, lambda d: d.find_element("id", "mo-hf"), message="no hands-free card")
    browser.execute_script("arguments[0].scrollIntoView()", card)
    shot(browser, "morse-hands-free-390")
    fill_list(browser, ["dl1abc", "wald"])
    Select(browser.find_element("id", "mo-hf-language")).select_by_value("de")
    for field, value in (("mo-hf-pause", "0.5"), ("mo-hf-gap", "0.5")):
        box = browser.find_element("id", field)
        box.clear()
        box.send_keys(value)
    browser.find_element("id", "mo-hf-start").click()
    wait_for(browser, lambda d: d.execute_script("return window.momentumHandsFree.state") == "playing",
             timeout=30, message="the session did not start playing")
    assert browser.find_element("id", "mo-hf-stop").is_displayed()
    duration = wait_for(browser, lambda d: d.execute_script(
        "const a = window.momentumHandsFree.audio; return a && isFinite(a.duration) && a.duration"), timeout=20)
    # Two items, each Morse, 0.5 s, spoken, 0.5 s, Morse, and 0.5 s between: a few seconds.
    assert 4 < duration < 20, duration
    wait_for(browser, lambda d: d.execute_script("return window.momentumHandsFree.state") == "idle",
             timeout=duration + 20, message="the session did not end")
    status = wait_for(browser, lambda d: d.find_element("id", "mo-hf-status").text, timeout=10)
    assert status == "Logged as Morse practice.", status
    log = browser.execute_async_script(READ_LOG)
    records = log.get("records", log if isinstance(log, list) else [])
    handsFree = [r for r in records if (r.get("details") or {}).get("practice") == "handsFree"]
    assert len(handsFree) == 1, log
    # What played is what is counted: the stream's whole length, to the second.
    assert abs(handsFree[0]["countedSeconds"] - duration) <= 1.5, (handsFree[0], duration)
    assert browser.find_element("id", "mo-hf-start").is_displayed()
    # The items, to check the copy against.
    sent = browser.find_element("id", "mo-hf-items")
    assert sent.is_displayed()
    sent.click()
    assert [li.text for li in sent.find_elements("css selector", "li")] == ["DL1ABC", "WALD"]
    shot(browser, "morse-hands-free-done-390")


def test_a_list_the_server_refuses_shows_its_sentence(server, browser):
    # The refusal is the server's answer to the check (a 422, which Chromium logs).
    allow_console(browser, r"/api/v1/morse/hands-free/items - Failed to load resource: .* 422")
    open_app(browser, server, "morse")
    wait_for(browser, lambda d: d.find_element("id", "mo-hf"))
    fill_list(browser, ["DL1ABC", "SMILE☺"])
    browser.find_element("id", "mo-hf-start").click()
    error = wait_for(browser, lambda d: d.find_element("id", "mo-hf-error").is_displayed()
                     and d.find_element("id", "mo-hf-error"), timeout=20, message="no refusal shown")
    # Refused before any sound was asked for.
    assert browser.execute_script("return window.momentumHandsFree.audio") is None
    assert "“SMILE☺” has a character Morse code cannot send." in error.text, error.text
    assert browser.execute_script("return window.momentumHandsFree.state") == "idle"
    assert browser.find_element("id", "mo-hf-start").is_displayed()


def test_without_espeak_the_card_says_what_to_install(speechless_server, browser):
    set_size(browser, *PHONE)
    open_app(browser, speechless_server, "morse")
    problem = wait_for(browser, lambda d: d.find_element("id", "mo-hf-unavailable"))
    assert "sudo apt install espeak-ng" in problem.text, problem.text
    assert not browser.find_elements("id", "mo-hf-start")
    browser.execute_script("arguments[0].scrollIntoView()", problem)
    shot(browser, "morse-hands-free-no-speech-390")
