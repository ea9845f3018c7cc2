"""Live sync in the browser (issue 9, docs/sync.md "Browser"): two windows on one server follow
each other's changes and a terminal's pushes without a reload; text being typed is not lost; the
status line shows only while the connection is down, and missed changes show once it is back."""
import time
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import allow_console, axe_violations, go, open_app, set_color_scheme, set_size, shot, wait_for

LAPTOP = "terminal@laptop"
counter = 0


def stamp():
    """A stamp as a terminal replica makes it: wall-clock milliseconds now, a counter, its node."""
    global counter
    counter += 1
    return f"{int(time.time() * 1000):013d}-{counter:05d}-n-laptop"


def push(server, *changes):
    """Pushes changes as the terminal on the laptop would (POST /sync/push)."""
    status, body = server.api("POST", "/sync/push", {"changes": [
        {**change, "stamp": stamp(), "device": LAPTOP} for change in changes]})
    assert status == 200, body
    return body["seqs"]


def head(server):
    return server.get("/sync/pull?after=0&limit=1000")["last"]


def connected(driver):
    wait_for(driver, lambda d: d.execute_script("return document.documentElement.dataset.live") == "open",
             message="the live feed did not connect")


def received(driver, seq):
    """Waits until the page has taken the server's change `seq` from the live feed."""
    wait_for(driver, lambda d: (d.execute_script("return window.momentumLive.lastSeq") or 0) >= seq,
             message=f"change {seq} did not arrive")


def box(driver, timer, item):
    return driver.find_element(By.ID, f"item-{timer['id']}-{item['id']}")


def checked(driver, node_id):
    """Whether the box `node_id` is ticked, read in one step (the section may redraw any time)."""
    return driver.execute_script("const n = document.getElementById(arguments[0]); return !!n && n.checked", node_id)


def text(driver, node_id):
    return driver.execute_script(
        "const n = document.getElementById(arguments[0]); return n ? n.textContent : null", node_id)


def ticked(driver, timer, item):
    return checked(driver, f"item-{timer['id']}-{item['id']}")


def name_shown(driver, timer):
    return text(driver, f"t-{timer['id']}-name")


