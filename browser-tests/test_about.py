"""About (issue 25, point 7): the version, what Momentum is, that the data stays on the person's
server, that every sound is synthesized, and the open-source libraries with their licenses — as
the server says them (GET /api/v1/about). Reached from Settings and from the brand; passes axe at
360 and 1280 px in both themes. Also: the skip link moves focus to the current section's content
without changing the route, and the manifest's shortcuts reach only a signed-in browser."""
import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import axe_violations, go, open_app, set_color_scheme, set_size, shot, tap, wait_for

LICENSES = {
    "Hummingbird": "Apache-2.0", "Hummingbird WebSocket": "Apache-2.0", "SwiftNIO": "Apache-2.0",
    "Swift HTTP Types": "Apache-2.0", "GRDB": "MIT", "SQLite": "blessing", "Swift Crypto": "Apache-2.0",
    "ZIP Foundation": "MIT", "PostgresNIO": "MIT", "Swift Argument Parser": "Apache-2.0 WITH Swift-exception",
    "SwiftLog": "Apache-2.0", "Swift Service Lifecycle": "Apache-2.0", "SwiftNIO SSL": "Apache-2.0",
}


def listed_libraries(driver):
    """{library name: the SPDX id its license line shows} as the About view lists them."""
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#about-libraries .about-library')].map((li) =>"
        " [li.dataset.library, li.querySelector('.about-license').dataset.license]));")


def wait_for_about(driver):
    return wait_for(driver, lambda d: d.execute_script(
        "const v = document.getElementById('view-about');"
        "return v && !v.hidden && v.querySelectorAll('.about-library').length ? v : null;"),
        message="the About view did not render")


def test_about_lists_every_library_with_its_license_and_passes_axe(browser, server):
    settings = open_app(browser, server, "settings")
    link = wait_for(browser, lambda d: d.find_element(By.ID, "s-about"))
    assert link.text == "About Momentum"
    set_size(browser, 360, 740)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    shot(browser, "about-settings-link-360")
    tap(browser, "s-about")
    view = wait_for_about(browser)
    assert browser.execute_script("return location.hash") == "#about"
    assert settings.get_attribute("hidden") is not None
    assert view.find_element(By.TAG_NAME, "h1").text == "About Momentum"
    version = server.get("/about")["version"]
    assert browser.find_element(By.ID, "about-version").text == f"Version {version}"
    assert "stays on your own server" in browser.find_element(By.ID, "about-privacy").text
    assert "synthesized" in browser.find_element(By.ID, "about-sounds").text
    assert listed_libraries(browser) == LICENSES
    grdb = browser.find_element(By.CSS_SELECTOR, '[data-library="GRDB"]')
    assert "License: MIT" in grdb.text and "Gwendal Roué" in grdb.text, grdb.text
    assert grdb.find_element(By.TAG_NAME, "a").get_attribute("href") == "https://github.com/groue/GRDB.swift"

    for width, height in ((360, 740), (1280, 800)):
        set_size(browser, width, height)
        for scheme in ("light", "dark"):
            set_color_scheme(browser, scheme)
            browser.execute_script("window.scrollTo(0, 0)")
            shot(browser, f"about-{width}-{scheme}")
            browser.execute_script("document.getElementById('about-libraries').scrollIntoView()")
            shot(browser, f"about-{width}-{scheme}-libraries")
            assert axe_violations(browser) == [], (width, scheme)
    set_color_scheme(browser, "light")

    # From the brand in the sidebar on a wide screen.
    go(browser, "progress")
    browser.find_element(By.ID, "brand-about").click()
    wait_for_about(browser)
    assert browser.execute_script("return location.hash") == "#about"


def test_about_speaks_german(browser, server):
    status, _ = server.api("PUT", "/settings", {"language": "de"})
    assert status == 200
    open_app(browser, server, "about")
    view = wait_for_about(browser)
    assert view.find_element(By.TAG_NAME, "h1").text == "Über Momentum"
    assert "erzeugt" in browser.find_element(By.ID, "about-sounds").text
    assert "Lizenz: MIT" in browser.find_element(By.CSS_SELECTOR, '[data-library="GRDB"]').text
    for width in (320, 390):
        set_size(browser, width, 740)
        shot(browser, f"about-de-{width}")
    assert axe_violations(browser) == []


def test_the_skip_link_focuses_the_current_sections_content_and_keeps_the_route(browser, server):
    for section in ("progress", "settings", "about"):
        view = open_app(browser, server, section)
        wait_for(browser, lambda d: view.find_element(By.TAG_NAME, "h1").text)
        skip = browser.find_element(By.CSS_SELECTOR, "a.skip")
        browser.execute_script("document.activeElement && document.activeElement.blur(); arguments[0].focus();", skip)
        assert browser.switch_to.active_element == skip
        skip.send_keys(Keys.ENTER)
        heading = view.find_element(By.TAG_NAME, "h1")
        wait_for(browser, lambda d: d.switch_to.active_element == heading,
                 message=f"the skip link did not focus {section}'s heading")
        assert browser.execute_script("return location.hash") == f"#{section}"
        assert not view.get_attribute("hidden")
        assert browser.find_element(By.ID, "view-meditate").get_attribute("hidden") is not None


def fetch_manifest(driver, credentials):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/manifest.webmanifest', {credentials: arguments[0]}).then((r) => r.json()).then(done,"
        " (e) => done({error: String(e)}));", credentials)


def test_the_manifest_offers_shortcuts_only_to_a_signed_in_browser(guarded_server, browser):
    server = guarded_server
    # Not signed in: the manifest is there (installable), without the person's shortcuts.
    with urllib.request.urlopen(f"{server.url}/manifest.webmanifest") as response:
        bare = json.load(response)
    assert bare["name"] == "Momentum" and "shortcuts" not in bare, bare

    browser.get(f"{server.url}/login.html")
    field = wait_for(browser, lambda d: d.find_element(By.ID, "login-token"))
    field.send_keys(server.token)
    field.submit()
    wait_for(browser, lambda d: not d.current_url.endswith("/login.html") and d.execute_script(
        "return !!document.querySelector('#view-meditate h1')"), message="the token did not open the app")
    link = browser.find_element(By.CSS_SELECTOR, 'link[rel="manifest"]')
    assert link.get_attribute("crossorigin") == "use-credentials"
    # An empty log: Box breathing and Tabata (no saved sit yet).
    signed_in = fetch_manifest(browser, "same-origin")
    assert [s["url"] for s in signed_in["shortcuts"]] == ["/#breathe?preset=box", "/#workout?program=tabata"]
    assert "shortcuts" not in fetch_manifest(browser, "omit")
