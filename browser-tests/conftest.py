"""Shared fixtures and helpers for the browser tests.

Every test gets its own `momentum serve` (fresh data directory, free port) and its own headless
Chromium. Real server, real HTTP, real browser: nothing is mocked.

Environment:
  MOMENTUM_BIN         the momentum binary (required)
  MOMENTUM_ARTIFACTS   folder for screenshots (default: browser-artifacts/ at the repo top)
  MOMENTUM_PUBLIC_DIR  optional: serve the UI files from this folder (passed through)
  MOMENTUM_BROWSER_TZ  optional: the time zone of the servers and browsers (default: a whole-hour
                       zone where it is now about noon, see `a_zone_near_noon`)
"""
import datetime
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait



def a_zone_near_noon(now):
    """A whole-hour time zone (tzdata's `Etc/GMT±N`, whose sign is POSIX's: west is +) in which
    the UTC instant `now` is between 11:30 and 12:30. The tests log practice minutes before "now"
    and read back today's and yesterday's days; in a zone where it is just past midnight, a sit of
    35 minutes ago is yesterday's and the test fails for the first half hour of every day."""
    hours_east = 12 - round(now.hour + now.minute / 60)  # -12 … +12, all of them real zones
    return f"Etc/GMT{-hours_east:+d}"


# Servers and Chromium inherit it (both read TZ), and Python's own local time follows.
os.environ["TZ"] = os.environ.get("MOMENTUM_BROWSER_TZ") or a_zone_near_noon(datetime.datetime.now(datetime.timezone.utc))
time.tzset()

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("MOMENTUM_ARTIFACTS") or REPO / "browser-artifacts")
PHONE = (360, 740)
DESKTOP = (1280, 800)


# ---------------------------------------------------------------------------------------------
# The server


class Server:
    """A running `momentum serve`: its base URL, its data directory and a small JSON client."""

    def __init__(self, url, data_dir, process, log_path, token=None):
        self.url = url
        self.data_dir = data_dir
        self.process = process
        self.log_path = log_path
        self.token = token  # off loopback: the access token the test made (sent as a bearer)

    def api(self, method, path, body=None, token=None):
        """Calls `/api/v1{path}` (with the server's token, if any); returns (status, JSON or None)."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token or self.token:
            headers["Authorization"] = f"Bearer {token or self.token}"
        request = urllib.request.Request(
            f"{self.url}/api/v1{path}", data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, json.loads(raw) if raw else None

    def get(self, path):
        """GET `/api/v1{path}` that must succeed; returns the JSON."""
        status, body = self.api("GET", path)
        assert status == 200, (path, status, body)
        return body

    def log(self):
        return Path(self.log_path).read_text(errors="replace")


def momentum_bin():
    path = os.environ.get("MOMENTUM_BIN")
    if not path:
        pytest.exit("MOMENTUM_BIN must name the momentum binary", returncode=2)
    if not os.access(path, os.X_OK):
        pytest.exit(f"MOMENTUM_BIN={path} is not an executable file", returncode=2)
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_health(url, process, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=1) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.05)  # polling interval while the server binds, not a wait for a result
    return False


def serves_the_ui(url):
    try:
        with urllib.request.urlopen(f"{url}/", timeout=5) as response:
            return b"<html" in response.read(4096).lower()
    except OSError:
        return False


def run_server(host="127.0.0.1", environment=None):
    """Starts `momentum serve` on a fresh data directory and a free port; yields the Server.
    Off loopback (`host` 0.0.0.0) it first makes an access token, as a person must, and the
    browser still reaches it at 127.0.0.1 — the bind address decides whether a token is needed.
    `environment` changes the server's environment (a PATH without espeak-ng, say)."""
    root = Path(tempfile.mkdtemp(prefix="momentum-bt-"))
    data_dir = root / "data"
    log_path = root / "serve.log"
    port = free_port()
    env = dict(os.environ)
    env.pop("MOMENTUM_HOME", None)  # --data decides; never touch a real home
    env.setdefault("LANG", "C.UTF-8")
    env.update(environment or {})
    token = None
    if host != "127.0.0.1":
        made = subprocess.run([momentum_bin(), "token", "create", "--name", "browser test", "--data", str(data_dir)],
                              env=env, capture_output=True, text=True, check=True)
        token = made.stdout.strip().splitlines()[-1]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [momentum_bin(), "serve", "--host", host, "--port", str(port), "--data", str(data_dir)],
            stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        if not wait_for_health(url, process):
            process.kill()
            pytest.fail(f"momentum serve did not answer /health:\n{log_path.read_text(errors='replace')}")
        if not serves_the_ui(url):
            pytest.fail("momentum serve has no UI files at / (the binary embeds them; "
                        "MOMENTUM_PUBLIC_DIR, when set, must name the Public folder)")
        yield Server(url, data_dir, process, log_path, token)
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("momentum serve did not exit within 5 s of SIGTERM")
        assert code == 0, f"momentum serve exited {code} after SIGTERM:\n{log_path.read_text(errors='replace')}"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def server():
    yield from run_server()


