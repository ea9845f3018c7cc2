"""Breathe: a person makes their own preset in the editor; out-of-bounds values get the server's
message; the saved preset is chosen, announced, kept on the server and survives a reload."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import allow_console, axe_violations, go, open_app, shot, wait_for, stop_practice


def type_into(driver, field_id, value):
    box = driver.find_element(By.ID, field_id)
    box.clear()
    box.send_keys(str(value))


def own_presets(server):
    return [p for p in server.get("/breathing/presets")["presets"] if not p.get("isBuiltIn")]


def test_a_new_preset_is_saved_and_chosen(server, browser):
    open_app(browser, server, "meditate")
    go(browser, "breathe")
    browser.find_element(By.ID, "b-new").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "b-editor"), message="the editor did not open")
    assert browser.find_element(By.ID, "b-editor-title").text == "New preset"
    assert browser.switch_to.active_element.get_attribute("id") == "b-name"

    type_into(browser, "b-name", "Evening 4-7-8")
    type_into(browser, "b-inhale", 4)
    type_into(browser, "b-hold-in", 7)
    type_into(browser, "b-exhale", 8)
    type_into(browser, "b-hold-out", 0)
    type_into(browser, "b-rounds", 500)  # more than the server allows
    allow_console(browser, r"422 \(Unprocessable")
    browser.find_element(By.ID, "b-save").click()
    # Beside the rounds, with the bounds (issue 39: every refusal beside its field).
    error = wait_for(browser, lambda d: (e := d.find_element(By.ID, "b-rounds-error")).is_displayed() and e,
                     message="no message for 500 rounds")
    assert "99" in error.text, error.text
    assert browser.find_element(By.ID, "b-rounds").get_attribute("aria-invalid") == "true"
    assert own_presets(server) == [], "a refused preset was stored"
    shot(browser, "breathe-editor-error")

    type_into(browser, "b-rounds", 4)
    browser.find_element(By.ID, "b-save").click()
    wait_for(browser, lambda d: not d.find_elements(By.ID, "b-editor"), message="the editor stayed open")
    [saved] = own_presets(server)
    assert (saved["name"], saved["inhaleMs"], saved["holdAfterInhaleMs"], saved["exhaleMs"],
            saved["holdAfterExhaleMs"], saved["rounds"]) == ("Evening 4-7-8", 4000, 7000, 8000, 0, 4)
    chooser = Select(browser.find_element(By.ID, "b-preset"))
    assert chooser.first_selected_option.get_attribute("value") == saved["id"]
    assert browser.switch_to.active_element.get_attribute("id") == "b-preset"
    wait_for(browser, lambda d: "Evening 4-7-8" in d.find_element(By.ID, "announcer").text,
             message="the save was not announced")
    assert browser.find_element(By.ID, "b-delete").is_displayed(), "an own preset can be deleted"
    assert axe_violations(browser) == []
    shot(browser, "breathe-own-preset")

    browser.refresh()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#b-preset option[value="{saved["id"]}"]'),
             message="the preset is gone after a reload")


def test_a_session_plays_the_runs_stream_pauses_and_comes_back_after_a_reload(server, browser):
    open_app(browser, server, "breathe")
    browser.find_element(By.ID, "b-start").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "b-pause"), message="the player did not appear")
    run_id = wait_for(browser, lambda d: [r["id"] for r in server.get("/runs")["runs"] if r["kind"] == "breathing"])[-1]
    audio = "const a = document.getElementById('run-audio'); return a && {src: a.src, paused: a.paused, time: a.currentTime};"
    playing = wait_for(browser, lambda d: (lambda a: a if a and not a["paused"] and a["time"] > 0.3 else None)(
        d.execute_script(audio)), timeout=15, message="the run's stream does not play")
    assert f"/api/v1/runs/{run_id}/audio" in playing["src"], playing
    title = browser.execute_script("return navigator.mediaSession.metadata && navigator.mediaSession.metadata.title")
    assert title, title
    # Three seconds to get ready, counted down, the shape waiting small; the time left is the
    # breathing's own (the get-ready is not counted down with it).
    timeline = server.get(f"/runs/{run_id}")["timeline"]
    assert timeline["segments"][0] == {"kind": "countdown", "startMs": 0, "durationMs": 3000}, timeline["segments"][0]
    assert timeline["leadInMs"] == 3000
    assert timeline["segments"][1]["kind"] == "inhale", timeline["segments"][1]
    scale = "return new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.orb')).transform).a"
    phase = browser.find_element(By.ID, "b-phase").text
    if phase == "Get ready":  # the page may have been slow to draw; then the inhale has begun
        assert browser.find_element(By.ID, "b-count").text in ("1", "2", "3")
        assert browser.execute_script(scale) < 0.6
        left = browser.find_element(By.ID, "b-left").text
        assert "02:40" in left, left  # 4-4-4-4 × 10, nothing of it breathed yet
        shot(browser, "breathe-get-ready")
    # The shape breathes from the first inhale: it grows from small, and the phase's seconds count.
    wait_for(browser, lambda d: d.execute_script(scale) > 0.6, timeout=8, message="the shape does not grow on the inhale")
    assert browser.find_element(By.ID, "b-phase").text == "Breathe in"
    count = browser.find_element(By.ID, "b-count").text
    assert count.isdigit() and 1 <= int(count) <= timeline["segments"][1]["durationMs"] / 1000, count
    shot(browser, "breathe-inhale")

    browser.find_element(By.ID, "b-pause").click()
    wait_for(browser, lambda d: d.execute_script(audio)["paused"], message="Pause did not pause the sound")
    wait_for(browser, lambda d: server.get(f"/runs/{run_id}")["status"] == "paused", message="the run was not paused")
    # The server pauses the run before its answer reaches the page: the words follow the answer.
    wait_for(browser, lambda d: d.find_element(By.ID, "b-phase").text == "Paused — take your time.",
             message="the page does not say the session is paused")

    # A reload shows the paused session, silent, with Resume.
    browser.refresh()
    button = wait_for(browser, lambda d: d.find_element(By.ID, "b-pause"), message="the session did not come back")
    assert button.text == "Resume"
    assert browser.execute_script(audio)["paused"]
    button.click()
    wait_for(browser, lambda d: not d.execute_script(audio)["paused"], message="Resume did not play the sound")
    wait_for(browser, lambda d: server.get(f"/runs/{run_id}")["status"] == "running", message="the run was not resumed")
    assert axe_violations(browser) == []
    stop_practice(browser, "b-stop")
    wait_for(browser, lambda d: d.find_element(By.ID, "b-done")).click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "b-start"), message="the form did not come back")
    assert server.get(f"/runs/{run_id}")["status"] == "stopped"
    assert browser.execute_script(audio)["paused"]


def test_with_reduce_motion_a_bar_and_the_count_carry_the_breath(server, browser):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    open_app(browser, server, "breathe")
    browser.find_element(By.ID, "b-start").click()
    bar = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".breath-bar"))
    assert bar.is_displayed()
    fill = "return Number(document.getElementById('b-bar').style.getPropertyValue('--fill') || 0)"
    first = wait_for(browser, lambda d: d.execute_script(fill) or None, timeout=5, message="the bar does not fill")
    wait_for(browser, lambda d: d.execute_script(fill) > first, timeout=5, message="the bar does not fill on")
    scale = "return new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.orb')).transform).a"
    assert abs(browser.execute_script(scale) - 0.8) < 0.01, "the shape moves with reduce motion"
    shot(browser, "breathe-reduced-motion")
    assert axe_violations(browser) == []
    stop_practice(browser, "b-stop")
    wait_for(browser, lambda d: d.find_element(By.ID, "b-done")).click()