def test_two_windows_follow_each_other_and_the_terminal(server, browser, second_browser):
    status, timer = server.api("POST", "/timers", {"name": "Morning pages", "durationMs": 25 * 60000,
                                                    "items": ["Water", "Notebook", "Phone away"]})
    assert status == 201, timer
    water, notebook, _ = timer["items"]
    a, b = browser, second_browser
    for driver in (a, b):
        open_app(driver, server, "timers")
        connected(driver)
        driver.execute_script("window.notReloaded = true")

    # A tick in one window shows in the other, without a reload; so does taking it off.
    box(a, timer, notebook).click()
    wait_for(b, lambda d: ticked(d, timer, notebook), message="the tick did not show in the other window")
    box(b, timer, notebook).click()
    wait_for(a, lambda d: not ticked(d, timer, notebook), message="the untick did not show in the first window")
    assert not ticked(b, timer, notebook)

    # While B types a new item, A's tick waits: B's text and cursor stay; the tick shows once B
    # leaves the field, and the typed text is still there.
    field = b.find_element(By.ID, f"t-{timer['id']}-new-item")
    field.send_keys("Tea")
    box(a, timer, water).click()
    wait_for(a, lambda d: [i["done"] for i in server.get("/timers")["timers"][0]["items"]][0])
    received(b, head(server))
    view_b = b.find_element(By.ID, "view-timers")
    wait_for(b, lambda d: d.execute_script("return arguments[0].momentumWaiting === true", view_b),
             message="the refresh did not wait for the person typing")
    assert b.switch_to.active_element == field and field.get_attribute("value") == "Tea"
    assert not ticked(b, timer, water)
    field.send_keys(Keys.TAB)  # on to the Add button
    wait_for(b, lambda d: ticked(d, timer, water), message="the tick did not show after leaving the field")
    assert b.find_element(By.ID, f"t-{timer['id']}-new-item").get_attribute("value") == "Tea"
    assert b.switch_to.active_element.get_attribute("id") == f"t-{timer['id']}-add-item"

    # The terminal on the laptop renames the timer and starts it: both windows follow, the
    # clock ticks, and the card says who changed it.
    push(server, {"type": "focusTimer", "id": timer["id"], "op": "set", "field": "name",
                  "value": "Morning pages (laptop)"})
    for driver in (a, b):
        wait_for(driver, lambda d: name_shown(d, timer) == "Morning pages (laptop)", message="the rename did not show")
        wait_for(driver, lambda d: "laptop" in (text(d, f"t-{timer['id']}-changed") or ""))
    assert b.find_element(By.ID, f"t-{timer['id']}-changed").text == "Changed in the terminal on laptop · just now"
    # Another device is in play and this browser has no name: "This device" asks first, gently.
    for driver in (a, b):
        wait_for(driver, lambda d: d.execute_script(
            "const s = document.getElementById('t-device'), l = document.getElementById('t-list');"
            "return !!s && !!l && s.classList.contains('ask')"
            " && !!(s.compareDocumentPosition(l) & Node.DOCUMENT_POSITION_FOLLOWING)"),
            message="the unnamed browser does not ask for a name first")
    now = int(time.time() * 1000)
    push(server, {"type": "focusTimer", "id": timer["id"], "op": "set", "field": "run",
                  "value": {"status": "running", "startedAt": now, "resumedAt": now, "elapsedBeforeMs": 0}})
    for driver in (a, b):
        wait_for(driver, lambda d: text(d, f"t-{timer['id']}-status") == "running",
                 message="the start on the laptop did not show")
        wait_for(driver, lambda d: text(d, f"t-{timer['id']}-time") not in ("25:00", "", None),
                 message="the started timer does not tick")
        assert driver.find_element(By.ID, f"t-{timer['id']}-toggle").text == "Pause"
        assert driver.execute_script("return window.notReloaded === true"), "the page was reloaded"
    assert b.find_element(By.ID, f"t-{timer['id']}-new-item").get_attribute("value") == "Tea"
    assert not a.find_elements(By.ID, "live-offline") and not b.find_elements(By.ID, "live-offline")
    shot(a, "sync-live-window-a")
    shot(b, "sync-live-window-b")
    assert axe_violations(a) == []
    assert axe_violations(b) == []

    # A deletion on the laptop takes the timer away in both windows.
    push(server, {"type": "focusTimer", "id": timer["id"], "op": "delete"})
    for driver in (a, b):
        wait_for(driver, lambda d: d.find_elements(By.ID, "t-none"), message="the deleted timer still shows")


def test_settings_and_the_log_follow_live(server, browser, second_browser):
    a, b = browser, second_browser
    open_app(a, server, "settings")
    open_app(b, server, "settings")
    connected(a)
    connected(b)

    # A setting saved in one window shows in the other.
    a.find_element(By.ID, "s-hide-streaks").click()
    a.find_element(By.ID, "s-save").click()
    wait_for(b, lambda d: checked(d, "s-hide-streaks"),
             message="the saved setting did not show in the other window")

    # A practice record logged on the laptop shows in the Progress log.
    go(b, "progress")
    before = len(b.find_elements(By.CSS_SELECTOR, "[data-testid=log-record]"))
    end = int(time.time() * 1000) - 60000
    record = str(uuid.uuid4())
    fields = {"kind": "meditation", "start": end - 10 * 60000, "end": end, "countedSeconds": 600,
              "energyKilocalories": None, "details": {"note": "On the train"}, "device": LAPTOP}
    push(server, *[{"type": "practiceRecord", "id": record, "op": "set", "field": k, "value": v}
                   for k, v in fields.items()])
    shown = f"log-{record.upper()}"  # the log API writes record ids in upper case
    wait_for(b, lambda d: d.find_elements(By.ID, shown), message="the laptop's record did not show")
    assert len(b.find_elements(By.CSS_SELECTOR, "[data-testid=log-record]")) == before + 1
    assert "On the train" in text(b, shown)

    # A language chosen on the laptop relocalizes both windows.
    push(server, {"type": "setting", "id": "language", "op": "set", "field": "value", "value": "de"})
    wait_for(a, lambda d: text(d, "h-settings") == "Einstellungen", message="no German in A")
    wait_for(b, lambda d: text(d, "h-progress") == "Fortschritt", message="no German in B")
    shot(b, "sync-live-progress-de")
    assert axe_violations(b) == []


