"""The guided meditation library in the browser: files uploaded through the file input are
grouped under their teacher, a name is edited with a teacher suggestion, the player plays,
seeks and finishes, and the finished listening is logged as a guided session. One sound at a
time: a guided meditation pauses the meditation's ambient sound and the other way round; an
own ambient bed is offered in Meditate and played by the browser."""
import re
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import DESKTOP, PHONE, allow_console, axe_violations, go, meditate_options, open_app, set_size, shot, wait_for, stop_practice

FIXTURES = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures" / "audio"


def group_items(driver):
    """{teacher heading: [item names]} as the list shows them."""
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#view-library .lib-group')].map((g) =>"
        " [g.querySelector('h2').textContent, [...g.querySelectorAll('.lib-name')].map((n) => n.textContent)]));")


def library_state(driver):
    return driver.execute_script(
        "const l = window.momentumLibrary; return l && {itemID: l.itemID, paused: l.paused,"
        " currentTime: l.currentTime, listenedMs: l.listenedMs, pausedBy: l.pausedBy};")


def click(driver, element_id):
    """Clicks the element with `element_id`, again if a redraw replaced it under the click."""
    def attempt(d):
        try:
            d.find_element(By.ID, element_id).click()
            return True
        except StaleElementReferenceException:
            return False
    wait_for(driver, attempt, message=f"#{element_id} could not be clicked")


def text_of(driver, element_id):
    return driver.execute_script(
        "const n = document.getElementById(arguments[0]); return n ? n.textContent : null", element_id)


def is_hidden(driver, element_id):
    return driver.execute_script(
        "const n = document.getElementById(arguments[0]); return !!n && n.hidden", element_id)


def upload(driver, *names):
    field = driver.find_element(By.ID, "lib-file")
    field.send_keys("\n".join(str(FIXTURES / name) for name in names))
    return wait_for(driver, lambda d: d.execute_script(
        "const rows = [...document.querySelectorAll('.lib-upload-row')];"
        "return rows.length >= arguments[0] && rows.every((r) => r.classList.contains('done') ||"
        " r.classList.contains('failed')) ? rows.map((r) => r.textContent) : null;", len(names)),
        message="the uploads did not finish")


def item_id(server, name):
    for group in server.get("/library")["groups"]:
        for item in group["items"]:
            if item["name"] == name:
                return item["id"]
    raise AssertionError(f"{name} is not in the library")


