"""What a device keeps to practise with the server out of reach (issue 43, docs/offline.md): the
prepared practices' sound in Cache Storage within the budget set in Settings → Offline, answered by
the service worker — byte ranges included — with the network gone, and played by an `<audio>`
element from there."""
import re

from selenium.webdriver.common.by import By

from conftest import allow_console, axe_violations, open_app, set_size, shot, wait_for

SIT = {"name": "Park sit", "plan": {"durationMs": 300000, "countdownMs": 0}}
OPEN = {"name": "As long as it lasts", "plan": {"durationMs": 600000, "countdownMs": 0, "isOpenEnded": True}}


def keep_offline(driver, budget_mb):
    """Lets this browser keep up to `budget_mb` MB of sound (every other test keeps none:
    conftest.run_browser). A few MB: each practice's sound is rendered as it is fetched, and the
    tests' debug build renders slowly; one that does not fit is given up at its first bytes."""
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                           {"identifier": driver.momentum_offline_off})
    driver.execute_script("localStorage.setItem('momentum.offlineBudgetMB', arguments[0])", str(budget_mb))


def kept(driver):
    return driver.execute_async_script(
        "const done = arguments[0];"
        "import('/js/offline-store.js').then((m) => m.kept()).then(done, (e) => done(String(e)));")


def refreshed(driver):
    """Keeps what the page keeps, now, and answers the index. Polled, not awaited in one script:
    the first refresh renders every practice's sound, which a debug build takes minutes for, longer
    than one WebDriver command may last."""
    driver.execute_script(
        "window.__kept = undefined;"
        "import('/js/offline-store.js').then((m) => m.refresh())"
        ".then((index) => { window.__kept = { index }; }, (e) => { window.__kept = { error: String(e) }; });")
    outcome = wait_for(driver, lambda d: d.execute_script("return window.__kept"), timeout=400,
                       message="keeping the sound did not end")
    assert "error" not in outcome, outcome
    return outcome["index"]


def cached_sound_paths(driver):
    return sorted(driver.execute_async_script(
        "const done = arguments[0];"
        "caches.open('momentum-offline-v1').then((c) => c.keys())"
        ".then((keys) => done(keys.map((r) => new URL(r.url).pathname).filter((p) => p.startsWith('/offline/audio/'))));"))


def fetch_kept(driver, path, range_header=None):
    """Fetches `path` from the page: status, headers that matter, size and first four bytes."""
    return driver.execute_async_script(
        "const [path, range, done] = arguments;"
        "fetch(path, range ? { headers: { Range: range } } : {}).then(async (r) => {"
        "  const bytes = new Uint8Array(await r.arrayBuffer());"
        "  done({ status: r.status, range: r.headers.get('Content-Range'), type: r.headers.get('Content-Type'),"
        "         size: bytes.length, head: String.fromCharCode(...bytes.slice(0, 4)) });"
        "}, (e) => done({ error: String(e) }));", path, range_header)


