"""Morse for a newcomer (issue 39): two short screens, once, explain the Koch method, wpm, how a
level is passed and what a QSO is, with the learner's speeds and the core's numbers; QSO practice
is offered from the level where every character is known, and can be tried earlier."""
from selenium.webdriver.common.by import By

from conftest import PHONE, axe_violations, go, open_app, set_size, shot, tap, wait_for, welcome_again


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def test_the_course_explains_itself_once_and_qso_waits_for_its_level(server, browser):
    welcome_again(browser)
    set_size(browser, *PHONE)
    browser.get(f"{server.url}/#meditate")
    wait_for(browser, lambda d: d.find_element(By.ID, "welcome"), message="no welcome")
    tap(browser, "welcome-later")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "welcome"))
    go(browser, "morse")
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-course"), message="no introduction to the course")
    settings = server.get("/morse/settings")
    assert text(browser, "mo-course-step") == "1 of 2"
    wpm = text(browser, "mo-course-wpm")
    assert f"{settings['characterWPM']:g} wpm" in wpm and f"{settings['effectiveWPM']:g} wpm" in wpm, wpm
    assert "K and M" in text(browser, "mo-course")
    shot(browser, "morse-course-1-phone")
    assert axe_violations(browser) == []
    tap(browser, "mo-course-next")
    level = wait_for(browser, lambda d: text(d, "mo-course-level"))
    assert "90 %" in level and "20 answers" in level, level
    assert "level 25" in text(browser, "mo-course-qso") and "RST" in text(browser, "mo-course-qso")
    shot(browser, "morse-course-2-phone")
    assert axe_violations(browser) == []
    tap(browser, "mo-course-begin")
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-start-receive"), message="no overview after the introduction")

    # QSO at level 1: why it waits, and "try anyway" one tap further.
    assert "level 25 of 25" in text(browser, "mo-qso-later")
    tried = browser.find_element(By.ID, "mo-qso-try")
    assert tried.get_attribute("open") is None
    assert not browser.find_element(By.ID, "mo-qso-start").is_displayed()
    summary = tried.find_element(By.TAG_NAME, "summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", summary)
    summary.click()
    wait_for(browser, lambda d: d.find_element(By.ID, "mo-qso-start").is_displayed())

    # Once: a reload opens on the overview.
    browser.refresh()
    open_app(browser, server, "morse")
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-start-receive"))
    assert not browser.find_elements(By.ID, "mo-course")
