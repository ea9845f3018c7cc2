"""People on the web (issue 26): a pairing link signs a browser in once (and leaves no code in the
address bar); the server's own screen asks whose practice it is, a PIN-locked profile needs its
PIN; Settings → People adds a person and shows a device's pairing code as a QR code that decodes
to its link; axe finds nothing serious on these screens at 360 and 1280 px, light and dark."""
import re
import shutil
import subprocess

import pytest
from selenium.webdriver.common.by import By

from conftest import (DESKTOP, PHONE, allow_console, axe_violations, go, momentum_bin, open_app, set_color_scheme,
                      set_size, shot, tap, wait_for)

USED_CODE = "This pairing code cannot be used: it was used already or is older than 10 minutes. Ask for a new one."


def cli(server, *arguments):
    """Runs `momentum …` on the server's data directory (as a person at its terminal would)."""
    done = subprocess.run([momentum_bin(), *arguments, "--data", str(server.data_dir)],
                          capture_output=True, text=True, env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, (arguments, done.stdout, done.stderr)
    return done.stdout


def pairing_link(server, name):
    printed = cli(server, "pair", "--user", name, "--address", server.url)
    link = re.search(r"http://\S+/pair\.html#[0-9A-Z-]+", printed)
    assert link, printed
    return link.group(0)


def session_of(driver):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/v1/session', {credentials: 'same-origin'}).then((r) => r.json()).then(done, (e) => done(String(e)));")


def people_seen_by(driver):
    """GET /api/v1/people as the browser's person."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/v1/people').then((r) => r.json()).then((b) => done(b.people || []), () => done([]));")


def axe_everywhere(browser, name, before=None):
    """axe at 360 and 1280 px, light and dark (`before()` after each resize); a screenshot of each."""
    try:
        for width, height in (PHONE, DESKTOP):
            set_size(browser, width, height)
            if before:
                before()
            for scheme in ("light", "dark"):
                set_color_scheme(browser, scheme)
                assert axe_violations(browser) == [], (name, width, scheme)
                shot(browser, f"people/{name}-{width}-{scheme}")
    finally:
        set_color_scheme(browser, "light")
        set_size(browser, *DESKTOP)


def test_a_pairing_link_signs_a_browser_in_once(guarded_server, browser, second_browser):
    server = guarded_server
    cli(server, "user", "add", "Anna")
    link = pairing_link(server, "Anna")

    browser.get(link)
    status = wait_for(browser, lambda d: (e := d.find_element(By.ID, "pair-status")).text.startswith("Signed in") and e,
                      message="the pairing link did not sign the browser in")
    assert status.text.startswith("Signed in as Anna."), status.text
    assert "#" not in browser.current_url, "the code stayed in the address bar"
    shot(browser, "people/pair-signed-in")
    # The app opens by itself, as Anna.
    wait_for(browser, lambda d: d.current_url.rstrip("/") == server.url and d.execute_script(
        "const v = document.getElementById('view-meditate'); return v && v.querySelector('h1');"),
        timeout=15, message="the app did not open after pairing")
    session = session_of(browser)
    assert session["person"]["name"] == "Anna" and session["access"] == "cookie", session
    settings = go(browser, "settings")
    who = wait_for(browser, lambda d: d.find_element(By.ID, "s-who"))
    assert who.text == "Signed in as Anna."
    # A member sees their own devices only: the one just paired.
    people = wait_for(browser, lambda d: d.find_element(By.ID, "p-people"))
    assert people.find_element(By.ID, "p-title").text == "Your devices"
    assert "Paired device" in people.text and "last used" in people.text, people.text
    assert "Add a device" in people.text
    assert settings.find_element(By.ID, "s-sign-out").text == "Sign out"

    # This page was opened at 127.0.0.1, which a phone would open as itself: the server listens
    # on every address, so the new link names this machine's network address (issue 40).
    anna = next(p for p in people_seen_by(browser) if p["name"] == "Anna")
    tap(browser, f"p-{anna['id']}-pair")
    dialog = wait_for(browser, lambda d: (e := d.find_element(By.ID, "pair-dialog")).is_displayed() and e)
    phone_link = browser.find_element(By.ID, "pair-link").get_attribute("value")
    assert not re.match(r"http://(127\.|localhost|\[::1\])", phone_link), phone_link
    if dialog.find_elements(By.ID, "pair-qr"):
        assert re.fullmatch(r"http://[^/]+:" + server.url.rsplit(":", 1)[1] + r"/pair\.html#[0-9A-Z-]+", phone_link), phone_link
        decoded = decoded_qr(shot(browser, "people/pair-dialog-network-address"))
        if decoded is not None:
            assert decoded == phone_link, decoded
    else:  # a machine without a network address says so instead of showing a code
        assert dialog.find_element(By.ID, "pair-notice").text.startswith("This machine has no network address")
    browser.find_element(By.ID, "pair-close").click()

    # The same link once more, in another browser: refused with the catalog's sentence, and a
    # field for a new code.
    allow_console(second_browser, r"/pair - Failed to load resource.* 422")
    second_browser.get(link)
    error = wait_for(second_browser, lambda d: (e := d.find_element(By.ID, "pair-error")).is_displayed() and e,
                     message="a spent code was not refused")
    assert error.text == USED_CODE, error.text
    assert "#" not in second_browser.current_url
    code = second_browser.find_element(By.ID, "pair-code")
    assert second_browser.switch_to.active_element == code
    assert code.get_attribute("aria-invalid") == "true"
    status, body = server.api("GET", "/session")
    assert status == 200 and body["person"]["name"] != "Anna"  # the test's token is the owner's
    axe_everywhere(second_browser, "pair-refused")

    # The login page points to the pairing page.
    allow_console(second_browser, r"401 \(Unauthorized\)")
    second_browser.get(f"{server.url}/login.html")
    link_to_pair = wait_for(second_browser, lambda d: d.find_element(By.ID, "login-pair-link"))
    assert link_to_pair.get_attribute("href").endswith("/pair.html")


def test_the_servers_own_screen_asks_whose_practice_it_is(server, browser):
    cli(server, "user", "add", "Ben")
    cli(server, "user", "add", "Carla")
    cli(server, "user", "pin", "Carla", "2468")
    status, body = server.api("GET", "/settings")
    assert status == 401 and body["error"]["code"] == "choose_person", body
    allow_console(browser, r"401 \(Unauthorized\)|/api/v1/live' failed")
    allow_console(browser, r"/api/v1/profiles/choose - Failed to load resource")

    browser.get(f"{server.url}/#progress")
    wait_for(browser, lambda d: d.current_url.endswith("/login.html#choose"), message="no profile picker")
    buttons = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#profile-list button") or None)
    names = [b.find_element(By.CLASS_NAME, "profile-name").text for b in buttons]
    assert names[1:] == ["Ben", "Carla"], names
    carla = buttons[2]
    assert carla.get_attribute("aria-label") == "Carla, locked with a PIN"
    assert browser.switch_to.active_element == buttons[0]
    axe_everywhere(browser, "picker")

    carla.click()
    pin = wait_for(browser, lambda d: (e := d.find_element(By.ID, "pin-field")).is_displayed() and e)
    assert pin.get_attribute("inputmode") == "numeric"
    assert browser.switch_to.active_element == pin
    pin.send_keys("1111")
    pin.submit()
    error = wait_for(browser, lambda d: (e := d.find_element(By.ID, "pin-error")).is_displayed() and e)
    assert error.text == "That PIN is not right.", error.text
    assert pin.get_attribute("aria-invalid") == "true"
    axe_everywhere(browser, "picker-wrong-pin")

    pin.clear()
    pin.send_keys("2468")
    pin.submit()
    # Back where the app was, as Carla.
    wait_for(browser, lambda d: d.current_url.endswith("/#progress") and d.execute_script(
        "const v = document.getElementById('view-progress'); return v && !v.hidden && v.querySelector('h1');"),
        message="the right PIN did not open the app where it was")
    assert session_of(browser)["person"]["name"] == "Carla"
    assert session_of(browser)["access"] == "profile"
    go(browser, "settings")
    assert wait_for(browser, lambda d: d.find_element(By.ID, "s-who")).text == "Signed in as Carla."
    switch = wait_for(browser, lambda d: d.find_element(By.ID, "s-sign-out"))
    assert switch.text == "Switch person"
    tap(browser, "s-sign-out")
    wait_for(browser, lambda d: d.current_url.endswith("/login.html#choose")
             and d.find_elements(By.CSS_SELECTOR, "#profile-list button"), message="Switch person did not go back to the picker")
    # Ben has no PIN: one tap.
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#profile-list button"))[1].click()
    wait_for(browser, lambda d: not d.current_url.endswith("login.html#choose") and d.execute_script(
        "const v = document.querySelector('.view:not([hidden])'); return v && v.querySelector('h1');"))
    assert session_of(browser)["person"]["name"] == "Ben"


def decoded_qr(path):
    zbarimg = shutil.which("zbarimg")
    if not zbarimg:
        return None
    done = subprocess.run([zbarimg, "--quiet", "--raw", str(path)], capture_output=True, text=True)
    return done.stdout.strip()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_an_owner_adds_a_person_and_pairs_their_phone(server, browser, scheme):
    allow_console(browser, r"/api/v1/people - Failed to load resource.* 409")
    set_color_scheme(browser, scheme)
    open_app(browser, server, "settings")
    people = wait_for(browser, lambda d: d.find_element(By.ID, "p-people"))
    assert people.find_element(By.ID, "p-title").text == "People"
    assert not browser.find_elements(By.ID, "s-who"), "one person: no need to say who"

    # A name already taken is refused under the field.
    owner = server.get("/people")["people"][0]["name"]
    name = browser.find_element(By.ID, "p-new-name")
    name.send_keys(owner)
    tap(browser, "p-new-submit")
    message = wait_for(browser, lambda d: (e := d.find_element(By.ID, "p-new-name-error")).is_displayed() and e)
    assert message.text, "no sentence under the name"
    assert name.get_attribute("aria-invalid") == "true"

    name = browser.find_element(By.ID, "p-new-name")
    name.clear()
    name.send_keys("Dora")
    tap(browser, "p-new-submit")
    pair = wait_for(browser, lambda d: (e := d.switch_to.active_element).text == "Add a device for Dora" and e,
                    message="focus did not go to Dora's Add a device")
    dora = next(p for p in people_seen_by(browser) if p["name"] == "Dora")
    assert pair.get_attribute("id") == f"p-{dora['id']}-pair"
    assert browser.find_element(By.ID, "s-who").text.startswith("Signed in as")

    set_size(browser, *PHONE)
    tap(browser, f"p-{dora['id']}-pair")
    dialog = wait_for(browser, lambda d: (e := d.find_element(By.ID, "pair-dialog")).is_displayed() and e)
    # This server listens on loopback only: no QR code a phone could not open, but why and what
    # to change; the link still serves another browser of this machine (issue 40).
    assert not dialog.find_elements(By.ID, "pair-qr")
    notice = dialog.find_element(By.ID, "pair-notice")
    assert notice.text.startswith("A phone cannot open this link: the server listens on this machine only"), notice.text
    assert "momentum serve --host 0.0.0.0" in notice.text
    link = browser.find_element(By.ID, "pair-link").get_attribute("value")
    assert re.fullmatch(re.escape(server.url) + r"/pair\.html#[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", link), link
    assert browser.find_element(By.ID, "pair-code-text").text == link.split("#")[1]
    assert re.fullmatch(r"It works once, until \d{1,2}:\d\d( [AP]M)?\.", browser.find_element(By.ID, "pair-expires").text)
    shot(browser, f"people/pair-dialog-{scheme}")
    assert axe_violations(browser) == []
    browser.find_element(By.ID, "pair-close").click()
    wait_for(browser, lambda d: not d.find_elements(By.ID, "pair-dialog"))
    set_size(browser, *DESKTOP)

    # Two people now: an API client without a chosen profile must choose, but this screen stayed
    # the owner's who added Dora.
    status, _ = server.api("GET", "/session")
    assert status == 401
    assert session_of(browser)["access"] == "profile"
    set_color_scheme(browser, "light")


def test_settings_people_passes_axe_as_owner_with_devices(server, browser, second_browser):
    cli(server, "user", "add", "Emil", "--lang", "de")
    cli(server, "user", "pin", "Emil", "1357")
    link = pairing_link(server, "Emil")
    second_browser.get(link)
    wait_for(second_browser, lambda d: d.find_element(By.ID, "pair-status").text.startswith("Signed in"))
    allow_console(browser, r"401 \(Unauthorized\)|/api/v1/live' failed")
    # Emil's phone is signed out below, while its app may still be asking the server: on loopback a
    # browser without a sign-in is asked whose practice it is (choose_person), and a screen that was
    # restoring (the sit's running run) reports that answer.
    allow_console(second_browser,
                  r"401 \(Unauthorized\)|/api/v1/live' failed|ApiError: Wähle zuerst, wessen Übungen das sind\.")
    browser.get(f"{server.url}/#settings")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#profile-list button"))[0].click()
    people = wait_for(browser, lambda d: d.find_element(By.ID, "p-people"))
    emil = next(p for p in people_seen_by(browser) if p["name"] == "Emil")
    assert "PIN on the server's screen" in people.text
    devices = [d for d in emil["devices"] if d["kind"] == "paired"]
    assert devices and devices[0]["lastUsedText"], emil
    assert f"last used {devices[0]['lastUsedText']}" in people.text

    def open_manage():
        browser.execute_script(
            "const s = document.getElementById(arguments[0]); s.parentElement.open = true;"
            "document.getElementById('p-people').scrollIntoView({block: 'start'});", f"p-{emil['id']}-manage")
    axe_everywhere(browser, "settings-people", before=open_manage)

    # Ending Emil's paired device signs that browser out.
    tap(browser, f"p-{emil['id']}-end-{devices[0]['id']}")
    wait_for(browser, lambda d: d.find_element(By.ID, "confirm-yes")).click()
    wait_for(browser, lambda d: not d.find_elements(By.ID, f"p-{emil['id']}-end-{devices[0]['id']}"),
             message="the ended device still shows")

    # Removing Emil asks for the name.
    open_manage()
    tap(browser, f"p-{emil['id']}-remove")
    typed = wait_for(browser, lambda d: d.find_element(By.ID, "remove-name"))
    typed.send_keys("emi")
    browser.find_element(By.ID, "remove-yes").click()
    assert wait_for(browser, lambda d: d.find_element(By.ID, "remove-name-error")).text == "Type Emil exactly to remove them."
    typed.clear()
    typed.send_keys("Emil")
    browser.find_element(By.ID, "remove-yes").click()
    wait_for(browser, lambda d: not d.find_elements(By.ID, f"p-{emil['id']}-pair"), message="Emil still shows")
