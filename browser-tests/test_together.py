"""Sitting together (issue 45, docs/together.md): two pages of two people play one session's
sound at the same position on the server's clock — one page's own clock 4 s wrong — a page that
joins 30 s late plays from 30 s, and the host's pause and stop reach the other page at once."""
import statistics
import time

from selenium.webdriver.common.by import By

import pytest

from conftest import open_app, run_browser, set_color_scheme, set_size, shot, wait_for
from test_shared_timers import choose_profile, cli

SKEW_MS = 4000
READ = ("const a = document.getElementById('together-audio');"
        "return a ? [a.currentTime * 1000, performance.timeOrigin + performance.now(), a.paused] : null;")


def skew_clock(driver, milliseconds):
    """The page's Date reads `milliseconds` ahead of the machine's clock (performance's does not)."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "(() => { const real = Date.now.bind(Date); Date.now = () => real() + %d; })();" % milliseconds})


def positions(drivers):
    """Each page's sound position, carried to one instant of the machine's clock (ms)."""
    readings = [driver.execute_script(READ) for driver in drivers]
    common = max(reading[1] for reading in readings)
    return [reading[0] + (common - reading[1]) for reading in readings], common


def spread(drivers, rounds=10):
    """The largest spread of the pages' positions over `rounds` looks, and every look's."""
    spreads = []
    for _ in range(rounds):
        found, _ = positions(drivers)
        spreads.append(max(found) - min(found))
        time.sleep(0.1)
    return max(spreads), spreads


def time_until(driver, script, timeout=2.0):
    """Seconds until `script` is true on `driver`'s page (looked at as often as the driver can)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if driver.execute_script(script):
            return time.monotonic() - started
    raise AssertionError(f"not within {timeout} s: {script}")


def in_session(driver):
    return driver.execute_script(
        "const s = window.momentumTogether; return !!(s && s.room && s.offsetMs !== null"
        " && document.getElementById('together-audio') && !document.getElementById('together-audio').paused);")


def test_two_pages_play_the_same_moment_a_late_joiner_plays_from_the_position_and_the_hosts_steps_arrive_at_once(
        server, browser, second_browser):
    cli(server, "user", "add", "Ben")
    ada, ben = browser, second_browser
    skew_clock(ben, SKEW_MS)
    choose_profile(ada, server, 1)
    choose_profile(ben, server, 2)
    for driver in (ada, ben):
        open_app(driver, server, "meditate")
        wait_for(driver, lambda d: d.execute_script("return document.documentElement.dataset.live === 'open'"),
                 message="the live feed did not connect")

    # Ada starts a sit together from the form; Ben is invited on his open page.
    ada.find_element(By.ID, "m-together").click()
    wait_for(ada, in_session, timeout=15, message="Ada's sound did not start")
    code = ada.execute_script("return window.momentumTogether.room.code")
    starts_at = ada.execute_script("return window.momentumTogether.room.startsAtMs")
    wait_for(ben, lambda d: d.find_elements(By.ID, f"together-join-{code}"), timeout=2,
             message="Ben was not invited live")

    # Ben joins 30 s after the start: his sound starts at 30 s.
    while ada.execute_script("return performance.timeOrigin + performance.now()") < starts_at + 30000:
        time.sleep(0.2)
    ben.find_element(By.ID, f"together-join-{code}").click()
    wait_for(ben, in_session, timeout=10, message="Ben's sound did not start")
    first = ben.execute_script(READ)
    assert 30000 <= first[0] <= 36000, f"Ben's sound started at {first[0]:.0f} ms, not at about 30 s"
    offset = ben.execute_script("return window.momentumTogether.offsetMs")
    assert abs(offset + SKEW_MS) < 50, f"Ben's clock offset was measured as {offset:.1f} ms, not -{SKEW_MS}"

    # Given a moment to settle, the two sounds agree within 50 ms, and with the server's clock.
    time.sleep(3)
    worst, spreads = spread([ada, ben])
    found, common = positions([ada, ben])
    server_position = common - starts_at
    print(f"spread of the two pages' positions: median {statistics.median(spreads):.1f} ms,"
          f" worst {worst:.1f} ms; against the server's clock: "
          + ", ".join(f"{p - server_position:+.1f} ms" for p in found))
    assert worst <= 50, f"the pages' positions spread {worst:.1f} ms: {spreads}"
    for position in found:
        assert abs(position - server_position) <= 50, (found, server_position)
    sitting = ben.find_element(By.ID, "together-sitting").text
    assert sitting.endswith(", Ben") and sitting.count(",") == 1, sitting
    shot(ben, "together-ben-sitting")
    set_size(ben, 390, 844)
    shot(ben, "together-ben-sitting-390")
    set_color_scheme(ben, "dark")
    set_size(ben, 320, 640)
    shot(ben, "together-ben-sitting-320-dark")

    # Ada pauses: Ben's sound stops within 300 ms; she resumes, and both play on together.
    ada.execute_script("document.getElementById('together-pause').click()")
    took = time_until(ben, "return document.getElementById('together-audio').paused")
    print(f"the host's pause reached the other page in {took * 1000:.0f} ms")
    assert took <= 0.3
    wait_for(ben, lambda d: "paused" in d.find_element(By.ID, "together-status").text, timeout=2)
    paused_at = [p for p in positions([ada, ben])[0]]
    assert max(paused_at) - min(paused_at) <= 50, paused_at
    ada.execute_script("document.getElementById('together-pause').click()")
    wait_for(ben, in_session, timeout=3, message="Ben's sound did not go on")
    time.sleep(2)
    worst, spreads = spread([ada, ben], rounds=5)
    assert worst <= 50, f"after the pause the pages' positions spread {worst:.1f} ms: {spreads}"

    # Ada stops: Ben's sound stops within 300 ms and his page shows his part and who sat.
    ada.execute_script("document.getElementById('together-stop').click()")
    took = time_until(ben, "return document.getElementById('together-audio').paused")
    print(f"the host's stop reached the other page in {took * 1000:.0f} ms")
    assert took <= 0.3
    wait_for(ben, lambda d: d.find_elements(By.ID, "together-ending"), timeout=3,
             message="Ben's page did not show his part")
    assert ", Ben" in ben.find_element(By.ID, "view-meditate").text
    shot(ben, "together-ben-over")
    ben.find_element(By.ID, "together-done").click()
    wait_for(ben, lambda d: d.find_elements(By.ID, "m-start"), timeout=3)


