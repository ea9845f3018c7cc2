"""Practices played away from the server (issue 43, docs/offline.md): a run report kept on the
device (IndexedDB) while the server is out of reach is shown as waiting, sent when the connection
is back and logged exactly once — also when it is sent again or the page is reloaded in between;
one the server refuses stays on the device with the server's reason until the person removes it."""
import datetime
import uuid

from selenium.webdriver.common.by import By

from conftest import allow_console, axe_violations, open_app, set_size, shot, wait_for


def instant(delta):
    moment = datetime.datetime.now(datetime.timezone.utc) + delta
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def report(started, minutes_played, report_id=None):
    """A 10-minute sit reported as stopped after `minutes_played` minutes."""
    return {
        "id": report_id or str(uuid.uuid4()),
        "practice": {"kind": "meditation", "meditation": {"durationMs": 600000, "countdownMs": 0}},
        "steps": [{"action": "start", "at": instant(started)},
                  {"action": "stop", "at": instant(started + datetime.timedelta(minutes=minutes_played))}],
    }


def offline(driver, on):
    # A report tried while the network is down fails to load, which the browser logs.
    allow_console(driver, r"/api/v1/runs/reports - Failed to load resource: net::ERR_INTERNET_DISCONNECTED")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def keep(driver, body, name):
    """Keeps a report on the device, as the page does when a practice played offline ends."""
    driver.execute_async_script(
        "const [body, name, done] = arguments;"
        "import('/js/outbox.js').then((m) => m.keep(body, name)).then(() => done(true), (e) => done(String(e)));",
        body, name)


def logged_ids(server):
    answer = server.get("/log")
    entries = answer["records"] if isinstance(answer, dict) else answer
    return [entry["id"].lower() for entry in entries]


def test_a_practice_kept_offline_is_logged_once_when_the_connection_is_back(server, browser):
    set_size(browser, 390, 844)
    open_app(browser, server, "progress")
    sit = report(datetime.timedelta(hours=-3), 6)

    offline(browser, True)
    keep(browser, sit, "Evening sit")
    # Read as it is found: the line is drawn again when the sending that keeping starts ends.
    line = wait_for(browser, lambda d: d.execute_script(
        "return document.getElementById('offline-waiting-count')?.textContent"),
        message="no line says a practice is waiting")
    assert line == "1 practice waiting to be saved."
    assert logged_ids(server) == []
    shot(browser, "offline-waiting-390")

    # The page is reloaded while the report waits: it is still on the device.
    offline(browser, False)
    open_app(browser, server, "progress")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "offline-waiting"), timeout=15,
             message="the waiting line stayed after the report was sent")
    assert logged_ids(server) == [sit["id"]]

    # The same report again (an answer lost on the way): still one record.
    keep(browser, sit, "Evening sit")
    wait_for(browser, lambda d: not d.find_elements(By.ID, "offline-waiting"), timeout=15)
    assert logged_ids(server) == [sit["id"]]


def test_a_report_sent_when_the_browser_comes_back_online(server, browser):
    open_app(browser, server, "meditate")
    offline(browser, True)
    first = report(datetime.timedelta(hours=-5), 4)
    second = report(datetime.timedelta(hours=-4), 10)
    keep(browser, first, "Morning")
    keep(browser, second, "Noon")
    line = wait_for(browser, lambda d: d.execute_script(
        "const line = document.getElementById('offline-waiting-count')?.textContent;"
        "return line && line.startsWith('2') ? line : null;"))
    assert line == "2 practices waiting to be saved."
    offline(browser, False)
    wait_for(browser, lambda d: not d.find_elements(By.ID, "offline-waiting"), timeout=15,
             message="the reports were not sent when the browser came back online")
    assert sorted(logged_ids(server)) == sorted([first["id"], second["id"]])


def test_a_refused_report_stays_with_the_reason_until_removed(server, browser):
    set_size(browser, 320, 700)
    allow_console(browser, r"/api/v1/runs/reports - Failed to load resource: .* 422")
    open_app(browser, server, "progress")
    # Played two months ago: older than a report may be.
    stale = report(datetime.timedelta(days=-60), 8)
    keep(browser, stale, "Retreat sit")
    refused = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#offline-waiting .offline-refused"),
                       message="a refused report was not shown")
    assert refused.text.startswith("Not saved — Retreat sit: This practice was played more than 30 days ago")
    assert not browser.find_elements(By.ID, "offline-waiting-count")
    shot(browser, "offline-refused-320")
    assert not axe_violations(browser)
    # Reloaded, it is still there: nothing is dropped silently.
    open_app(browser, server, "progress")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#offline-waiting .offline-refused"))
    browser.find_element(By.CSS_SELECTOR, "#offline-waiting .offline-refused button").click()
    wait_for(browser, lambda d: not d.find_elements(By.ID, "offline-waiting"))
    assert logged_ids(server) == []


def test_a_practice_whose_page_closed_offline_is_reported_stopped_when_last_seen(server, browser):
    """A page closed (or killed) while a practice played offline leaves the practice's steps on the
    device (js/local-runs.js); the next page reports it as stopped when the page was last seen."""
    open_app(browser, server, "progress")
    run_id = str(uuid.uuid4())
    left = {run_id: {
        "key": "sit.evening", "name": "Evening sit",
        "practice": {"kind": "meditation", "meditation": {"durationMs": 600000, "countdownMs": 0}},
        "steps": [{"action": "start", "at": instant(datetime.timedelta(minutes=-9))}],
        "seenAt": instant(datetime.timedelta(minutes=-5)),
    }}
    # Another tab plays one: it holds the run's lock, so it is left alone however long ago its
    # page was seen (a hidden tab's heartbeat may be slowed to once a minute). (The first is kept
    # as the page kept runs before v17, all in one key; the second as since, a key each.)
    playing = str(uuid.uuid4())
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    open_app(browser, server, "progress")
    browser.execute_script("navigator.locks.request('momentum.localRun.' + arguments[0], () => new Promise(() => {}))",
                           playing)
    wait_for(browser, lambda d: d.execute_script(
        "return navigator.locks.query().then((s) => s.held.map((l) => l.name))") == [f"momentum.localRun.{playing}"])
    other = browser.current_window_handle
    browser.execute_script("localStorage.setItem('momentum.localRuns', JSON.stringify(arguments[0]))", left)
    browser.execute_script("localStorage.setItem('momentum.localRun.' + arguments[0], JSON.stringify(arguments[1]))",
                           playing, {**left[run_id], "seenAt": instant(datetime.timedelta(minutes=-3))})
    browser.switch_to.window(first)
    browser.refresh()  # the next page
    wait_for(browser, lambda d: logged_ids(server) == [run_id], timeout=15,
             message="the practice left behind was not logged")
    record = server.get("/log")
    record = (record["records"] if isinstance(record, dict) else record)[0]
    assert record["countedSeconds"] == 240, record  # from its start to when the page was last seen
    assert record["details"].get("stoppedEarly") == "true"
    remaining = browser.execute_script(
        "return Object.keys(localStorage).filter((k) => k.startsWith('momentum.localRun'))")
    assert remaining == [f"momentum.localRun.{playing}"], remaining

    # The other tab is closed (or killed): its lock goes, and the open page reports its run too.
    browser.switch_to.window(other)
    browser.close()
    browser.switch_to.window(first)
    wait_for(browser, lambda d: sorted(logged_ids(server)) == sorted([run_id, playing]), timeout=40,
             message="the run of the closed tab was not reported")