@pytest.fixture
def guarded_server():
    """A server bound off loopback: every API call needs the token (`guarded_server.token`)."""
    yield from run_server("0.0.0.0")


# ---------------------------------------------------------------------------------------------
# The browser


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture
def browser():
    yield from run_browser()


@pytest.fixture
def second_browser():
    """Another, independent Chromium (its own profile and cookies): a second device or window."""
    yield from run_browser()


def run_browser():
    options = Options()
    binary = chromium_binary()
    if binary:
        options.binary_location = binary
    options.add_argument("--headless=new")
    options.add_argument("--autoplay-policy=no-user-gesture-required")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--lang=en-US")  # the UI's language follows the browser's by default
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with the sandbox
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    # A run stopped while its sound is being sent ends that stream short, by design (the server
    # closes the connection before its Content-Length: docs/run-audio.md); the page drops the
    # element's source before it tells the server, but Chromium's media loader may still report
    # the cut request.
    driver.momentum_allowed_console = [
        re.compile(r"/api/v1/runs/[0-9a-f-]+/audio\S* - Failed to load resource: net::ERR_CONTENT_LENGTH_MISMATCH"),
        # Chromium's own favicon fetch, when a test navigates while the previous page's icon is on
        # its way, is made again from about:blank (origin null) and refused by Private Network
        # Access: no page of the app asks for it (CI rehearsal of stop 64, test_forms.py [de]).
        re.compile(r"^about:blank - Access to resource at '\S+/icon\.svg' from origin 'null' has been blocked"),
        re.compile(r"/icon\.svg - Failed to load resource: net::ERR_FAILED$")]
    # The first-visit welcome (issue 39) is shown once per browser; every test but the welcome's
    # own starts as a browser that has seen it (`welcome_again` forgets that).
    driver.momentum_welcome_seen = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "try { localStorage.setItem('momentum.welcomed', '1');"
                  " localStorage.setItem('momentum.morseIntro', '1'); } catch (e) {}"})["identifier"]
    # The sound kept for practising offline (js/offline-store.js) is fetched on every page load:
    # every test but its own starts with a budget of 0, so no test pays for rendering it
    # (test_offline_store.py removes this with `Page.removeScriptToEvaluateOnNewDocument`).
    driver.momentum_offline_off = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "try { localStorage.setItem('momentum.offlineBudgetMB', '0'); } catch (e) {}"})["identifier"]
    # Counts the page's requests still on their way, so a test's end can wait for them
    # (`pytest_runtest_call` below): the server stops at teardown, and a read the page started
    # just before would find it gone and be reported as a console error (CI stop 54).
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "(() => { const f = window.fetch; window.__momentumFetches = 0;"
                  " window.fetch = function (...a) { window.__momentumFetches += 1;"
                  " return f.apply(this, a).finally(() => { window.__momentumFetches -= 1; }); }; })();"})
    try:
        set_size(driver, *DESKTOP)
        yield driver
        problems = console_errors(driver) + missing_keys_problems(driver)
        if problems:
            shot(driver, f"failed-{os.environ.get('PYTEST_CURRENT_TEST', 'test').split(':')[-1].split(' ')[0]}")
            pytest.fail("the page reported problems:\n" + "\n".join(problems))
    finally:
        driver.quit()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """After a test's body, before its server stops: waits (a few seconds at most) until no page
    has a request on its way."""
    yield
    for driver in (item.funcargs.get(name) for name in ("browser", "second_browser")):
        if driver is None:
            continue
        try:
            WebDriverWait(driver, 5, poll_frequency=0.05).until(
                lambda d: not d.execute_script("return window.__momentumFetches || 0"))
        except Exception:  # a page that never settles is the test's own finding, reported at teardown
            pass


def allow_console(driver, pattern):
    """Declares a SEVERE console message the test provokes on purpose (a regex), e.g. the
    browser's own "Failed to load resource … 422" line for a request that must be refused."""
    driver.momentum_allowed_console.append(re.compile(pattern))


def console_errors(driver):
    """SEVERE console messages since the last call, minus the ones the test allowed."""
    return [
        f"console: {entry['message']}"
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE"
        and not any(p.search(entry["message"]) for p in driver.momentum_allowed_console)
    ]


def missing_keys(driver):
    """Catalog keys the current page asked for and did not find (None off the app)."""
    return driver.execute_script(
        "return window.momentumI18n ? window.momentumI18n.missingKeys() : null")


def missing_keys_problems(driver):
    keys = missing_keys(driver)
    return [f"catalog keys missing: {keys}"] if keys else []


# ---------------------------------------------------------------------------------------------
# Helpers for tests


def shot(driver, name):
    """Saves a PNG of the viewport as ARTIFACTS/name.png; returns its path."""
    path = ARTIFACTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    return path


def wait_for(driver, predicate, timeout=10, message=""):
    """Waits until predicate(driver) is truthy and returns its value.

    The screens re-render while a test polls, so an element found a moment ago may be gone:
    that counts as "not yet", never as a failure."""
    return WebDriverWait(driver, timeout, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,
                                             NoSuchElementException)).until(predicate, message)


