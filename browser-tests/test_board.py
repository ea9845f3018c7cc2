"""The workout board read from the mat (issue 39): at 360×740 the phase's colour fills the screen,
work and rest differ by ΔE ≥ 20 in both themes, the seconds left are at least 40 % of the width,
every text on the board has 7:1 contrast or more, nothing moves between phases, and axe finds no
serious or critical issue."""
import math

from selenium.webdriver.common.by import By

from conftest import axe_violations, open_app, set_color_scheme, set_size, shot, stop_practice, tap, wait_for

WIDTH, HEIGHT = 360, 740

MEASURE = """
const board = document.querySelector('.board');
const rgb = (text) => (text.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
const lum = ([r, g, b]) => {
  const f = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
};
const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const bg = rgb(getComputedStyle(board).backgroundColor);
const texts = [...board.querySelectorAll('p, button, label')].filter((n) => n.textContent.trim() && n.offsetParent);
const worst = Math.min(...texts.map((n) => {
  const style = getComputedStyle(n);
  const own = rgb(style.backgroundColor);
  const under = style.backgroundColor.startsWith('rgba(0, 0, 0, 0)') || style.backgroundColor === 'transparent' ? bg : own;
  return contrast(rgb(style.color), under);
}));
const time = document.getElementById('w-time');
const range = document.createRange();
range.selectNodeContents(time);
const digits = range.getBoundingClientRect();
const box = board.getBoundingClientRect();
const lines = ['w-segment', 'w-time', 'w-exercise', 'w-next', 'w-detail', 'w-left']
  .map((id) => Math.round(document.getElementById(id).getBoundingClientRect().top));
return {phase: board.dataset.phase, bg, worst, text: time.textContent, digitsWidth: digits.width,
        boardWidth: box.width, boardHeight: box.height, lines, scrollWidth: document.documentElement.scrollWidth,
        bodyBg: rgb(getComputedStyle(document.body).backgroundColor)};
"""


def lab(rgb):
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = map(lin, rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(a, b):
    """CIE76 colour difference of two sRGB colours."""
    return math.dist(lab(a), lab(b))


def test_the_board_is_read_from_the_mat_in_every_phase_and_both_themes(server, browser):
    status, program = server.api("POST", "/workouts/programs", {"name": "Mat check", "plan": {
        "getReadyMs": 4000, "workMs": 12000, "restMs": 5000, "rounds": 2, "sets": 1,
        "warmUpMs": 0, "coolDownMs": 0, "setRestMs": 0, "exerciseNames": ["Squats"]}})
    assert status == 201, program
    set_size(browser, WIDTH, HEIGHT)
    open_app(browser, server, "workout")
    browser.get(f"{server.url}/#workout?program={program['id']}")
    wait_for(browser, lambda d: d.find_element(By.ID, "w-program").get_attribute("value") == program["id"])
    tap(browser, "w-start")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".board[data-phase]"), message="no board")
    seen = {}
    lines = None
    for phase in ("prepare", "work", "rest"):
        wait_for(browser, lambda d: d.execute_script(MEASURE)["phase"] == phase, timeout=15,
                 message=f"the board never showed {phase}")
        for scheme in ("light", "dark"):
            set_color_scheme(browser, scheme)
            wait_for(browser, lambda d: d.execute_script("return document.documentElement.dataset.theme") == scheme)
            # The colours change with a calm transition: measured once it has run.
            wait_for(browser, lambda d: d.execute_script("return document.getAnimations().length === 0"))
            m = browser.execute_script(MEASURE)
            assert m["phase"] == phase, m
            seen[(phase, scheme)] = m
            assert m["worst"] >= 7, (phase, scheme, m)
            assert m["digitsWidth"] >= 0.4 * WIDTH, (phase, scheme, m)
            assert m["scrollWidth"] <= WIDTH, m
            # The phase fills the screen: the board is as wide as the screen and nearly as tall.
            assert m["boardWidth"] >= WIDTH - 1 and m["boardHeight"] >= HEIGHT * 0.95, m
            # Nothing moves between phases: every line keeps its place.
            if lines is None:
                lines = m["lines"]
            assert m["lines"] == lines, (phase, scheme, m["lines"], lines)
            shot(browser, f"board-{phase}-{scheme}-360")
            assert axe_violations(browser) == [], (phase, scheme)
        set_color_scheme(browser, "light")
    for scheme in ("light", "dark"):
        difference = delta_e(seen[("work", scheme)]["bg"], seen[("rest", scheme)]["bg"])
        assert difference >= 20, (scheme, difference)
        assert delta_e(seen[("prepare", scheme)]["bg"], seen[("work", scheme)]["bg"]) >= 20, scheme
    # The last three seconds are counted, large.
    wait_for(browser, lambda d: "final" in d.find_element(By.ID, "w-time").get_attribute("class"), timeout=15,
             message="the last seconds were not counted")
    assert browser.find_element(By.ID, "w-time").text in ("1", "2", "3")
    stop_practice(browser, "w-stop")
