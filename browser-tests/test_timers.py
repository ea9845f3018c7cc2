"""Timers: a focus timer made through the API shows with its checklist; ticking an item persists."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (allow_notifications, axe_violations, go, open_app, recorded_notifications, set_color_scheme,
                      set_size, shot, wait_for)


def checkbox(driver, timer, item):
    return driver.find_element(By.ID, f"item-{timer['id']}-{item['id']}")


def done_on_server(server, timer_id):
    [timer] = [t for t in server.get("/timers")["timers"] if t["id"] == timer_id]
    return {i["text"]: i["done"] for i in timer["items"]}


def test_ticking_a_checklist_item_persists(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Morning pages", "durationMs": 25 * 60000,
                                                    "items": ["Water", "Notebook", "Phone away"]})
    assert status == 201, timer
    water, notebook = timer["items"][0], timer["items"][1]

    open_app(browser, server, "meditate")
    view = go(browser, "timers")
    card = view.find_element(By.CSS_SELECTOR, ".timer-list > li")
    assert card.find_element(By.TAG_NAME, "h2").text == "Morning pages"
    assert browser.find_element(By.ID, f"t-{timer['id']}-time").text == "25:00"
    assert [label.text for label in card.find_elements(By.CSS_SELECTOR, ".checklist label")] == [
        "Water", "Notebook", "Phone away"]

    # Clicking the item's text ticks it, as its label.
    card.find_element(By.XPATH, ".//label[.//span[text()='Notebook']]").click()
    wait_for(browser, lambda d: done_on_server(server, timer["id"])["Notebook"], message="the tick was not saved")
    wait_for(browser, lambda d: "done" in checkbox(d, timer, notebook).find_element(By.XPATH, "./ancestor::li[1]").get_attribute("class"))
    assert done_on_server(server, timer["id"]) == {"Water": False, "Notebook": True, "Phone away": False}

    browser.refresh()
    wait_for(browser, lambda d: d.find_elements(By.ID, f"item-{timer['id']}-{notebook['id']}"))
    assert checkbox(browser, timer, notebook).is_selected()
    assert not checkbox(browser, timer, water).is_selected()
    shot(browser, "timers-ticked")

    # And the tick comes off again.
    checkbox(browser, timer, notebook).click()
    wait_for(browser, lambda d: not done_on_server(server, timer["id"])["Notebook"], message="the untick was not saved")


def test_a_timer_made_in_the_form_gets_its_checklist(server, browser):
    open_app(browser, server, "meditate")
    go(browser, "timers")
    wait_for(browser, lambda d: d.find_elements(By.ID, "t-none"), message="no empty state for a new user")
    browser.find_element(By.ID, "t-name").send_keys("Tax return")
    minutes = browser.find_element(By.ID, "t-minutes")
    minutes.clear()
    minutes.send_keys("45")
    browser.find_element(By.ID, "t-items").send_keys("Receipts\nBank statements\n\n  Coffee  ")
    browser.find_element(By.ID, "t-add").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "li[data-testid=timer]"),
             message="the new timer does not show")
    [timer] = server.get("/timers")["timers"]
    assert (timer["name"], timer["durationMs"]) == ("Tax return", 45 * 60000)
    assert [i["text"] for i in timer["items"]] == ["Receipts", "Bank statements", "Coffee"]
    # Found by id: the live echo of the creation may draw the list once more meanwhile.
    wait_for(browser, lambda d: d.find_element(By.ID, f"t-{timer['id']}"))
    assert browser.find_element(By.ID, f"t-{timer['id']}-time").text == "45:00"

    # An item added to the card's own field joins the checklist.
    browser.find_element(By.ID, f"t-{timer['id']}-new-item").send_keys("Sign it")
    browser.find_element(By.ID, f"t-{timer['id']}-add-item").click()
    wait_for(browser, lambda d: [i["text"] for i in server.get("/timers")["timers"][0]["items"]][-1] == "Sign it",
             message="the added item was not saved")

    receipts = timer["items"][0]
    # Clicked once it holds still (the added item's echo may draw the list again under the click).
    wait_for(browser, lambda d: checkbox(d, timer, receipts).click() or True)
    wait_for(browser, lambda d: done_on_server(server, timer["id"])["Receipts"], message="the tick was not saved")
    assert done_on_server(server, timer["id"]) == {"Receipts": True, "Bank statements": False, "Coffee": False,
                                                   "Sign it": False}
    shot(browser, "timers-created-in-form")


# ---------------------------------------------------------------------------------------------
# The end sound: an <audio> element plays the running timer's rest, so its gong sounds with the
# screen locked (js/focus-end.js).

# A browser that plays sound only after a tap, as phones do after a reload (this Chromium is
# started with autoplay allowed): play() without the person's activation is refused.
REFUSE_AUTOPLAY = """
const realPlay = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  if (!navigator.userActivation.isActive) {
    return Promise.reject(new DOMException('play() needs a gesture', 'NotAllowedError'));
  }
  return realPlay.call(this);
};
"""


def end_sound(driver):
    return driver.execute_script(
        "const s = window.momentumFocusEnd;"
        "return s && {timerID: s.timerID, src: s.src, paused: s.paused, blocked: s.blocked};")


def audio_time(driver):
    return driver.execute_script("const a = document.getElementById('focus-end-audio'); return a ? a.currentTime : 0;")


def playing(timer_id):
    src = f"/api/v1/timers/{timer_id}/end-sound"
    return lambda d: (s := end_sound(d)) and s["timerID"] == timer_id and s["src"] == src and not s["paused"] and s


def silent(driver):
    s = end_sound(driver)
    return s is not None and s["timerID"] is None and s["src"] is None and s["paused"]


def test_a_started_timer_plays_its_end_sound_until_it_is_paused_here_or_elsewhere(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Reading", "durationMs": 10 * 60000})
    assert status == 201, timer
    open_app(browser, server, "meditate")
    go(browser, "timers")
    toggle = f"t-{timer['id']}-toggle"

    browser.find_element(By.ID, toggle).click()
    wait_for(browser, playing(timer["id"]), message="starting the timer does not play its end sound")
    wait_for(browser, lambda d: audio_time(d) > 0, message="the end sound does not move on")

    browser.find_element(By.ID, toggle).click()
    wait_for(browser, silent, message="pausing the timer does not stop its end sound")
    assert server.get(f"/timers/{timer['id']}")["status"] == "paused"

    # Resumed, it is asked for anew; paused on another device, the live feed stops it.
    browser.find_element(By.ID, toggle).click()
    wait_for(browser, playing(timer["id"]), message="resuming the timer does not play its end sound")
    status, _ = server.api("POST", f"/timers/{timer['id']}/pause", {})
    assert status == 200
    wait_for(browser, silent, message="a pause on another device does not stop the end sound")


def test_a_timer_that_runs_out_shows_done_and_notifies(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Tea", "durationMs": 2000})
    assert status == 201, timer
    allow_notifications(browser, server)
    open_app(browser, server, "timers")
    browser.find_element(By.ID, f"t-{timer['id']}-toggle").click()
    wait_for(browser, playing(timer["id"]), message="starting the timer does not play its end sound")

    wait_for(browser, lambda d: d.find_element(By.ID, f"t-{timer['id']}-status").text == "✓ Done",
             message="the timer does not show done")
    assert server.get(f"/timers/{timer['id']}")["status"] == "completed"
    # Shown calmly at 00:00, and said once to a screen reader.
    assert browser.find_element(By.ID, f"t-{timer['id']}-time").text == "00:00"
    assert "completed" in browser.find_element(By.ID, f"t-{timer['id']}").get_attribute("class")
    # The end is nobody's change: no "Changed in a browser" under Done.
    wait_for(browser, lambda d: not d.find_element(By.ID, f"t-{timer['id']}-changed").is_displayed())
    wait_for(browser, lambda d: d.find_element(By.ID, "announcer").text == "“Tea” is done.",
             message="the end is not announced")
    # Logged by the core's rule (a focus run of at least a second counts).
    records = server.get("/log")["records"]
    assert [(r["kind"], r["details"].get("timer")) for r in records] == [("focus", "Tea")]
    notifications = wait_for(browser, recorded_notifications, message="no notification")
    assert [(n["title"], n["tag"], n.get("body")) for n in notifications] == [("Tea is done", f"focus-{timer['id']}", None)]
    # The gong rings out: the element is not stopped at the end.
    assert end_sound(browser)["timerID"] == timer["id"]
    shot(browser, "timers-ran-out")
    for scheme in ("light", "dark"):
        set_color_scheme(browser, scheme)
        for width, height in ((360, 740), (1280, 900)):
            set_size(browser, width, height)
            shot(browser, f"timers-done-{scheme}-{width}")
            assert axe_violations(browser) == [], (scheme, width)


def test_another_device_shows_the_end_through_the_live_feed(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Tea", "durationMs": 2000})
    assert status == 201, timer
    open_app(browser, server, "timers")
    wait_for(browser, lambda d: d.execute_script("return document.documentElement.dataset.live") == "open")
    # Started elsewhere (the API, as another device): this page follows it to its end.
    assert server.api("POST", f"/timers/{timer['id']}/start", {})[0] == 200
    wait_for(browser, lambda d: d.find_element(By.ID, f"t-{timer['id']}-status").text == "✓ Done",
             message="the end of a timer started elsewhere does not show")
    assert browser.find_element(By.ID, f"t-{timer['id']}-time").text == "00:00"
    wait_for(browser, lambda d: d.find_element(By.ID, "announcer").text == "“Tea” is done.")


def test_after_a_reload_without_a_tap_the_page_offers_a_button_to_hear_the_end(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Reading", "durationMs": 10 * 60000})
    assert status == 201, timer
    assert server.api("POST", f"/timers/{timer['id']}/start", {})[0] == 200
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": REFUSE_AUTOPLAY})
    open_app(browser, server, "timers")

    button = wait_for(browser, lambda d: d.find_element(By.ID, f"t-{timer['id']}-hear-button"),
                      message="no button to hear the end")
    assert button.is_displayed()
    assert button.text == "Tap to hear the end of Reading"
    why = browser.find_element(By.ID, f"t-{timer['id']}-hear-why")
    assert "tap" in why.text
    assert end_sound(browser) == {"timerID": None, "src": None, "paused": True, "blocked": timer["id"]}
    shot(browser, "timers-tap-to-hear")

    button.click()
    wait_for(browser, playing(timer["id"]), message="the tap does not play the end sound")
    wait_for(browser, lambda d: not d.find_elements(By.ID, f"t-{timer['id']}-hear-button"),
             message="the button stays after the tap")


# ---------------------------------------------------------------------------------------------
# Focus lands where the person was.

def active_id(driver):
    return driver.execute_script("return document.activeElement && document.activeElement.id")


def test_focus_stays_on_a_ticked_box_through_the_live_redraw(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Morning pages", "durationMs": 25 * 60000,
                                                    "items": ["Water", "Notebook"]})
    assert status == 201, timer
    water = timer["items"][0]
    open_app(browser, server, "timers")
    wait_for(browser, lambda d: d.execute_script("return document.documentElement.dataset.live") == "open")
    box_id = f"item-{timer['id']}-{water['id']}"
    box = browser.find_element(By.ID, box_id)
    box.send_keys(Keys.SPACE)  # ticked from the keyboard
    wait_for(browser, lambda d: done_on_server(server, timer["id"])["Water"], message="the tick was not saved")
    # Another device renames the timer meanwhile: the list is drawn anew, and the focus stays.
    assert server.api("PATCH", f"/timers/{timer['id']}", {"name": "Morning pages!"})[0] == 200
    wait_for(browser, lambda d: d.find_element(By.ID, f"t-{timer['id']}-name").text == "Morning pages!",
             message="the rename did not show")
    assert active_id(browser) == box_id
    assert browser.find_element(By.ID, box_id).is_selected()
    # Unticked with the keyboard again: still there.
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    wait_for(browser, lambda d: not done_on_server(server, timer["id"])["Water"])
    assert active_id(browser) == box_id


def test_focus_after_pause_reset_and_the_delete_dialog(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Reading", "durationMs": 10 * 60000, "items": ["Book"]})
    assert status == 201, timer
    open_app(browser, server, "timers")
    toggle, reset, delete = (f"t-{timer['id']}-{x}" for x in ("toggle", "reset", "delete"))
    browser.find_element(By.ID, toggle).click()
    wait_for(browser, lambda d: d.find_element(By.ID, toggle).text == "Pause")
    browser.find_element(By.ID, toggle).click()  # pause
    wait_for(browser, lambda d: d.find_element(By.ID, toggle).text == "Resume")
    assert active_id(browser) == toggle
    browser.find_element(By.ID, reset).click()
    wait_for(browser, lambda d: d.find_element(By.ID, toggle).text == "Start")
    assert active_id(browser) == toggle, "after Reset the focus is not on Start"

    # The delete confirmation: Cancel and Escape both bring the focus back to Delete.
    browser.find_element(By.ID, delete).click()
    wait_for(browser, lambda d: d.find_element(By.ID, "confirm-no")).click()
    wait_for(browser, lambda d: not d.find_elements(By.ID, "confirm-dialog"))
    assert active_id(browser) == delete
    browser.find_element(By.ID, delete).click()
    wait_for(browser, lambda d: active_id(d) == "confirm-no")
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(browser, lambda d: not d.find_elements(By.ID, "confirm-dialog"))
    assert active_id(browser) == delete
    # Confirmed, the timer goes and the focus moves to the new timer's name.
    browser.find_element(By.ID, delete).click()
    wait_for(browser, lambda d: d.find_element(By.ID, "confirm-yes")).click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "t-none"))
    assert active_id(browser) == "t-name"
