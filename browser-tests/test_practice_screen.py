"""A practice has the whole screen (issue 25): while it runs and on the view it ends on, a phone
shows no tab bar or gear — the ring or board, the time and large Pause and Stop (a desktop keeps
its sidebar) — and both views pass axe at phone and desktop sizes in both themes. Done brings the
section back with Start focused."""
import pytest
from selenium.webdriver.common.by import By

from conftest import DESKTOP, PHONE, axe_violations, open_app, set_color_scheme, set_size, shot, tap, wait_for

PRACTICES = [("meditate", "m"), ("breathe", "b"), ("workout", "w")]

FULLY_VISIBLE = """
const node = document.getElementById(arguments[0]);
const box = node.getBoundingClientRect();
const inside = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
return {inside, onTop: !!hit && (hit === node || node.contains(hit)), height: box.height};
"""


def tabs_shown(driver):
    return driver.execute_script("return getComputedStyle(document.querySelector('.tabs')).display !== 'none'")


def assert_whole_screen(driver, button_id, where):
    phone = driver.execute_script("return innerWidth") < 720
    assert tabs_shown(driver) != phone, f"{where}: the tab bar is {'shown' if phone else 'hidden'}"
    seen = driver.execute_script(FULLY_VISIBLE, button_id)
    assert seen["inside"] and seen["onTop"], f"{where}: #{button_id} is not fully visible: {seen}"
    assert seen["height"] >= 48, f"{where}: #{button_id} is small ({seen['height']} px)"


@pytest.mark.parametrize("section,prefix", PRACTICES)
def test_a_practice_has_the_whole_screen_and_passes_axe(server, browser, section, prefix):
    problems = []
    for width, height in (PHONE, DESKTOP):
        for scheme in ("light", "dark"):
            where = f"{section} {width}px {scheme}"
            set_size(browser, width, height)
            set_color_scheme(browser, scheme)
            open_app(browser, server, section)
            assert tabs_shown(browser), f"{where}: no tab bar before the practice"
            tap(browser, f"{prefix}-start")
            wait_for(browser, lambda d: d.find_elements(By.ID, f"{prefix}-pause"), message=f"{where}: no player")
            assert_whole_screen(browser, f"{prefix}-pause", where)
            assert_whole_screen(browser, f"{prefix}-stop", where)
            heading = browser.find_element(By.ID, f"h-{section}")
            assert heading.get_attribute("textContent"), f"{where}: the section lost its heading"
            problems += [f"{where} running: {v['id']} {v['targets']}" for v in axe_violations(browser)]
            shot(browser, f"practice-{section}-running-{width}-{scheme}")

            # Stop asks once (issue 39): the question passes axe too.
            browser.find_element(By.ID, f"{prefix}-stop").click()
            wait_for(browser, lambda d: d.find_elements(By.ID, "confirm-dialog"), message=f"{where}: Stop did not ask")
            problems += [f"{where} stop question: {v['id']} {v['targets']}" for v in axe_violations(browser)]
            shot(browser, f"practice-{section}-stop-question-{width}-{scheme}")
            browser.find_element(By.ID, "stop-keep").click()
            wait_for(browser, lambda d: d.find_elements(By.ID, f"{prefix}-done"), message=f"{where}: no end view")
            assert_whole_screen(browser, f"{prefix}-done", where)
            problems += [f"{where} end: {v['id']} {v['targets']}" for v in axe_violations(browser)]
            shot(browser, f"practice-{section}-end-{width}-{scheme}")

            browser.find_element(By.ID, f"{prefix}-done").click()
            wait_for(browser, lambda d: d.find_elements(By.ID, f"{prefix}-start"), message=f"{where}: no form after Done")
            assert tabs_shown(browser), f"{where}: the tab bar did not come back"
            focused = browser.switch_to.active_element.get_attribute("id")
            assert focused == f"{prefix}-start", f"{where}: focus on #{focused} after Done"
    set_color_scheme(browser, "light")
    assert problems == []


def test_a_morse_session_passes_axe_while_it_runs_and_on_its_results(server, browser):
    problems = []
    for width, height in (PHONE, DESKTOP):
        for scheme in ("light", "dark"):
            where = f"morse {width}px {scheme}"
            set_size(browser, width, height)
            set_color_scheme(browser, scheme)
            open_app(browser, server, "morse")
            tap(browser, "mo-start-receive")
            wait_for(browser, lambda d: d.find_elements(By.ID, "mo-begin"), message=f"{where}: no introduction")
            problems += [f"{where} introduction: {v['id']} {v['targets']}" for v in axe_violations(browser)]
            tap(browser, "mo-begin")
            wait_for(browser, lambda d: d.find_elements(By.ID, "mo-training"), message=f"{where}: no training")
            problems += [f"{where} training: {v['id']} {v['targets']}" for v in axe_violations(browser)]
            shot(browser, f"practice-morse-running-{width}-{scheme}")
            tap(browser, "mo-end")
            wait_for(browser, lambda d: d.find_elements(By.ID, "mo-results"), message=f"{where}: no results")
            wait_for(browser, lambda d: d.execute_script(
                "return document.getAnimations().every((a) => a.playState === 'finished')"))
            problems += [f"{where} results: {v['id']} {v['targets']}" for v in axe_violations(browser)]
            shot(browser, f"practice-morse-end-{width}-{scheme}")
            tap(browser, "mo-results-back")
            wait_for(browser, lambda d: d.find_elements(By.ID, "mo-start-receive"), message=f"{where}: no overview")
    set_color_scheme(browser, "light")
    assert problems == []
