"""Settings and Progress for everyday use (issue 25): the app's buttons, a refusal shown next to
its field in the page's language, times on the language's 24-hour clock, the sentence that says
how quiet hours moved a reminder, time zones by region with search, the focus goal saved and
shown on Progress, a counted day marked with "1 day", and nothing technical on loopback."""
import datetime

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import (DESKTOP, PHONE, allow_console, axe_violations, open_app, set_color_scheme, set_size, shot,
                      wait_for)

ALL_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def set_value(browser, element_id, value):
    browser.execute_script(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
        "e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));",
        element_id, value)


def open_settings(browser, server):
    open_app(browser, server, "settings")
    return wait_for(browser, lambda d: d.find_elements(By.ID, "s-progress") and d.find_element(By.ID, "r-form"),
                    message="Settings did not render")


def field_error(browser, control_id):
    return wait_for(browser, lambda d: (lambda e: e if e and e[0].is_displayed() and e[0].text else None)(
        d.find_elements(By.ID, f"{control_id}-error")), message=f"no message next to {control_id}")[0]


def axe_everywhere(browser, name):
    """axe at 360 and 1280 px, light and dark; a screenshot of each."""
    for width, height in (PHONE, DESKTOP):
        set_size(browser, width, height)
        for scheme in ("light", "dark"):
            set_color_scheme(browser, scheme)
            assert axe_violations(browser) == [], (name, width, scheme)
            shot(browser, f"{name}-{width}-{scheme}")
    set_color_scheme(browser, "light")
    set_size(browser, *DESKTOP)


def test_a_refused_goal_shows_in_german_next_to_its_field_and_the_focus_goal_saves(server, browser):
    assert server.api("PATCH", "/settings", {"language": "de"})[0] == 200
    allow_console(browser, r"/api/v1/settings - Failed to load resource.* 422")
    open_settings(browser, server)
    save = browser.find_element(By.ID, "s-save")
    assert "primary" in save.get_attribute("class").split(), "Save looks like the app's other buttons"
    assert "primary" in browser.find_element(By.ID, "r-save").get_attribute("class").split()
    goal = browser.find_element(By.ID, "s-goal-focus")
    assert goal.get_attribute("value") == "25" and goal.get_attribute("max") == "480"
    assert browser.find_element(By.CSS_SELECTOR, 'label[for="s-goal-focus"]').text == "Tagesziel Fokus (Min.)"

    set_value(browser, "s-goal-focus", "500")
    browser.execute_script("document.getElementById('s-save').click()")
    message = field_error(browser, "s-goal-focus")
    assert message.text == "Wähle ein Tagesziel für Fokus von 1 bis 480 ganzen Minuten.", message.text
    assert goal.get_attribute("aria-invalid") == "true"
    assert "s-goal-focus-error" in goal.get_attribute("aria-describedby").split()
    assert browser.switch_to.active_element == goal
    assert not browser.find_element(By.ID, "s-error").is_displayed()
    assert server.get("/settings")["progress"]["goals"]["focus"] == 25
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", goal)
    shot(browser, "settings-refused-goal-de")
    axe_everywhere(browser, "settings-refused-goal-de")

    set_value(browser, "s-goal-focus", "45")
    browser.execute_script("document.getElementById('s-save').click()")
    wait_for(browser, lambda d: server.get("/settings")["progress"]["goals"]["focus"] == 45,
             message="the focus goal was not saved")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "s-goal-focus-error"))

    open_app(browser, server, "progress")
    today = wait_for(browser, lambda d: d.find_elements(By.ID, "today-focus"))[0]
    assert "45 Min" in today.text, today.text
    assert browser.find_element(By.ID, "today-title").text == "Heute"


def test_times_read_on_the_24_hour_clock_and_quiet_hours_say_how_they_move_a_reminder(server, browser):
    status, body = server.api("PATCH", "/settings", {"language": "de", "reminders": {
        "quietHours": {"start": "22:00", "end": "07:00"},
        "daily": [{"id": "1", "time": "22:30", "weekdays": ALL_DAYS, "category": "focus"}]}})
    assert status == 200, body
    open_settings(browser, server)
    assert browser.find_elements(By.CSS_SELECTOR, "#view-settings input[type=time]") == [], \
        "no control that shows the browser's own clock"
    assert browser.find_element(By.ID, "r-quiet-start").get_attribute("value") == "22:00"
    assert browser.find_element(By.ID, "r-daily-1-time").get_attribute("value") == "22:30"
    assert "24-Stunden" in browser.find_element(By.ID, "r-time-hint").text
    moved = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#r-upcoming .moved"),
                     message="no moved reminder explained")[0]
    assert moved.text == "Die Ruhezeit 22:00–07:00 verschiebt diese Erinnerung von 22:30 auf 07:00 am nächsten Tag.", \
        moved.text
    upcoming = browser.find_element(By.ID, "r-upcoming").text
    assert "07:00" in upcoming and "AM" not in upcoming and "PM" not in upcoming, upcoming
    browser.execute_script("document.getElementById('r-upcoming-title').scrollIntoView()")
    shot(browser, "settings-reminders-moved-de")

    # A time the server cannot read is refused next to its field, in German.
    allow_console(browser, r"/api/v1/settings - Failed to load resource.* 422")
    set_value(browser, "r-daily-1-time", "7 Uhr")
    browser.execute_script("document.getElementById('r-save').click()")
    message = field_error(browser, "r-daily-1-time")
    assert message.text == "„7 Uhr“ ist keine Uhrzeit: nutze HH:MM, etwa 07:30.", message.text
    assert browser.find_element(By.ID, "r-daily-1-time").get_attribute("aria-invalid") == "true"
    set_value(browser, "r-quiet-start", "08:00")
    set_value(browser, "r-quiet-end", "08:00")
    set_value(browser, "r-daily-1-time", "18:15")
    browser.execute_script("document.getElementById('r-save').click()")
    message = field_error(browser, "r-quiet-start")
    assert message.text.startswith("Ruhezeiten von 08:00 bis 08:00"), message.text
    assert browser.find_element(By.ID, "r-quiet-end").get_attribute("aria-invalid") == "true"
    assert not browser.find_elements(By.ID, "r-daily-1-time-error"), "the earlier message is gone"
    axe_everywhere(browser, "settings-reminders-refused-de")


