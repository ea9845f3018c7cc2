"""A household (docs/people.md): a focus timer one person shares with another shows on both
people's screens and follows their ticks live; a timer not shared stays invisible."""
import subprocess
import time

from selenium.webdriver.common.by import By

from conftest import momentum_bin, open_app, shot, wait_for


def cli(server, *arguments):
    """Runs `momentum ARGUMENTS --data DIR` on the server's data directory; returns its output."""
    done = subprocess.run([momentum_bin(), *arguments, "--data", str(server.data_dir)],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def choose_profile(driver, server, person_id):
    """Chooses a profile on the server's own screen, as its picker does (the page's own fetch, so
    the session cookie lands in this browser)."""
    driver.get(f"{server.url}/login.html")
    status = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/v1/profiles/choose', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({id: arguments[0]})}).then(r => done(r.status), e => done(String(e)));",
        person_id)
    assert status == 204, status


def box(driver, timer, item):
    return driver.find_element(By.ID, f"item-{timer['id']}-{item['id']}")


def ticked(driver, timer, item):
    found = driver.find_elements(By.ID, f"item-{timer['id']}-{item['id']}")
    return bool(found) and found[0].is_selected()


def test_a_shared_timer_follows_both_people_live_and_an_unshared_one_stays_private(
        server, browser, second_browser):
    # Ada (the founder) makes two timers while she is the only one here; then Ben joins and Ada
    # shares one of them with him, from the terminal.
    status, chores = server.api("POST", "/timers", {"name": "Chores", "durationMs": 25 * 60000,
                                                    "items": ["Dishes", "Laundry", "Plants"]})
    assert status == 201, chores
    status, private = server.api("POST", "/timers", {"name": "Diary", "durationMs": 10 * 60000})
    assert status == 201, private
    cli(server, "user", "add", "Ben")
    assert "Ben" in cli(server, "timer", "share", "Chores", "--with", "Ben")
    dishes, laundry, _ = chores["items"]

    ada, ben = browser, second_browser
    choose_profile(ada, server, 1)
    choose_profile(ben, server, 2)
    for driver in (ada, ben):
        open_app(driver, server, "timers")
        wait_for(driver, lambda d: d.find_elements(By.ID, f"item-{chores['id']}-{dishes['id']}"),
                 message="the shared timer does not show")
        wait_for(driver, lambda d: d.execute_script("return document.documentElement.dataset.live === 'open'"),
                 message="the live feed did not connect")

    # Ben sees Ada's shared timer, and not her diary.
    assert not ben.find_elements(By.ID, f"t-{private['id']}-name")
    assert ada.find_elements(By.ID, f"t-{private['id']}-name")

    # Ada ticks: Ben's screen shows it within a second, without a reload.
    ben.execute_script("window.notReloaded = true")
    box(ada, chores, dishes).click()
    started = time.monotonic()
    wait_for(ben, lambda d: ticked(d, chores, dishes), timeout=1.0,
             message="Ada's tick did not show on Ben's screen within a second")
    print(f"Ada's tick reached Ben's screen in {time.monotonic() - started:.2f} s")

    # Ben ticks: it is Ada's timer, and Ada's screen follows.
    box(ben, chores, laundry).click()
    wait_for(ada, lambda d: ticked(d, chores, laundry), timeout=1.0,
             message="Ben's tick did not show on Ada's screen within a second")
    assert ben.execute_script("return window.notReloaded === true"), "Ben's page was reloaded"
    shot(ben, "shared-timer-ben")

    # Unshared, it leaves Ben's screen.
    cli(server, "timer", "share", "Chores", "--none")
    ben.refresh()
    open_app(ben, server, "timers")
    assert not ben.find_elements(By.ID, f"item-{chores['id']}-{dishes['id']}")
