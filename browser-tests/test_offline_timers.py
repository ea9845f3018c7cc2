"""Focus timers away from the server (issue 43, docs/offline.md): a page that lost the network keeps
its timers on screen, and a tick and a pause made there wait as intents with their instants; another
browser changes the same timer online meanwhile; once the first is back online both end the same,
each field as the change made last left it (last writer wins by the instant it was done)."""
import time

from selenium.webdriver.common.by import By

from conftest import allow_console, axe_violations, open_app, set_size, shot, wait_for


def offline(driver, on):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def text(driver, node_id):
    return driver.execute_script(
        "const n = document.getElementById(arguments[0]); return n ? n.textContent : null", node_id)


def ticked(driver, node_id):
    return driver.execute_script("const n = document.getElementById(arguments[0]); return !!n && n.checked", node_id)


def click(driver, node_id):
    node = wait_for(driver, lambda d: d.find_element(By.ID, node_id), message=f"no #{node_id}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", node)
    node.click()


def connected(driver):
    wait_for(driver, lambda d: d.execute_script("return document.documentElement.dataset.live") == "open",
             message="the live feed did not connect")


def test_a_tick_and_a_pause_made_offline_merge_by_when_they_were_done(server, browser, second_browser):
    status, timer = server.api("POST", "/timers", {"name": "Reading", "durationMs": 25 * 60000,
                                                    "items": ["Water", "Notebook"]})
    assert status == 201, timer
    water, notebook = (f"item-{timer['id']}-{item['id']}" for item in timer["items"])
    status, _ = server.api("POST", f"/timers/{timer['id']}/start", {})
    assert status == 200
    a, b = browser, second_browser
    set_size(a, 390, 844)
    for driver in (a, b):
        open_app(driver, server, "timers")
        connected(driver)
        wait_for(driver, lambda d: text(d, f"t-{timer['id']}-status") == "running")

    # A loses the network. B, online, pauses and starts the timer again.
    allow_console(a, r"net::ERR_INTERNET_DISCONNECTED")
    offline(a, True)
    click(b, f"t-{timer['id']}-toggle")
    wait_for(b, lambda d: text(d, f"t-{timer['id']}-status") == "paused")
    time.sleep(1)  # the changes need instants apart on the wall clock
    click(b, f"t-{timer['id']}-toggle")
    wait_for(b, lambda d: text(d, f"t-{timer['id']}-status") == "running")
    time.sleep(1)

    # A, offline, ticks both items and pauses: later than B's start.
    click(a, water)
    wait_for(a, lambda d: d.find_elements(By.ID, "t-offline"), message="the page does not say it is offline")
    assert text(a, "t-offline").startswith("Offline: your timers as they were on")
    click(a, notebook)
    click(a, f"t-{timer['id']}-toggle")
    wait_for(a, lambda d: text(d, f"t-{timer['id']}-status") == "paused", message="the offline pause did not show")
    assert ticked(a, water) and ticked(a, notebook)
    wait_for(a, lambda d: text(d, "offline-waiting-timers") == "3 timer changes waiting to be saved.",
             message="the waiting timer changes are not said")
    paused_on_a = text(a, f"t-{timer['id']}-time")
    shot(a, "offline-timers-390")
    assert axe_violations(a) == []

    # B, online and later still, ticks Water and takes the tick off again.
    time.sleep(1)
    click(b, water)
    wait_for(b, lambda d: server.get("/timers")["timers"][0]["items"][0]["done"] is True)
    time.sleep(1)
    click(b, water)
    wait_for(b, lambda d: server.get("/timers")["timers"][0]["items"][0]["done"] is False)

    # A is back: its changes go to the server. Water stays as B left it last (B's untick came
    # after A's tick); Notebook is ticked and the timer paused as A did (after B's start).
    offline(a, False)
    wait_for(a, lambda d: not d.find_elements(By.ID, "offline-waiting-timers"), timeout=15,
             message="the timer changes were not sent")
    served = server.get("/timers")["timers"][0]
    assert served["status"] == "paused"
    assert [item["done"] for item in served["items"]] == [False, True]
    for driver in (a, b):
        wait_for(driver, lambda d: text(d, f"t-{timer['id']}-status") == "paused" and not ticked(d, water)
                 and ticked(d, notebook) and not d.find_elements(By.ID, "t-offline"), timeout=15,
                 message="the two browsers do not end the same")
    remaining = text(a, f"t-{timer['id']}-time")
    assert remaining == text(b, f"t-{timer['id']}-time")
    # The server paused it at A's instant: what A showed, give or take the second it took to send.
    minutes, seconds = (int(x) for x in remaining.split(":"))
    shown_minutes, shown_seconds = (int(x) for x in paused_on_a.split(":"))
    assert abs((minutes * 60 + seconds) - (shown_minutes * 60 + shown_seconds)) <= 2, (remaining, paused_on_a)
    # Who paused it last: the card on B says a browser did (A has no name), A's says nothing.
    changes = server.get(f"/sync/last-change?type=focusTimer&id={timer['id']}&field=run")
    assert changes["by"]["kind"] == "browser"