def set_size(driver, width, height):
    """Makes the viewport exactly width×height CSS pixels (a phone below 720 px, as a phone)."""
    driver.set_window_size(width, height)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 720})


def set_color_scheme(driver, scheme):
    """Emulates prefers-color-scheme: 'light' or 'dark'."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": scheme}]})


_AXE_SOURCE = None


def axe_violations(driver):
    """axe-core's serious and critical violations on the current page, as compact dicts."""
    global _AXE_SOURCE
    if _AXE_SOURCE is None:
        from axe_selenium_python import Axe
        with open(Axe(driver).script_url, encoding="utf8") as f:
            _AXE_SOURCE = f.read()
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(_AXE_SOURCE)
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document).then(done, (e) => done({error: String(e)}));")
    assert "error" not in results, results
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"],
         "targets": [" ".join(map(str, n["target"])) for n in v["nodes"]][:5]}
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


# Records every notification the page constructs; the real one is still made (it throws if the
# browser refuses, and then nothing is recorded).
RECORD_NOTIFICATIONS = """
window.__notifications = [];
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options = {}) {
    super(title, options);
    window.__notifications.push({title, body: options.body, tag: options.tag});
  }
};
"""


def allow_notifications(driver, server):
    """Grants the app notifications and records each one it shows from the next page load on."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["notifications"], "origin": server.url})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_NOTIFICATIONS})


def recorded_notifications(driver):
    """The notifications shown so far: `{title, body, tag}` each."""
    return driver.execute_script("return window.__notifications")


def open_app(driver, server, section="meditate"):
    """Loads the app at #section and waits until the section has rendered its heading."""
    driver.get(f"{server.url}/#{section}")
    return wait_for(driver, lambda d: d.execute_script(
        "const v = document.getElementById(arguments[0]);"
        "return v && !v.hidden && v.querySelector('h1') ? v : null;", f"view-{section}"),
        message=f"section {section} did not render")


def go(driver, section):
    """Switches section through the navigation, as a person clicks it."""
    link = driver.find_element("css selector", f'nav.tabs a[data-route="{section}"]')
    # On a phone the Settings gear steps aside while the page is scrolled down; a person scrolls
    # up to reach it (axe's contrast checks leave the page scrolled).
    driver.execute_script("window.scrollTo(0, 0)")
    # The gear comes back once the page is at the top (the scroll event comes a moment later).
    wait_for(driver, lambda d: not d.execute_script("return document.body.classList.contains('scrolled')"))
    behind_practice = driver.find_elements("css selector", f'#practice-switch a[data-route="{section}"]')
    if not behind_practice:
        # Not behind the Practice tab (Settings' gear on a phone): it shows once it has stepped
        # back in, which takes a moment after the scroll.
        wait_for(driver, lambda d: link.is_displayed(), message=f"the {section} link did not show")
        link.click()
    elif link.is_displayed():
        link.click()
    else:
        # A phone: Library, Breathe and Workout are behind the Practice tab, in its switch row.
        switch = driver.find_element("css selector", f'#practice-switch a[data-route="{section}"]')
        if not switch.is_displayed():
            driver.find_element("css selector", 'nav.tabs a[data-route="meditate"]').click()
            wait_for(driver, lambda d: switch.is_displayed(), message="the practice switch did not show")
        switch.click()
    return wait_for(driver, lambda d: d.execute_script(
        "const v = document.getElementById(arguments[0]);"
        "return v && !v.hidden && v.querySelector('h1') ? v : null;", f"view-{section}"),
        message=f"section {section} did not render")


def meditate_options(driver):
    """Opens Meditate's "More options" (countdown, gongs, reflection, ambient) as a person would."""
    details = wait_for(driver, lambda d: d.find_element("id", "m-options"))
    if not details.get_attribute("open"):
        summary = details.find_element("css selector", "summary")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", summary)
        summary.click()
        wait_for(driver, lambda d: d.find_element("id", "m-options").get_attribute("open") is not None)
    return details


def tap(driver, element_id):
    """Clicks a button as a person on a phone does: scrolled clear of the tab bar first."""
    button = wait_for(driver, lambda d: d.find_element("id", element_id), message=f"no #{element_id}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()


def stop_practice(driver, stop_id, answer="stop-keep"):
    """Taps a practice's Stop and answers its one question (issue 39: Stop asks once) with
    `answer`: `stop-keep` (stop, and keep an early stop in the log), `stop-discard` or
    `stop-cancel` (keep going). Returns the question's text."""
    tap(driver, stop_id)
    dialog = wait_for(driver, lambda d: d.find_element("id", "confirm-dialog"), message="Stop did not ask")
    question = dialog.find_element("id", "confirm-text").text
    driver.find_element("id", answer).click()
    wait_for(driver, lambda d: not d.find_elements("id", "confirm-dialog"), message="the question stayed")
    return question


def welcome_again(driver):
    """Makes `driver` a browser that has never seen the welcome nor Morse's introduction (see
    run_browser)."""
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                           {"identifier": driver.momentum_welcome_seen})