def offline(driver, on):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_kept_sound_plays_offline_and_keeps_within_the_budget_set_in_settings(server, browser):
    status, saved = server.api("POST", "/meditation/presets", SIT)
    assert status == 201, saved
    status, answer = server.api("POST", "/meditation/presets", OPEN)
    assert status == 201, answer
    open_app(browser, server, "meditate")
    keep_offline(browser, 3)
    open_app(browser, server, "meditate")
    wait_for(browser, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=15,
             message="the service worker never took the page")
    index = refreshed(browser)
    assert isinstance(index, dict), index
    states = {entry["key"]: entry for entry in index["practices"]}
    sit_key = f"sit.{saved['id']}"
    assert states[sit_key]["state"] == "kept" and states[sit_key]["bytes"] > 1000, states[sit_key]
    assert states[f"sit.{answer['id']}"]["state"] == "openEnded"
    assert {entry["kind"] for entry in index["practices"]} == {"meditation", "breathing", "workout"}
    assert index["budgetMB"] == 3
    kept_bytes = sum(entry["bytes"] for entry in index["practices"] if entry["state"] == "kept")
    assert kept_bytes <= 3_000_000 and any(entry["state"] == "overBudget" for entry in index["practices"])
    assert cached_sound_paths(browser) == sorted(
        f"/offline/audio/{entry['key']}" for entry in index["practices"] if entry["state"] == "kept")
    size = states[sit_key]["bytes"]

    # The network gone: the service worker answers from what is kept.
    offline(browser, True)
    allow_console(browser, r"Failed to load resource: net::ERR_INTERNET_DISCONNECTED")
    path = f"/offline/audio/{sit_key}"
    whole = fetch_kept(browser, path)
    assert whole == {"status": 200, "range": None, "type": "audio/flac", "size": size, "head": "fLaC"}, whole
    first = fetch_kept(browser, path, "bytes=0-3")
    assert first == {"status": 206, "range": f"bytes 0-3/{size}", "type": "audio/flac", "size": 4, "head": "fLaC"}
    tail = fetch_kept(browser, path, "bytes=-100")
    assert (tail["status"], tail["range"], tail["size"]) == (206, f"bytes {size - 100}-{size - 1}/{size}", 100)
    open_end = fetch_kept(browser, path, f"bytes={size - 10}-")
    assert (open_end["status"], open_end["size"]) == (206, 10)
    outside = fetch_kept(browser, path, f"bytes={size}-")
    assert (outside["status"], outside["range"]) == (416, f"bytes */{size}")
    allow_console(browser, r"/offline/audio/\S+ - Failed to load resource: the server responded with a status of 4\d\d")
    assert fetch_kept(browser, "/offline/audio/sit.nothing")["status"] == 404
    # Not a single range (B before A, several): the whole file, as RFC 9110 says.
    for header in ("bytes=5-2", "bytes=0-1,4-5", "items=0-3"):
        assert fetch_kept(browser, path, header)["status"] == 200, header

    # The budget lowered with the server out of reach is applied to what is kept.
    lowered = browser.execute_async_script(
        "const done = arguments[0];"
        "import('/js/offline-store.js').then((m) => m.setBudgetMB(2)).then(done, (e) => done(String(e)));")
    assert lowered["unreached"] is True and lowered["budgetMB"] == 2, lowered
    assert sum(entry["bytes"] for entry in lowered["practices"] if entry["state"] == "kept") <= 2_000_000
    assert cached_sound_paths(browser) == sorted(
        f"/offline/audio/{entry['key']}" for entry in lowered["practices"] if entry["state"] == "kept")
    assert [entry["key"] for entry in lowered["practices"]] == [entry["key"] for entry in index["practices"]]

    # An <audio> element plays it, offline: the sit's five minutes and the end gong's ring-out.
    duration = browser.execute_async_script(
        "const [src, done] = arguments; const audio = new Audio(); audio.muted = true;"
        "audio.addEventListener('loadedmetadata', () => audio.play().then(() => {"
        "  setTimeout(() => done({ duration: audio.duration, time: audio.currentTime, paused: audio.paused }), 600);"
        "}, (e) => done({ error: String(e) })));"
        "audio.addEventListener('error', () => done({ error: String(audio.error && audio.error.message) }));"
        "audio.src = src;", path)
    assert "error" not in duration, duration
    assert 300 <= duration["duration"] <= 330, duration
    assert duration["time"] > 0.2 and not duration["paused"], duration
    offline(browser, False)

    # Settings → Offline: the budget, what is kept, and what does not fit. Lowered, it is kept to
    # at once, from the sizes already known (nothing is fetched again).
    set_size(browser, 390, 844)
    everything = kept_bytes
    assert everything > 1_000_000, everything  # more than the budget below
    open_app(browser, server, "settings")
    refreshed(browser)  # the page's own refresh, which draws the list again
    budget = wait_for(browser, lambda d: d.find_element(By.ID, "o-budget"))
    assert budget.get_attribute("value") == "2"
    budget.clear()
    budget.send_keys("1.5")
    browser.find_element(By.ID, "o-save").click()
    error = wait_for(browser, lambda d: d.find_element(By.ID, "o-budget-error"))
    assert error.is_displayed() and error.text == "Enter a whole number of MB from 0 to 10000."
    assert kept(browser)["budgetMB"] == 2

    budget.clear()
    budget.send_keys("1")
    browser.find_element(By.ID, "o-save").click()
    wait_for(browser, lambda d: (kept(d) or {}).get("budgetMB") == 1, timeout=300, message="the budget was not applied")
    index = kept(browser)
    kept_bytes = sum(entry["bytes"] for entry in index["practices"] if entry["state"] == "kept")
    assert 0 < kept_bytes <= 1_000_000, kept_bytes
    over = [entry for entry in index["practices"] if entry["state"] == "overBudget"]
    assert over, index["practices"]
    assert cached_sound_paths(browser) == sorted(
        f"/offline/audio/{entry['key']}" for entry in index["practices"] if entry["state"] == "kept")
    used = wait_for(browser, lambda d: d.find_element(By.ID, "o-used") if "of 1 MB used" in d.find_element(By.ID, "o-used").text else None)
    assert used.text.startswith(f"{round(kept_bytes / 1e6, 1):g} MB of 1 MB used, updated ")
    rows = browser.find_elements(By.CSS_SELECTOR, "#o-list li")
    assert len(rows) == len(index["practices"])
    # One kept at 2 MB that no longer fits says its size; one given up at its first bytes, not.
    assert any(re.search(r"not kept: [0-9.]+ MB, more than the space left", row.text) for row in rows)
    assert any("not kept: larger than the space left" in row.text for row in rows)
    assert axe_violations(browser) == []
    browser.execute_script("document.getElementById('o-offline').scrollIntoView()")
    shot(browser, "settings-offline-390")

    # 0 keeps nothing at all.
    budget = browser.find_element(By.ID, "o-budget")
    budget.clear()
    budget.send_keys("0")
    browser.find_element(By.ID, "o-save").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "o-used").text.startswith("Nothing is kept"), timeout=15)
    assert cached_sound_paths(browser) == []
    assert not browser.find_elements(By.ID, "o-list")
