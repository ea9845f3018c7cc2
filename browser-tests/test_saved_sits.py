"""Saved sits are first-class (issue 39): saved, edited and renamed, started from their deep link
with the visible Start, deleted; using one never changes the quick sit. Forms answer beside the
field at fault."""
from selenium.webdriver.common.by import By

from conftest import (PHONE, allow_console, axe_violations, console_errors, meditate_options, open_app, set_size, shot,
                      stop_practice, tap, wait_for)


def set_value(driver, element_id, value):
    box = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", box)
    box.clear()
    box.send_keys(str(value))
    return box


def presets(server):
    return server.get("/meditation/presets")["presets"]


def field_error(driver, control_id):
    """The sentence shown beside control `control_id`, if it is marked invalid and points at it."""
    return driver.execute_script(
        "const c = document.getElementById(arguments[0]);"
        "if (!c || c.getAttribute('aria-invalid') !== 'true') return null;"
        "const ids = (c.getAttribute('aria-describedby') || '').split(' ');"
        "const m = ids.map((id) => document.getElementById(id)).find((n) => n && n.classList.contains('field-error'));"
        "return m ? m.textContent : null;", control_id)


def end_practice(driver, stop_id, prefix):
    """Stops a practice (answering its one question: stop) and leaves the end view."""
    stop_practice(driver, stop_id)
    tap(driver, f"{prefix}-done")


def test_a_saved_sit_is_edited_renamed_started_from_its_link_and_deleted(server, browser):
    set_size(browser, *PHONE)
    open_app(browser, server, "meditate")
    # Zazen: 40 minutes with gongs at 25 and 30, saved from the quick sit's options. The gongs are
    # typed, then the name: the cursor stays in the name while the gongs are read.
    set_value(browser, "m-minutes", 40)
    meditate_options(browser)
    set_value(browser, "m-interval-custom", "25, 30")
    name = browser.find_element(By.ID, "m-save-name")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", name)
    name.click()
    name.send_keys("Zazen")
    wait_for(browser, lambda d: d.find_element(By.ID, "m-interval").get_attribute("value") == "25,30",
             message="the typed gongs were not read")
    name = browser.find_element(By.ID, "m-save-name")
    assert name.get_attribute("value") == "Zazen", name.get_attribute("value")
    assert browser.find_element(By.ID, "m-interval-custom").get_attribute("value") == "25, 30"
    tap(browser, "m-save")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.saved-sit[data-name="Zazen"]'),
             message="the saved sit was not added")
    [zazen] = presets(server)
    assert zazen["plan"]["durationMs"] == 40 * 60000
    assert zazen["plan"]["intervalGongs"] == {"mode": "offsets", "offsetsMs": [25 * 60000, 30 * 60000]}

    # Edit: 45 minutes, renamed "Zazen long"; the quick sit's form is back as it was after.
    tap(browser, f"m-edit-{zazen['id']}")
    wait_for(browser, lambda d: d.find_element(By.ID, "m-quick-title").text == "Edit “Zazen”")
    assert browser.find_element(By.ID, "m-minutes").get_attribute("value") == "40"
    assert browser.find_element(By.ID, "m-interval").get_attribute("value") == "25,30"
    shot(browser, "meditate-edit-saved-sit-phone")
    assert axe_violations(browser) == []
    set_value(browser, "m-minutes", 45)
    set_value(browser, "m-save-name", "Zazen long")
    tap(browser, "m-save-edit")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.saved-sit[data-name="Zazen long"]'),
             message="the renamed sit is not shown")
    [edited] = presets(server)
    assert (edited["id"], edited["name"], edited["plan"]["durationMs"]) == (zazen["id"], "Zazen long", 45 * 60000)
    assert browser.find_element(By.ID, "m-quick-title").text != "Edit “Zazen”"

    # Its deep link shows it with the one visible Start, which starts it.
    browser.get(f"{server.url}/#meditate/preset/Zazen%20long")
    start = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, f'#m-start[data-preset="{zazen["id"]}"]'),
                     message="the deep link did not show the saved sit's Start")
    assert start.is_displayed()
    assert not browser.find_elements(By.ID, "meditate-form"), "the quick sit's form competes with the sit's Start"
    shot(browser, "meditate-saved-sit-link-phone")
    tap(browser, "m-start")
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-pause"), message="the saved sit did not start")
    run = [r for r in server.get("/runs")["runs"] if r["kind"] == "meditation"][-1]
    assert run["timeline"]["totalMs"] == 45 * 60000 + zazen["plan"]["countdownMs"], run["timeline"]["totalMs"]
    assert run["name"] == "Zazen long"
    metadata = wait_for(browser, lambda d: d.execute_script(
        "const m = navigator.mediaSession.metadata; return m && [m.title, m.album]"))
    assert metadata[0] == "Zazen long" and metadata[1].startswith("45 min"), metadata
    assert "off" not in metadata[1].split(" · "), metadata
    end_practice(browser, "m-stop", "m")

    # The quick sit is as it was: 10 → Start is not refused (no remembered gongs at 25 and 30).
    browser.get(f"{server.url}/#meditate")
    browser.refresh()
    chip = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.chip[data-minutes="10"]'))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", chip)
    chip.click()
    tap(browser, "m-start")
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-pause") or d.find_elements(By.CSS_SELECTOR, ".field-error"))
    assert browser.find_elements(By.ID, "m-pause"), browser.find_element(By.CSS_SELECTOR, ".field-error").text
    run = [r for r in server.get("/runs")["runs"] if r["kind"] == "meditation"][-1]
    assert run["timeline"]["totalMs"] - 10 * 60000 < 61000, run["timeline"]
    end_practice(browser, "m-stop", "m")

    # Deleted, after one question.
    tap(browser, f"m-edit-{zazen['id']}")
    tap(browser, "m-delete")
    tap(browser, "confirm-yes")
    # The editor hides the saved sits, so "none shown" alone would pass before the delete: the
    # editor is gone first (the page leaves it once the server has answered the delete).
    wait_for(browser, lambda d: not d.find_elements(By.ID, "m-delete")
             and d.find_elements(By.ID, "meditate-form")
             and not d.find_elements(By.CSS_SELECTOR, ".saved-sit"), message="the sit is still shown")
    assert presets(server) == []
    assert console_errors(browser) == []


