"""Progress read at a glance (issue 39, item 7): the first screen at 360×740 is today's goal
rings, this week's seven days and the streaks — pictures, not a wall of sentences — and the year
heat map's steps can be told apart, by everyone (simulated protanopia, deuteranopia and
tritanopia too), in both themes."""
import datetime
import math

from selenium.webdriver.common.by import By

from conftest import axe_violations, open_app, set_color_scheme, set_size, shot, wait_for


def log_minutes(server, days_ago, minutes, kind="meditation"):
    start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=days_ago, minutes=minutes + 5)
    status, body = server.api("POST", "/log", {
        "kind": kind, "start": start.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "durationMs": minutes * 60000})
    assert status == 201, body


def test_the_first_screen_is_a_picture_of_today_this_week_and_the_streaks(server, browser):
    log_minutes(server, 0, 12)
    log_minutes(server, 1, 25)
    log_minutes(server, 0, 30, kind="focus")
    set_size(browser, 360, 740)
    open_app(browser, server, "progress")
    ring = wait_for(browser, lambda d: d.find_elements(By.ID, "today-mindfulness"), message="no ring for today")[0]
    # Today's minutes are the ring's number; the ring's arc is today's fill of the goal.
    streaks = server.get("/progress/streaks")
    mindfulness = next(day for day in streaks["today"] if day["category"] == "mindfulness")
    assert ring.find_element(By.CSS_SELECTOR, ".ring-number").text.split() == [str(mindfulness["minutes"]), "min"]
    fill = mindfulness["fill"]
    arc = ring.find_element(By.CSS_SELECTOR, ".ring-fill").get_attribute("stroke-dasharray")
    assert arc == f"{round(fill * 100)} 100", (arc, fill)

    # This week: seven days, Monday first, the server's days in the server's order.
    days = browser.find_elements(By.CSS_SELECTOR, "#week button[data-day]")
    assert [d.get_attribute("data-day") for d in days] == [day["day"] for day in streaks["week"]]
    assert len(days) == 7
    today = next(day for day in streaks["week"] if day["isToday"])
    counted = {day["day"] for day in streaks["week"] if day["counts"]}
    for button in days:
        classes = button.get_attribute("class").split()
        assert ("counted" in classes) == (button.get_attribute("data-day") in counted), button.get_attribute("data-day")
        assert button.get_attribute("aria-label"), "a day without a name"
    assert browser.find_element(By.ID, "week-summary").text == streaks["weekText"]
    # A section with nothing to show (no trackers) leaves nothing behind, not a stray "null".
    stray = browser.execute_script(
        "return [...document.getElementById('view-progress').childNodes]"
        ".filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()).map((n) => n.textContent)")
    assert stray == []
    assert browser.find_element(By.CSS_SELECTOR, f'#week button[data-day="{today["day"]}"]').get_attribute("class").count("today") == 1

    # The glance fits the first screen: today, the week and the streaks end above the fold.
    shot(browser, "progress-glance-first-screen")
    bottom = browser.execute_script("return document.querySelector('#week').getBoundingClientRect().bottom")
    assert bottom <= 740, f"the week ends at {bottom}px, below a 740px phone screen"
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 360

    # Tapping a day of the week shows that day's sessions, as the calendar does.
    browser.find_element(By.CSS_SELECTOR, f'#week button[data-day="{today["day"]}"]').click()
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, f'#week button[data-day="{today["day"]}"]')
             .get_attribute("aria-pressed") == "true", message="the day was not chosen")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="log-record"]'),
             message="today's sessions were not listed")
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "progress-glance-light")
    assert axe_violations(browser) == []

    set_color_scheme(browser, "dark")
    browser.refresh()
    wait_for(browser, lambda d: d.find_elements(By.ID, "today-mindfulness"))
    shot(browser, "progress-glance-dark")
    assert axe_violations(browser) == []

    assert server.api("PATCH", "/settings", {"language": "de"})[0] == 200
    browser.refresh()
    wait_for(browser, lambda d: d.find_element(By.ID, "week-title").text == "Diese Woche", message="no German week")
    assert browser.find_element(By.ID, "week-summary").text.endswith("gezählt")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 360
    shot(browser, "progress-glance-dark-de")


# ---------------------------------------------------------------------------------------------
# Heat-map steps told apart: CIE76 ΔE between neighbouring steps, after simulating colour vision
# deficiency (Machado, Oliveira & Fernandes 2009, severity 1.0, in linear RGB).

MACHADO = {
    "none": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def linear(channel):
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb_linear):
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb_linear)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116  # noqa: E731
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(rgb, matrix):
    values = [linear(c) for c in rgb]
    return lab([sum(matrix[i][j] * values[j] for j in range(3)) for i in range(3)])


STEPS_JS = """
const probe = document.createElement('td');
document.body.append(probe);
const out = [];
for (const level of [0, 1, 2, 3, 4]) {
  probe.className = level ? `heat l${level}` : 'heat';
  out.push(getComputedStyle(probe).backgroundColor);
}
probe.remove();
return out;
"""


def rgb_of(css):
    return [float(v) for v in css[css.index("(") + 1:css.index(")")].split(",")[:3]]


def test_heat_map_steps_are_told_apart_in_both_themes_and_by_colour_blind_eyes(server, browser):
    open_app(browser, server, "progress")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#heatmap td.heat"), message="no heat map")
    for scheme in ("light", "dark"):
        set_color_scheme(browser, scheme)
        browser.refresh()
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#heatmap td.heat"))
        steps = [rgb_of(c) for c in browser.execute_script(STEPS_JS)]
        assert len({tuple(s) for s in steps}) == 5, (scheme, steps)
        for name, matrix in MACHADO.items():
            labs = [seen(s, matrix) for s in steps]
            gaps = [math.dist(labs[i], labs[i + 1]) for i in range(4)]
            assert min(gaps) >= 12, f"{scheme}, {name}: neighbouring heat steps differ by ΔE {[round(g) for g in gaps]}"
            lightness = [lab_[0] for lab_ in labs]
            # More practice always reads as a step further from the page (darker in light, lighter in dark).
            ordered = lightness == sorted(lightness, reverse=scheme == "light")
            assert ordered, f"{scheme}, {name}: lightness {[round(v) for v in lightness]} is not monotonic"
