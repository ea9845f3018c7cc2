"""The first visit (issue 39): a welcome, once, asks the person's name (the founder is no longer
"owner"), a daily goal and whether to be reminded, explains quiet hours when the chosen time
falls in them, and says how to add the app to the Home Screen; refusals stand beside their field."""
from selenium.webdriver.common.by import By

from conftest import (PHONE, allow_console, axe_violations, open_app, set_size, shot, tap, wait_for,
                      welcome_again)


def type_into(driver, element_id, value):
    box = driver.find_element(By.ID, element_id)
    box.clear()
    box.send_keys(value)
    return box


def test_the_first_visit_welcomes_once_and_the_founder_is_named(server, browser):
    allow_console(browser, r"status of 422")
    welcome_again(browser)
    set_size(browser, *PHONE)
    assert server.get("/people")["people"][0]["name"] == "owner"
    browser.get(f"{server.url}/#meditate")
    dialog = wait_for(browser, lambda d: d.find_element(By.ID, "welcome"), message="no welcome")
    assert dialog.is_displayed()
    assert browser.switch_to.active_element.get_attribute("id") == "welcome-name"
    assert browser.find_element(By.ID, "welcome-name").get_attribute("value") == ""
    # How to add it to the Home Screen: the browser's own prompt where it offers one, else how.
    home = browser.find_element(By.ID, "welcome-home")
    assert home.find_elements(By.ID, "welcome-install") or home.find_element(By.ID, "welcome-home-how").text
    shot(browser, "welcome-phone")
    assert axe_violations(browser) == []

    # A name is needed: refused beside the field.
    tap(browser, "welcome-start")
    message = wait_for(browser, lambda d: (e := d.find_element(By.ID, "welcome-name-error")).is_displayed() and e.text)
    assert "name" in message, message
    assert browser.find_element(By.ID, "welcome-name").get_attribute("aria-invalid") == "true"

    # Anna, 15 minutes a day, reminded at 07:30 — inside the default quiet hours (22:00 to 08:00).
    type_into(browser, "welcome-name", "Anna")
    type_into(browser, "welcome-goal", "15")
    browser.find_element(By.ID, "welcome-remind").click()
    type_into(browser, "welcome-time", "07:30")
    tap(browser, "welcome-start")
    moved = wait_for(browser, lambda d: d.find_element(By.ID, "welcome-moved").text, message="quiet hours not explained")
    assert "08:00" in moved, moved
    shot(browser, "welcome-moved-phone")
    tap(browser, "welcome-ok")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "welcome"), message="the welcome stayed")

    me = server.get("/people")["people"][0]
    assert me["name"] == "Anna", me
    settings = server.get("/settings")
    assert settings["progress"]["goals"]["mindfulness"] == 15
    assert [d["time"] for d in settings["reminders"]["daily"]] == ["07:30"]

    # Once: a reload shows the app, not the welcome.
    browser.refresh()
    open_app(browser, server, "meditate")
    assert not browser.find_elements(By.ID, "welcome")


def test_not_now_ends_it_and_someone_who_practised_is_not_welcomed(server, browser, second_browser):
    welcome_again(browser)
    browser.get(f"{server.url}/#meditate")
    wait_for(browser, lambda d: d.find_element(By.ID, "welcome"), message="no welcome")
    tap(browser, "welcome-later")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "welcome"))
    browser.refresh()
    open_app(browser, server, "meditate")
    assert not browser.find_elements(By.ID, "welcome")
    # A person with a practice in the log is not new: another browser shows no welcome.
    status, _ = server.api("POST", "/log", {"kind": "meditation", "start": "2026-01-10T07:00:00Z", "durationMs": 600000})
    assert status == 201
    welcome_again(second_browser)
    open_app(second_browser, server, "meditate")
    assert not second_browser.find_elements(By.ID, "welcome")