def test_upload_group_edit_play_seek_and_finish_logs_a_guided_session(server, browser):
    allow_console(browser, r"library/upload.*422")  # not-audio.mp3 is refused on purpose
    open_app(browser, server, "library")
    assert browser.find_element(By.ID, "lib-empty").is_displayed()

    rows = upload(browser, "id3v23-latin1.mp3", "id3v24-utf8.mp3", "not-audio.mp3")
    assert any("id3v23-latin1.mp3" in r and "Body Scan" in r for r in rows), rows
    refused = [r for r in rows if r.startswith("not-audio.mp3")]
    assert refused and "“not-audio.mp3” is not an MP3, M4A or WAV audio file" in refused[0], rows
    groups = wait_for(browser, lambda d: group_items(d) if len(group_items(d)) == 2 else None)
    assert groups == {"Jürgen Weiß": ["Atemraum – Ankommen"], "Mara Lindqvist": ["Body Scan"]}, groups
    assert server.get("/library")["count"] == 2
    # The upload lines on a phone: plain sentences, no ids.
    set_size(browser, *PHONE)
    browser.execute_script("document.getElementById('lib-uploads').scrollIntoView({block: 'center'})")
    shot(browser, "library-uploads-phone")
    assert not any(re.search(r"\([0-9a-f]{8}\)", r) for r in rows), rows
    metas = browser.execute_script("return [...document.querySelectorAll('.lib-meta')].map((m) => m.textContent)")
    assert metas and all(re.match(r"\d+ s\b", m) for m in metas), metas  # "3 s · Evening Practice", not "00:04"
    set_size(browser, *DESKTOP)
    shot(browser, "library-desktop")
    assert axe_violations(browser) == []

    # Edit: the teacher field suggests existing teachers; the new name shows under its teacher.
    body_scan = item_id(server, "Body Scan")
    browser.find_element(By.ID, f"lib-edit-{body_scan}").click()
    teacher = wait_for(browser, lambda d: d.find_element(By.ID, "lib-edit-teacher"))
    assert browser.switch_to.active_element == teacher
    teacher.clear()
    teacher.send_keys("jür")
    suggestions = wait_for(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#lib-teacher-suggestions option')].map((o) => o.value)") or None,
        message="no teacher suggestion appeared")
    assert suggestions == ["Jürgen Weiß"], suggestions
    shot(browser, "library-edit-desktop")
    assert axe_violations(browser) == []
    teacher.clear()
    teacher.send_keys("Mara Lindqvist")
    name = browser.find_element(By.ID, "lib-edit-name")
    name.clear()
    name.send_keys("Evening Body Scan")
    browser.find_element(By.ID, "lib-edit-save").click()
    wait_for(browser, lambda d: group_items(d).get("Mara Lindqvist") == ["Evening Body Scan"],
             message="the edited name is not shown")
    edited = server.get(f"/library/{body_scan}")
    assert edited["name"] == "Evening Body Scan" and edited["originalName"] == "Body Scan", edited
    assert "editedTeacher" not in edited, edited  # the original teacher typed again is no edit

    # Play, seek with the slider, and let it finish.
    browser.find_element(By.ID, f"lib-play-{body_scan}").click()
    wait_for(browser, lambda d: (s := library_state(d)) and not s["paused"] and s["currentTime"] > 0.3,
             message="the player does not play")
    assert browser.find_element(By.ID, "lib-now-title").text == "Evening Body Scan"
    # The player's total is the card's length ("3 s" on the card, 00:03 in the player, not 00:04).
    card_seconds = int(re.match(r"(\d+) s", browser.execute_script(
        f"return document.querySelector('#lib-play-{body_scan}').closest('li').querySelector('.lib-meta').textContent")).group(1))
    total = browser.find_element(By.ID, "lib-seek").get_attribute("aria-valuetext")
    assert total.endswith(f"00:{card_seconds:02d}"), (total, card_seconds)
    set_size(browser, *PHONE)
    shot(browser, "library-player-phone")
    assert axe_violations(browser) == []
    set_size(browser, *DESKTOP)
    wait_for(browser, lambda d: library_state(d)["currentTime"] > 1.2, message="the player stalls")
    browser.execute_script(
        "const s = document.getElementById('lib-seek'); s.value = '2300';"
        " s.dispatchEvent(new Event('input', {bubbles: true}));")
    seeked = library_state(browser)
    assert 2.2 <= seeked["currentTime"] <= 2.6, seeked
    status = wait_for(browser, lambda d: d.find_element(By.ID, "lib-status").text or None, timeout=15,
                      message="no confirmation after the end")
    # In words from the server ("Logged 2 s of guided meditation."), never a clock like "00:02".
    assert re.match(r"Logged \d+ s of guided meditation", status) and ":" not in status, status
    records = server.get("/log?kind=guided")["records"]
    assert len(records) == 1, records
    assert records[0]["details"]["name"] == "Evening Body Scan", records
    # Time listened, not the position: about 1.2 s before the seek and 0.7 s after it.
    assert 1 <= records[0]["countedSeconds"] <= 3, records[0]
    assert browser.find_element(By.ID, "lib-player").get_attribute("hidden") is not None
    set_size(browser, *PHONE)
    shot(browser, "library-phone")
    assert axe_violations(browser) == []

    # Delete with confirmation: the file goes too.
    delete = browser.find_element(By.ID, f"lib-delete-{body_scan}")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", delete)
    delete.click()
    wait_for(browser, lambda d: d.find_element(By.ID, "confirm-yes")).click()
    wait_for(browser, lambda d: "Mara Lindqvist" not in group_items(d), message="the item was not deleted")
    files = [p.name for p in (Path(server.data_dir) / "library").iterdir()]
    assert len(files) == 1 and not files[0].startswith("."), files


