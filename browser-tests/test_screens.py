"""Every section at 320, 390 and 1280 px, light and dark, English and German (issue 25): nothing
wider than the screen, no catalog key missing, and a screenshot of each kept as an artifact
(`screens/<lang>-<width>-<scheme>-<section>.png`) to look at. axe runs in test_layout.py."""
import pytest

from conftest import go, missing_keys, open_app, set_color_scheme, set_size, shot
from test_layout import SECTIONS, overflow, seed

SIZES = [(320, 640), (390, 844), (1280, 800)]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_section_at_three_widths_in_both_themes(server, browser, lang):
    seed(server)
    status, body = server.api("PATCH", "/settings", {"language": lang})
    assert status == 200, body
    problems = []
    try:
        for width, height in SIZES:
            for scheme in ("light", "dark"):
                set_size(browser, width, height)
                set_color_scheme(browser, scheme)
                open_app(browser, server, "meditate")
                for section in SECTIONS:
                    go(browser, section)
                    shot(browser, f"screens/{lang}-{width}-{scheme}-{section}")
                    if overflow(browser, width) > 0:
                        problems.append(f"{lang} {width} {scheme} {section}: {overflow(browser, width)} px too wide")
                    if missing_keys(browser):
                        problems.append(f"{lang} {section}: catalog keys missing {missing_keys(browser)}")
    finally:
        set_color_scheme(browser, "light")
        server.api("PATCH", "/settings", {"language": "en"})
    assert not problems, "\n".join(problems)