def test_time_zones_come_by_region_and_a_search_finds_berlin(server, browser):
    open_settings(browser, server)
    select = browser.find_element(By.ID, "s-time-zone")
    groups = [g.get_attribute("label") for g in select.find_elements(By.TAG_NAME, "optgroup")]
    assert "Europe" in groups and "America" in groups and "Asia" in groups, groups
    assert Select(select).first_selected_option.get_attribute("value") == ""
    search = browser.find_element(By.ID, "s-time-zone-search")
    search.send_keys("Berl")
    wait_for(browser, lambda d: Select(d.find_element(By.ID, "s-time-zone")).first_selected_option
             .get_attribute("value") == "Europe/Berlin", message="Berl did not choose Europe/Berlin")
    assert [g.get_attribute("label") for g in select.find_elements(By.TAG_NAME, "optgroup")] == ["Europe"]
    shot(browser, "settings-time-zone-search")
    axe_everywhere(browser, "settings-time-zone-search")
    browser.execute_script("document.getElementById('s-save').click()")
    wait_for(browser, lambda d: server.get("/settings")["progress"].get("timeZoneIdentifier") == "Europe/Berlin",
             message="the zone was not saved")
    wait_for(browser, lambda d: d.switch_to.active_element.get_attribute("id") == "s-save", message="not redrawn")
    assert Select(browser.find_element(By.ID, "s-time-zone")).first_selected_option.text == "Berlin"
    browser.find_element(By.ID, "s-time-zone-search").send_keys("zzzz")
    wait_for(browser, lambda d: "zzzz" in d.find_element(By.ID, "s-time-zone-status").text)


def test_a_counted_day_is_celebrated_with_one_day(server, browser):
    now = datetime.datetime.now(datetime.timezone.utc)
    start = (now - datetime.timedelta(minutes=15)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    status, body = server.api("POST", "/log", {"kind": "focus", "start": start, "durationMs": 10 * 60000})
    assert status == 201, body
    open_app(browser, server, "progress")
    mark = wait_for(browser, lambda d: d.find_elements(By.ID, "today-focus-counts"),
                    message="no mark for a counted day")[0]
    # The ring's tick is the picture; the sentence is what a screen reader hears.
    assert mark.get_attribute("class").split().count("visually-hidden") == 1
    text = mark.get_attribute("textContent")
    assert "Today counts" in text and "1 day" in text, text
    assert browser.find_elements(By.CSS_SELECTOR, "#today-focus .counts-tick")
    assert "1 days" not in browser.find_element(By.ID, "view-progress").text
    focus_streak = browser.find_element(By.CSS_SELECTOR, '#streaks .stat[data-category="focus"] .value')
    assert focus_streak.text == "1 day"
    assert "0 days" in browser.find_element(By.CSS_SELECTOR, '#streaks .stat[data-category="mindfulness"]').text
    today = browser.find_element(By.ID, "today-focus").get_attribute("textContent")
    assert "10 min" in today and "25" in today, today
    assert browser.find_element(By.CSS_SELECTOR, "#today-focus .ring-number").text.split() == ["10", "min"]
    shot(browser, "progress-today-counts")
    axe_everywhere(browser, "progress-today-counts")

    assert server.api("PATCH", "/settings", {"language": "de"})[0] == 200
    browser.refresh()
    mark = wait_for(browser, lambda d: (m := d.find_elements(By.ID, "today-focus-counts"))
                    and "Heute" in m[0].get_attribute("textContent") and m[0], message="no German mark")
    text = mark.get_attribute("textContent")
    assert "Heute zählt" in text and "1 Tag" in text, text
    assert browser.find_element(By.CSS_SELECTOR, '#streaks .stat[data-category="focus"] .value').text == "1 Tag"
    shot(browser, "progress-today-counts-de")


def test_nothing_technical_shows_on_loopback(server, browser):
    open_settings(browser, server)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#r-upcoming li, #r-upcoming-none:not([hidden])"))
    text = browser.find_element(By.ID, "view-settings").text
    host = server.url.split("//", 1)[1]
    for technical in (host, "127.0.0.1", "localhost", "momentum ", "token create", "progress.hide-streaks", "`"):
        assert technical not in text, (technical, text)
    assert browser.find_element(By.ID, "r-feed-copy").text == "Copy calendar address"
    assert not browser.find_element(By.ID, "r-feed-url").is_displayed()
    for button in browser.find_elements(By.CSS_SELECTOR, "#view-settings button"):
        classes = button.get_attribute("class").split()
        assert "primary" in classes or "secondary" in classes, button.get_attribute("id")
    assert server.api("PATCH", "/settings", {"progress": {"hideStreaks": True}})[0] == 200
    open_app(browser, server, "progress")
    # The progress screen may render again as it loads: the sentence is waited for, not read once.
    hidden = "Streaks are hidden. You can show them again in Settings."
    wait_for(
        browser, lambda d: d.find_element(By.CSS_SELECTOR, "#streaks p").text == hidden,
        message="the streaks card says they are hidden")