def test_one_sound_at_a_time_and_an_own_ambient_bed(server, browser):
    status, _ = server.api("PATCH", "/settings", {"meditation": {"ambientID": "rain", "ambientVolume": 0.3,
                                                                 "countdownMs": 0, "durationMs": 600000}})
    assert status == 200
    open_app(browser, server, "library")
    upload(browser, "vbr-xing.mp3", "tagged.m4a")
    wait_for(browser, lambda d: len(group_items(d)) == 2)
    walking = item_id(server, "Walking Practice")
    morning = item_id(server, "Morning Sit")

    # A meditation with its ambient sound runs; starting the guided one pauses the ambient sound.
    go(browser, "meditate")
    click(browser, "m-start")
    wait_for(browser, lambda d: d.execute_script(
        "const a = window.momentumPlayer.ambient; return a && a.state === 'playing'"),
        timeout=30, message="the ambient sound did not start")
    go(browser, "library")
    click(browser, f"lib-play-{walking}")
    wait_for(browser, lambda d: not library_state(d)["paused"], message="the guided meditation does not play")
    wait_for(browser, lambda d: d.execute_script("return window.momentumPlayer.ambientPausedBy") == "guided",
             message="the ambient sound was not paused")
    go(browser, "meditate")
    note = wait_for(browser, lambda d: text_of(d, "m-ambient-note") or None)
    assert note == "Ambient sound paused because a guided meditation started.", note
    shot(browser, "meditate-ambient-paused-desktop")
    assert axe_violations(browser) == []

    # Resuming the ambient sound pauses the guided meditation, which says why.
    click(browser, "m-ambient-resume")
    wait_for(browser, lambda d: library_state(d)["paused"] and library_state(d)["pausedBy"] == "ambient",
             message="the guided meditation was not paused")
    wait_for(browser, lambda d: is_hidden(d, "m-ambient-resume"),
             message="the resume button stays")
    go(browser, "library")
    note = wait_for(browser, lambda d: text_of(d, "lib-player-note") or None)
    assert note == "Paused because the meditation's ambient sound started.", note
    shot(browser, "library-paused-by-ambient-desktop")
    click(browser, "lib-stop")
    wait_for(browser, lambda d: is_hidden(d, "lib-player"))
    # The position was remembered on the server, and playing again resumes there.
    saved = wait_for(browser, lambda d: server.get(f"/library/{walking}")["positionMs"] or None)
    assert 0 < saved < 5040, saved
    click(browser, f"lib-play-{walking}")
    wait_for(browser, lambda d: not library_state(d)["paused"], message="the guided meditation does not play")
    assert library_state(browser)["currentTime"] >= saved / 1000 - 0.05, (library_state(browser), saved)
    click(browser, "lib-stop")
    wait_for(browser, lambda d: is_hidden(d, "lib-player"))
    go(browser, "meditate")
    stop_practice(browser, "m-stop")
    click(browser, "m-done")
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-start"))

    # An own ambient bed: marked in the Library, offered after the built-in beds, played in the
    # browser from the library while the server's plan says silent.
    status, _ = server.api("PATCH", f"/library/{morning}", {"isAmbientBed": True})
    assert status == 200
    go(browser, "library")
    go(browser, "meditate")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#m-ambient option[value="library:{morning}"]'),
             message="the own bed is not offered")
    meditate_options(browser)
    select = Select(browser.find_element(By.ID, "m-ambient"))
    values = [o.get_attribute("value") for o in select.options]
    assert values[-1] == f"library:{morning}" and values.index("rain") < values.index(f"library:{morning}"), values
    select.select_by_value(f"library:{morning}")
    click(browser, "m-start")
    ambient = wait_for(browser, lambda d: d.execute_script(
        "const a = window.momentumPlayer.ambient; return a && a.state === 'playing' ? a : null"),
        timeout=20, message="the own ambient bed did not start")
    assert ambient["id"] == f"library:{morning}", ambient
    runs = [r for r in server.get("/runs")["runs"] if r["kind"] == "meditation"]
    assert runs and runs[-1]["timeline"].get("ambient") is None, runs
    stop_practice(browser, "m-stop")
    click(browser, "m-done")
    wait_for(browser, lambda d: d.find_elements(By.ID, "m-start"))
    assert Select(browser.find_element(By.ID, "m-ambient")).first_selected_option.get_attribute("value") \
        == f"library:{morning}"
