"""Stopping is forgiving (issue 39): Stop asks once, the same in every practice, and an early stop
of a minute or more asks whether to keep it in the log, as the terminal does (one rule, the
core's). Time is moved, not waited for: the run is started 70 s in the past through the API and
the page picks it up."""
import datetime

import pytest
from selenium.webdriver.common.by import By

from conftest import PHONE, axe_violations, open_app, set_size, shot, stop_practice, tap, wait_for


def started_ago(server, kind, seconds, plan):
    at = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=seconds)
    status, run = server.api("POST", "/runs", {"kind": kind, "plan": plan,
                                                "at": at.isoformat().replace("+00:00", "Z")})
    assert status == 201, run
    return run


@pytest.mark.parametrize("answer, logged", [("stop-keep", True), ("stop-discard", False)])
def test_an_early_stop_after_70_seconds_asks_to_keep_it(server, browser, answer, logged):
    set_size(browser, *PHONE)
    run = started_ago(server, "meditation", 70, {"durationMs": 600000, "countdownMs": 0})
    open_app(browser, server, "meditate")
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-stop"), message="the page did not pick up the run")
    tap(browser, "m-stop")
    dialog = wait_for(browser, lambda d: d.find_element(By.ID, "confirm-dialog"), message="Stop did not ask")
    question = dialog.find_element(By.ID, "confirm-text").text
    assert "1 min 1" in question and "log" in question, question
    # While asked, the sit is paused here and on the server.
    assert server.get(f"/runs/{run['id']}")["status"] == "paused"
    assert browser.switch_to.active_element.get_attribute("id") == "stop-cancel"
    shot(browser, f"stop-question-{answer}-phone")
    assert axe_violations(browser) == []
    browser.find_element(By.ID, answer).click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-done"), message="no end view")
    ending = server.get(f"/runs/{run['id']}")["ending"]
    assert ending["outcome"] == "stoppedEarly" and ending["logged"] is logged, ending
    assert len(server.get("/log")["records"]) == (1 if logged else 0)


def test_keep_going_plays_on_and_a_short_stop_says_nothing_is_logged(server, browser):
    set_size(browser, *PHONE)
    run = started_ago(server, "breathing", 20, {"pattern": "4-0-4-0", "rounds": 20})
    open_app(browser, server, "breathe")
    wait_for(browser, lambda d: d.find_elements(By.ID, "b-stop"), message="the page did not pick up the run")
    question = stop_practice(browser, "b-stop", "stop-cancel")
    assert "not logged" in question, question
    wait_for(browser, lambda d: server.get(f"/runs/{run['id']}")["status"] == "running",
             message="Keep going did not resume the run")
    assert browser.find_elements(By.ID, "b-stop")
    assert browser.find_element(By.ID, "b-pause").text == "Pause"
    stop_practice(browser, "b-stop", "stop-keep")
    wait_for(browser, lambda d: d.find_elements(By.ID, "b-done"), message="no end view")
    assert server.get(f"/runs/{run['id']}")["ending"]["outcome"] == "tooShortToLog"
