"""Every section on a phone and a desktop, light and dark: no sideways scrolling, the right
navigation, no serious or critical axe violation, and a screenshot of each."""
import datetime

import pytest

from conftest import (DESKTOP, PHONE, axe_violations, go, missing_keys, open_app, set_color_scheme,
                      set_size, shot)

SECTIONS = ["meditate", "library", "breathe", "workout", "timers", "morse", "progress", "settings"]


def seed(server):
    """Some data, so Progress shows statistics and Timers a card with a checklist."""
    start = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=3))
    status, run = server.api("POST", "/runs", {
        "kind": "meditation", "plan": {"durationMs": 120000, "countdownMs": 0},
        "at": start.isoformat().replace("+00:00", "Z")})
    assert status == 201, run
    status, body = server.api("POST", f"/runs/{run['id']}/stop", {})
    assert status == 200 and body["ending"]["logged"], body
    status, body = server.api("POST", "/timers", {"name": "Morning pages", "durationMs": 1500000,
                                                   "items": ["Water", "Notebook"]})
    assert status == 201, body


def overflow(driver, width):
    """How many CSS pixels the page is wider than a `width` screen (0 or less when it fits).
    A phone (mobile emulation) widens the layout viewport to fit content that is too wide, so
    innerWidth itself must stay the screen's width as well as scrollWidth <= innerWidth."""
    return driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, window.innerWidth) - arguments[0]", width)


def nav_box(driver):
    return driver.execute_script(
        "const r = document.querySelector('nav.tabs').getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,"
        " height: r.height, vw: innerWidth, vh: innerHeight};")


def links_in_view(driver):
    """Each navigation link that is displayed and lies inside the viewport."""
    return driver.execute_script(
        "return [...document.querySelectorAll('[data-route]')].filter((a) => {"
        "  const r = a.getBoundingClientRect();"
        "  return a.offsetParent !== null && r.width > 0 && r.left >= 0 && r.top >= 0"
        "    && r.right <= innerWidth && r.bottom <= innerHeight;"
        "}).map((a) => a.dataset.route);")


PRACTICES = ["meditate", "library", "breathe", "workout"]
# A phone has five destinations (issue 39): Practice (Meditate's tab), Timers, Morse, Progress and
# the Settings gear; on a practice, a row switches between the four practices.
PHONE_TABS = ["meditate", "timers", "morse", "progress", "settings"]


def check_navigation(driver, phone, section):
    box = nav_box(driver)
    if phone:
        # A tab bar: full width, glued to the bottom edge, not taller than a thumb row.
        assert box["left"] == 0 and box["width"] == box["vw"], box
        assert abs(box["bottom"] - box["vh"]) < 1 and box["height"] < 100, box
    else:
        # A sidebar: the left edge, full height, a narrow column.
        assert box["left"] == 0 and box["top"] == 0 and box["height"] == box["vh"], box
        assert box["width"] < 0.3 * box["vw"], box
        assert driver.find_element("css selector", "nav.tabs .brand").is_displayed()
    if phone:
        wanted = set(PHONE_TABS) | (set(PRACTICES) if section in PRACTICES else set())
        assert set(links_in_view(driver)) == wanted, (section, links_in_view(driver))
        tabs = driver.execute_script(
            "return [...document.querySelectorAll('nav.tabs a[data-route]')].filter((a) => a.offsetParent !== null).length")
        assert tabs == len(PHONE_TABS), tabs
    else:
        assert sorted(links_in_view(driver)) == sorted(SECTIONS)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_every_section_fits_and_passes_axe(server, browser, device, scheme):
    seed(server)
    phone = device == "phone"
    width, height = PHONE if phone else DESKTOP
    set_size(browser, width, height)
    set_color_scheme(browser, scheme)
    open_app(browser, server, "meditate")
    problems = []
    for section in SECTIONS:
        go(browser, section)
        suffix = "" if scheme == "light" else "-dark"
        shot(browser, f"{device}-{section}{suffix}")
        # Checked at once: a page wider than the screen also moves what the next click hits.
        assert overflow(browser, width) <= 0, f"{device} {section}: {overflow(browser, width)} px too wide"
        check_navigation(browser, phone, section)
        for v in axe_violations(browser):
            problems.append(f"{section}: axe {v['impact']} {v['id']} ({v['help']}) at {v['targets']}")
        if missing_keys(browser):
            problems.append(f"{section}: catalog keys missing {missing_keys(browser)}")
    assert not problems, "\n".join(problems)