@pytest.fixture
def three_more_browsers():
    """Three more independent Chromiums: with `browser` and `second_browser`, five people."""
    made = [run_browser() for _ in range(3)]
    try:
        yield [next(generator) for generator in made]
    finally:
        for generator in made:
            for _ in generator:
                pass


def test_five_pages_of_five_people_play_the_same_moment(server, browser, second_browser, three_more_browsers):
    drivers = [browser, second_browser, *three_more_browsers]
    for number, name in enumerate(["Ben", "Cleo", "Dan", "Eve"], start=2):
        cli(server, "user", "add", name)
    # Two of the five pages' clocks are wrong, one ahead and one behind.
    skew_clock(drivers[1], SKEW_MS)
    skew_clock(drivers[3], -2500)
    for person, driver in enumerate(drivers, start=1):
        choose_profile(driver, server, person)
        open_app(driver, server, "meditate")
        wait_for(driver, lambda d: d.execute_script("return document.documentElement.dataset.live === 'open'"),
                 message="the live feed did not connect")
    host, others = drivers[0], drivers[1:]
    host.find_element(By.ID, "m-together").click()
    wait_for(host, lambda d: d.execute_script("return !!(window.momentumTogether.room)"), timeout=5)
    code = host.execute_script("return window.momentumTogether.room.code")
    for driver in others:
        wait_for(driver, lambda d: d.find_elements(By.ID, f"together-join-{code}"), timeout=2,
                 message="an invitation did not arrive live")
        driver.find_element(By.ID, f"together-join-{code}").click()
    for driver in drivers:
        wait_for(driver, in_session, timeout=15, message="a page's sound did not start")
    time.sleep(3)
    worst, spreads = spread(drivers)
    print(f"spread of five pages' positions: median {statistics.median(spreads):.1f} ms, worst {worst:.1f} ms")
    assert worst <= 50, f"the five pages' positions spread {worst:.1f} ms: {spreads}"
    sitting = others[-1].find_element(By.ID, "together-sitting").text
    assert sitting.count(",") == 4, sitting

    # The host stops: every other page's sound stops within 300 ms.
    host.execute_script("document.getElementById('together-stop').click()")
    started = time.monotonic()
    for driver in others:
        time_until(driver, "return document.getElementById('together-audio').paused")
    took = time.monotonic() - started
    print(f"the host's stop reached all four other pages in {took * 1000:.0f} ms")
    assert took <= 0.3