def test_the_connection_status_and_missed_changes(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Inbox", "durationMs": 15 * 60000, "items": []})
    assert status == 201, timer
    open_app(browser, server, "timers")
    connected(browser)
    allow_console(browser, r"WebSocket connection to .*/api/v1/live.* failed")
    browser.execute_script("window.notReloaded = true")

    # The browser goes offline and the feed drops: after a moment a calm status line says so.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    browser.execute_script("window.momentumLive.drop()")
    status_line = wait_for(browser, lambda d: d.find_elements(By.ID, "live-offline"), timeout=15,
                           message="no status line while offline")[0]
    assert status_line.text == "Offline — changes will show when the connection is back."
    region = browser.find_element(By.ID, "live-status")
    assert region.get_attribute("role") == "status"
    shot(browser, "sync-live-offline")
    assert axe_violations(browser) == []

    # Meanwhile the laptop renames the timer; once the connection is back the page catches up.
    push(server, {"type": "focusTimer", "id": timer["id"], "op": "set", "field": "name", "value": "Inbox zero"})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(browser, lambda d: name_shown(d, timer) == "Inbox zero", timeout=40,
             message="the change made while offline did not show after reconnecting")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "live-offline"), message="the status line stayed")
    assert browser.execute_script("return window.notReloaded === true"), "the page was reloaded"

    # The same in German.
    status, _ = server.api("PATCH", "/settings", {"language": "de"})
    assert status == 200
    wait_for(browser, lambda d: d.execute_script("return document.documentElement.lang") == "de",
             message="the page did not turn German")
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    browser.execute_script("window.momentumLive.drop()")
    status_line = wait_for(browser, lambda d: d.find_elements(By.ID, "live-offline"), timeout=15)[0]
    assert status_line.text == "Offline – Änderungen erscheinen, sobald die Verbindung wieder steht."
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(browser, lambda d: not d.find_elements(By.ID, "live-offline"), timeout=40)


def test_a_language_chosen_while_the_feed_was_down_shows_once_it_is_back(server, browser):
    # The feed only says "changes were missed" then: the page asks the server for the language.
    open_app(browser, server, "timers")
    connected(browser)
    allow_console(browser, r"WebSocket connection to .*/api/v1/live.* failed")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    browser.execute_script("window.momentumLive.drop()")
    wait_for(browser, lambda d: d.execute_script("return document.documentElement.dataset.live") != "open")
    status, _ = server.api("PATCH", "/settings", {"language": "de"})
    assert status == 200
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(browser, lambda d: d.execute_script("return document.documentElement.lang") == "de", timeout=40,
             message="the language chosen while the feed was down did not show")


def changed(driver, timer):
    """The card's "changed by" line as shown ("" while hidden)."""
    return driver.execute_script(
        "const n = document.getElementById(arguments[0]); return n && !n.hidden ? n.textContent : ''",
        f"t-{timer['id']}-changed")


def active_id(driver):
    return driver.execute_script("return document.activeElement && document.activeElement.id")


def name_this_device(driver, name):
    """Names the browser through "This device" at the end of Timers, as a person would."""
    driver.find_element(By.ID, "t-device-name").click()
    field = wait_for(driver, lambda d: d.find_element(By.ID, "device-name-input"), message="no name dialog")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "device-name-save").click()
    wait_for(driver, lambda d: not d.find_elements(By.ID, "device-dialog"), message="the name dialog stays")


