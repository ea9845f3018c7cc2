"""German, switched in Settings: navigation, headings and the server's validation errors follow,
and the choice survives a reload."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import allow_console, go, meditate_options, open_app, shot, wait_for

GERMAN_NAV = {"meditate": "Meditieren", "library": "Bibliothek", "breathe": "Atmen", "workout": "Training", "timers": "Timer",
              "morse": "Morse", "progress": "Fortschritt", "settings": "Einstellungen"}


def nav_labels(driver):
    """Each navigation link's text (the phone's gear keeps it for screen readers only)."""
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('nav.tabs [data-route]')]"
        ".map((a) => [a.dataset.route, (a.querySelector('span:not(.label-phone)') || a).textContent.trim()]));")


def heading(driver, section):
    return driver.find_element(By.CSS_SELECTOR, f"#view-{section} h1").text


def is_german(driver):
    return driver.execute_script("return document.documentElement.lang") == "de" and nav_labels(driver) == GERMAN_NAV


def test_german_from_settings_survives_a_reload(server, browser):
    open_app(browser, server, "settings")
    assert heading(browser, "settings") == "Settings"
    Select(browser.find_element(By.ID, "s-language")).select_by_value("de")
    wait_for(browser, is_german, message=f"the navigation is not German: {nav_labels(browser)}")
    assert heading(browser, "settings") == "Einstellungen"
    assert browser.find_element(By.CSS_SELECTOR, "nav.tabs").get_attribute("aria-label") == "Bereiche"
    wait_for(browser, lambda d: server.get("/settings").get("language") == "de",
             message="the language was not saved")

    browser.refresh()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#view-settings h1"))
    wait_for(browser, is_german, message="German did not survive the reload")
    assert heading(browser, "settings") == "Einstellungen"
    assert Select(browser.find_element(By.ID, "s-language")).first_selected_option.get_attribute("value") == "de"

    go(browser, "meditate")
    assert heading(browser, "meditate") == "Meditieren"
    assert browser.find_element(By.ID, "m-start").text == "Starten"
    go(browser, "progress")
    assert heading(browser, "progress") == "Fortschritt"
    assert browser.find_element(By.ID, "streaks-title").text == "Serien"
    shot(browser, "desktop-progress-de")


def test_a_validation_error_shows_in_german(server, browser):
    status, settings = server.api("GET", "/settings")
    status, _ = server.api("PUT", "/settings", {**settings, "language": "de"})
    assert status == 200
    # The server refuses the plan (422): the browser logs the failed request, on purpose here.
    allow_console(browser, r"/api/v1/meditation/\w+.* - Failed to load resource.* 422")
    open_app(browser, server, "meditate")
    wait_for(browser, is_german)

    meditate_options(browser)
    countdown = browser.find_element(By.ID, "m-countdown")
    countdown.clear()
    countdown.send_keys("61")
    browser.find_element(By.ID, "m-start").click()
    # Beside the field, in the field's unit and the page's language, pointed at by the field.
    error = wait_for(browser, lambda d: (lambda e: e if e.is_displayed() and e.text else None)(
        d.find_element(By.ID, "m-countdown-error")), message="no error shown")
    assert error.text.startswith("Wähle eine ganze Zahl von 0 bis 60"), error.text
    assert error.get_attribute("role") == "alert"
    assert countdown.get_attribute("aria-invalid") == "true"
    assert "m-countdown-error" in countdown.get_attribute("aria-describedby")
    assert not browser.find_elements(By.ID, "m-ring"), "a refused plan must not start a sit"
    # A refusal the server words (gongs after the end) stands beside its field, in German.
    countdown.clear()
    countdown.send_keys("10")
    gongs = browser.find_element(By.ID, "m-interval-custom")
    gongs.clear()
    gongs.send_keys("900")
    browser.find_element(By.ID, "m-start").click()
    error = wait_for(browser, lambda d: (lambda e: e if e.is_displayed() and e.text else None)(
        d.find_element(By.ID, "m-interval-custom-error")), message="no error beside the gongs")
    assert error.text == "Intervallgongs können höchstens 60 Minuten auseinander liegen.", error.text
    assert not browser.find_elements(By.ID, "m-ring"), "a refused plan must not start a sit"
    assert server.get("/log")["records"] == []
    shot(browser, "meditate-error-de")