def test_meditate_refusals_stand_beside_their_field_in_the_fields_unit(server, browser):
    allow_console(browser, r"status of 422")  # the refusals this test provokes
    set_size(browser, *PHONE)
    open_app(browser, server, "meditate")
    # Minutes speak minutes.
    set_value(browser, "m-minutes", 0)
    tap(browser, "m-start")
    text = wait_for(browser, lambda d: field_error(d, "m-minutes"), message="no refusal beside the minutes")
    assert "min" in text and "second" not in text, text
    assert browser.switch_to.active_element.get_attribute("id") == "m-minutes"
    # Unreadable gongs are refused beside their field; nothing starts.
    set_value(browser, "m-minutes", 10)
    meditate_options(browser)
    set_value(browser, "m-interval-custom", "abc")
    tap(browser, "m-start")
    text = wait_for(browser, lambda d: field_error(d, "m-interval-custom"), message="no refusal beside the gongs")
    assert text, text
    assert not browser.find_elements(By.ID, "m-pause")
    assert [r for r in server.get("/runs")["runs"] if r["kind"] == "meditation"] == []
    # Gongs after the end: the server's sentence beside the gongs.
    set_value(browser, "m-interval-custom", "25")
    tap(browser, "m-start")
    text = wait_for(browser, lambda d: field_error(d, "m-interval-custom"), message="no refusal beside the gongs")
    assert "25" in text, text
    # A name over the limit is refused with the limit, not cut.
    set_value(browser, "m-interval-custom", "5")
    long_name = "Z" * 200
    set_value(browser, "m-save-name", long_name)
    assert browser.find_element(By.ID, "m-save-name").get_attribute("value") == long_name
    tap(browser, "m-save")
    text = wait_for(browser, lambda d: field_error(d, "m-save-name"), message="no refusal beside the name")
    assert any(ch.isdigit() for ch in text), text
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0], width
    assert presets(server) == []


def test_saved_sits_are_put_in_another_order_with_arrange(server, browser):
    plan = {"durationMs": 600000}
    for name in ("Morning", "Zazen", "Evening"):
        status, body = server.api("POST", "/meditation/presets", {"name": name, "plan": plan})
        assert status == 201, body
    set_size(browser, *PHONE)
    open_app(browser, server, "meditate")
    names = lambda d: [n.text for n in d.find_elements(By.CSS_SELECTOR, ".saved-sits .saved-name")]  # noqa: E731
    wait_for(browser, lambda d: names(d) == ["Morning", "Zazen", "Evening"], message="not in the order made")
    arrange = browser.find_element(By.ID, "m-arrange")
    assert arrange.get_attribute("aria-pressed") == "false"
    arrange.click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".saved-move"), message="Arrange shows no arrows")
    assert not browser.find_elements(By.CSS_SELECTOR, ".saved-edit"), "Edit stays beside the arrows"
    zazen = next(p["id"] for p in presets(server) if p["name"] == "Zazen")
    evening = next(p["id"] for p in presets(server) if p["name"] == "Evening")
    morning = next(p["id"] for p in presets(server) if p["name"] == "Morning")
    # The first cannot go up, the last cannot go down.
    assert browser.find_element(By.ID, f"m-move-up-{morning}").get_attribute("disabled") is not None
    assert browser.find_element(By.ID, f"m-move-down-{evening}").get_attribute("disabled") is not None
    assert browser.find_element(By.ID, f"m-move-up-{zazen}").get_attribute("aria-label") == "Move “Zazen” up"
    shot(browser, "saved-sits-arranging")
    assert axe_violations(browser) == []

    browser.find_element(By.ID, f"m-move-up-{zazen}").click()
    wait_for(browser, lambda d: names(d) == ["Zazen", "Morning", "Evening"], message="Zazen did not move up")
    assert [p["name"] for p in presets(server)] == ["Zazen", "Morning", "Evening"]
    # Zazen is first now: its ↑ is disabled, so the focus waits on its ↓.
    wait_for(browser, lambda d: d.switch_to.active_element.get_attribute("id") == f"m-move-down-{zazen}",
             message="the focus did not stay with the moved sit")
    browser.switch_to.active_element.click()
    wait_for(browser, lambda d: names(d) == ["Morning", "Zazen", "Evening"], message="Zazen did not move down")
    browser.find_element(By.ID, f"m-move-down-{zazen}").click()
    wait_for(browser, lambda d: names(d) == ["Morning", "Evening", "Zazen"], message="Zazen did not move last")

    # Done: the order stays after a reload, and the cards are tapped to start as before.
    browser.find_element(By.ID, "m-arrange").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".saved-edit"), message="Edit did not come back")
    browser.refresh()
    wait_for(browser, lambda d: names(d) == ["Morning", "Evening", "Zazen"], message="the order was not kept")

    # A place below the first is refused with a sentence; past the last is the last.
    status, body = server.api("PATCH", f"/meditation/presets/{morning}", {"position": -1})
    assert status == 422 and body["error"]["field"] == "position", body
    status, body = server.api("PATCH", f"/meditation/presets/{morning}", {"position": 99})
    assert status == 200, body
    assert [p["name"] for p in presets(server)] == ["Evening", "Zazen", "Morning"]
