"""Off loopback: the app sends a visitor to the login page; a wrong token is refused with a
message, the right one opens the app (an HTTP-only cookie, invisible to scripts), and Sign out in
Settings ends the session."""
from selenium.webdriver.common.by import By

from conftest import allow_console, axe_violations, go, shot, wait_for


def on_login_page(driver):
    return driver.current_url.endswith("/login.html") and driver.find_elements(By.ID, "login-token")


def test_a_token_opens_the_app_and_sign_out_ends_it(guarded_server, browser):
    server = guarded_server
    # The API answers 401 without the token; the app's first call sends the browser to log in.
    status, _ = server.api("GET", "/settings", token="not-a-token")
    assert status == 401
    allow_console(browser, r"401 \(Unauthorized\)")
    browser.get(f"{server.url}/#meditate")
    wait_for(browser, on_login_page, message="the app did not send the visitor to the login page")
    assert axe_violations(browser) == []
    shot(browser, "login")

    field = browser.find_element(By.ID, "login-token")
    assert browser.switch_to.active_element == field, "the token field should have the focus"
    field.send_keys("guessed-wrong")
    browser.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
    error = wait_for(browser, lambda d: (e := d.find_element(By.ID, "login-error")).is_displayed() and e)
    assert error.text == "That token is unknown or was revoked."
    assert on_login_page(browser)

    field.clear()
    field.send_keys(server.token)
    field.submit()
    view = wait_for(browser, lambda d: not d.current_url.endswith("/login.html") and d.execute_script(
        "const v = document.getElementById('view-meditate'); return v && v.querySelector('h1') ? v : null;"),
        message="the right token did not open the app")
    assert view.find_element(By.TAG_NAME, "h1").text == "Meditate"
    # The cookie is HTTP-only: the page's scripts cannot read the token.
    assert server.token not in browser.execute_script("return document.cookie")

    settings = go(browser, "settings")
    wait_for(browser, lambda d: d.find_elements(By.ID, "s-sign-out"), message="no Sign out for a cookie session")
    assert "signed in with an access token" in settings.text
    browser.find_element(By.ID, "s-sign-out").click()
    wait_for(browser, on_login_page, message="Sign out did not return to the login page")

    # Signed out means signed out: the app goes straight back to the login page. The live
    # socket the page opens meanwhile is refused too (Hummingbird answers a refused upgrade 400).
    allow_console(browser, r"/api/v1/live' failed")
    browser.get(f"{server.url}/#progress")
    wait_for(browser, on_login_page, message="the session survived signing out")


def test_on_loopback_there_is_nothing_to_sign_out_of(server, browser):
    browser.get(f"{server.url}/#settings")
    wait_for(browser, lambda d: d.find_elements(By.ID, "s-progress"))
    assert not browser.find_elements(By.ID, "s-sign-out")