def test_changed_by_names_the_device_a_person_chose_and_never_this_one(server, browser, second_browser):
    # Made through the API without a name (as a script would): "a browser", never web@host.
    status, timer = server.api("POST", "/timers", {"name": "Reading", "durationMs": 20 * 60000, "items": []})
    assert status == 201, timer
    a, b = browser, second_browser
    for driver in (a, b):
        open_app(driver, server, "timers")
        connected(driver)
    wait_for(a, lambda d: changed(d, timer) == "Changed in a browser · just now")
    assert "web@" not in a.find_element(By.ID, "view-timers").text
    assert a.find_element(By.ID, "t-device-text").text.startswith("Give this browser a name")

    # A name Momentum keeps for its own stamps is refused next to the field, in words; the dialog
    # stays open, and nothing is kept.
    allow_console(a, r"/api/v1/device - Failed to load resource: .* 422")
    a.find_element(By.ID, "t-device-name").click()
    field = wait_for(a, lambda d: d.find_element(By.ID, "device-name-input"))
    field.send_keys("web@laptop")
    a.find_element(By.ID, "device-name-save").click()
    error = wait_for(a, lambda d: (e := d.find_element(By.ID, "device-name-error")).is_displayed() and e)
    assert "web@" in error.text and "terminal@" in error.text
    assert field.get_attribute("aria-invalid") == "true" and active_id(a) == "device-name-input"
    assert a.execute_script("return localStorage.getItem('momentum.deviceName')") is None
    set_size(a, 360, 740)
    shot(a, "timers-device-name-refused-360")
    assert axe_violations(a) == []
    set_size(a, 1280, 900)
    # Cancel: the focus goes back to the button that opened the dialog.
    a.find_element(By.ID, "device-name-cancel").click()
    wait_for(a, lambda d: not d.find_elements(By.ID, "device-dialog"))
    assert active_id(a) == "t-device-name"

    name_this_device(a, "Anna's phone")
    assert active_id(a) == "t-device-name"
    assert a.find_element(By.ID, "t-device-text").text.startswith("This browser is called “Anna's phone”")
    name_this_device(b, "Desk")

    # A starts the timer: B says so by name; A, which made the change, says nothing.
    a.find_element(By.ID, f"t-{timer['id']}-toggle").click()
    wait_for(b, lambda d: changed(d, timer) == "Changed by Anna's phone · just now",
             message="the other browser does not name the device that changed the timer")
    wait_for(a, lambda d: changed(d, timer) == "", message="this device's own change is named")
    assert server.get(f"/sync/last-change?type=focusTimer&id={timer['id']}&field=run")["device"] == "Anna's phone"

    # B pauses it: now A names B, and B is quiet. Both survive a reload (the name is kept).
    b.find_element(By.ID, f"t-{timer['id']}-toggle").click()
    wait_for(a, lambda d: changed(d, timer) == "Changed by Desk · just now")
    wait_for(b, lambda d: changed(d, timer) == "")
    a.refresh()
    wait_for(a, lambda d: changed(d, timer) == "Changed by Desk · just now", message="the reload lost the line")
    b.refresh()
    wait_for(b, lambda d: d.find_elements(By.ID, f"t-{timer['id']}-changed"))
    connected(b)
    assert changed(b, timer) == ""
    assert b.find_element(By.ID, "t-device-text").text.startswith("This browser is called “Desk”")
    for scheme in ("light", "dark"):
        set_color_scheme(a, scheme)
        for width, height in ((360, 740), (1280, 900)):
            set_size(a, width, height)
            shot(a, f"timers-changed-by-{scheme}-{width}")
            assert axe_violations(a) == [], (scheme, width)

    # In German, the same in German.
    status, _ = server.api("PATCH", "/settings", {"language": "de"})
    assert status == 200
    wait_for(a, lambda d: changed(d, timer) == "Geändert von Desk · gerade eben", message="no German line")
    set_size(a, 360, 740)
    shot(a, "timers-changed-by-de-360")
