"""Settings → Back up & restore: the backup shows what it holds and its size before the download,
the downloaded archive restores into a fresh server after the person has seen what it holds and
said yes, the restored data shows in the app, Cancel restores nothing, and a damaged file shows
the server's sentence (in the person's language) and changes nothing. Screenshots of the card at
320, 390 and 1280 px in both themes."""
import tempfile
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import (DESKTOP, allow_console, axe_violations, go, open_app, run_server, set_color_scheme, set_size,
                      shot, wait_for)

FIXTURES = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures" / "audio"
SIZES = [(320, 640), (390, 844), DESKTOP]


def seed(server):
    """A log record, a breathing preset, a focus timer with its checklist and a guided meditation."""
    for path, body in [
        ("/log", {"kind": "meditation", "start": "2026-01-10T07:00:00Z", "durationMs": 900000}),
        ("/breathing/presets", {"name": "Evening calm", "pattern": "4-7-8-0", "rounds": 4}),
        ("/timers", {"name": "Tea ceremony", "durationMs": 180000, "items": ["Kettle", "Cups"]}),
    ]:
        status, answer = server.api("POST", path, body)
        assert status == 201, (path, status, answer)
    request = urllib.request.Request(
        f"{server.url}/api/v1/library/upload?name=tagged.m4a", data=(FIXTURES / "tagged.m4a").read_bytes(),
        method="POST", headers={"Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(request, timeout=20) as response:
        assert response.status == 201


def text_of(driver, element_id):
    return driver.execute_script(
        "const n = document.getElementById(arguments[0]); return n ? n.textContent : null", element_id)


def card_shots(driver, name, anchor="backup-card"):
    """The backup card at every size in both themes (`anchor` scrolled to the top), checked to fit."""
    for width, height in SIZES:
        set_size(driver, width, height)
        for scheme in ("light", "dark"):
            set_color_scheme(driver, scheme)
            driver.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: 'start'})", anchor)
            shot(driver, f"backup-{name}-{width}-{scheme}")
            wide = driver.execute_script(
                "return Math.max(document.documentElement.scrollWidth, window.innerWidth) - arguments[0]", width)
            assert wide <= 0, f"{name} at {width} px: {wide} px too wide"
    set_size(driver, *DESKTOP)
    set_color_scheme(driver, "light")


def download_into(driver, folder):
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})


def downloaded(folder):
    files = [p for p in Path(folder).iterdir() if not p.name.endswith(".crdownload")]
    partial = [p for p in Path(folder).iterdir() if p.name.endswith(".crdownload")]
    return files[0] if len(files) == 1 and not partial else None


def choose(driver, path):
    driver.find_element(By.ID, "b-file").send_keys(str(path))


def test_back_up_then_restore_into_a_fresh_server(server, browser):
    seed(server)
    summary = server.get("/backup/summary")
    assert summary["counts"]["focusTimers"] == 1 and summary["counts"]["library"] == 1, summary

    open_app(browser, server, "settings")
    wait_for(browser, lambda d: d.find_element(By.ID, "b-backup").is_displayed(), message="no Back up button")
    browser.find_element(By.ID, "b-backup").click()
    link = wait_for(browser, lambda d: d.find_element(By.ID, "b-download"), message="the size was not shown")
    # The size and what it holds show before anything is downloaded.
    assert link.text == f"Download ({summary['archiveSize']})", link.text
    assert text_of(browser, "b-summary") == summary["message"]
    assert "focus timers: 1" in summary["message"] and "guided meditations: 1" in summary["message"], summary
    assert browser.switch_to.active_element == link, "focus moves to the download"
    card_shots(browser, "summary")

    folder = Path(tempfile.mkdtemp(prefix="momentum-download-"))
    download_into(browser, folder)
    browser.find_element(By.ID, "b-download").click()
    archive = wait_for(browser, lambda d: downloaded(folder), timeout=30, message="nothing was downloaded")
    assert archive.name.startswith("momentum-backup-") and archive.suffix == ".zip", archive.name
    assert archive.stat().st_size == summary["archiveBytes"], (archive.stat().st_size, summary["archiveBytes"])
    assert archive.read_bytes()[:4] == b"PK\x03\x04"

    fresh_server = run_server()
    fresh = next(fresh_server)
    try:
        open_app(browser, fresh, "settings")
        choose(browser, archive)
        wait_for(browser, lambda d: d.find_element(By.ID, "b-restore").is_displayed(), timeout=30,
                 message="the checked backup was not shown")
        lines = text_of(browser, "b-result")
        assert f"{archive.name} holds" in lines and "focus timers: 1" in lines, lines
        assert "Restoring would add" in lines and "Nothing was changed." in lines, lines
        assert text_of(browser, "b-question") == "Restore this backup?"
        assert fresh.get("/timers")["timers"] == [], "nothing is restored before the person says yes"
        violations = axe_violations(browser)
        assert not violations, violations
        card_shots(browser, "staged", "b-restore-part")

        browser.find_element(By.ID, "b-restore").click()
        wait_for(browser, lambda d: "Restored." in (text_of(d, "b-result") or ""), timeout=30,
                 message="the restore did not finish")
        shot(browser, "backup-restored-1280-light")
        assert [t["name"] for t in fresh.get("/timers")["timers"]] == ["Tea ceremony"]
        assert len(fresh.get("/log?lang=en")["records"]) == 1
        assert fresh.get("/library")["count"] == 1
        # The app shows the restored data.
        go(browser, "timers")
        wait_for(browser, lambda d: "Tea ceremony" in d.find_element(By.ID, "view-timers").text,
                 message="the restored timer does not show")
        go(browser, "library")
        wait_for(browser, lambda d: "Mara Lindqvist" in d.find_element(By.ID, "view-library").text
                 or len(d.find_elements(By.CSS_SELECTOR, "#view-library .lib-name")) == 1,
                 message="the restored meditation does not show")
    finally:
        next(fresh_server, None)


def test_cancel_restores_nothing_and_a_damaged_file_shows_the_sentence(server, browser):
    allow_console(browser, r"restores.* 422")
    seed(server)
    with urllib.request.urlopen(f"{server.url}/api/v1/backup", timeout=30) as response:
        archive = response.read()
    folder = Path(tempfile.mkdtemp(prefix="momentum-upload-"))
    whole = folder / "whole.zip"
    whole.write_bytes(archive)
    damaged = folder / "damaged.zip"
    damaged.write_bytes(archive[: len(archive) * 2 // 3])

    fresh_server = run_server()
    fresh = next(fresh_server)
    try:
        fresh.api("POST", "/log", {"kind": "workout", "start": "2026-01-09T07:00:00Z", "durationMs": 600000})
        before = fresh.get("/log?lang=en")  # ?lang: the records' words follow the language, set to German below
        assert len(before["records"]) == 1, before
        open_app(browser, fresh, "settings")

        # A slow connection: the upload shows its progress.
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 16 * 1024})
        set_size(browser, 390, 844)
        choose(browser, whole)
        progress = wait_for(browser, lambda d: d.execute_script(
            "const p = document.getElementById('b-progress'); return p && p.value > 0 ? p : null"),
            timeout=30, message="no upload progress shown")
        assert progress.get_attribute("aria-label") == "Upload of whole.zip"
        browser.execute_script("document.getElementById('b-restore-part').scrollIntoView({block: 'start'})")
        shot(browser, "backup-uploading-390-light")
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        set_size(browser, *DESKTOP)
        wait_for(browser, lambda d: d.find_element(By.ID, "b-cancel").is_displayed(), timeout=30)
        browser.find_element(By.ID, "b-cancel").click()
        wait_for(browser, lambda d: text_of(d, "b-result") == "Nothing was restored.")
        assert fresh.get("/log?lang=en") == before

        choose(browser, damaged)
        error = wait_for(browser, lambda d: text_of(d, "b-error"), timeout=30, message="no error shown")
        assert "damaged.zip" in error and error.endswith("Nothing was changed."), error
        assert fresh.get("/log?lang=en") == before
        assert fresh.get("/library")["count"] == 0
        card_shots(browser, "refused", "b-restore-part")

        # The same sentence in German, when the person reads German.
        status, _ = fresh.api("PATCH", "/settings", {"language": "de"})
        assert status == 200
        open_app(browser, fresh, "settings")
        wait_for(browser, lambda d: text_of(d, "b-title") == "Sichern & wiederherstellen")
        choose(browser, damaged)
        error = wait_for(browser, lambda d: text_of(d, "b-error"), timeout=30, message="no error shown")
        assert "damaged.zip" in error and error.endswith("Nichts wurde geändert."), error
        set_size(browser, 390, 844)
        browser.execute_script("document.getElementById('b-restore-part').scrollIntoView({block: 'start'})")
        shot(browser, "backup-refused-390-light-de")
        assert fresh.get("/log?lang=en") == before
    finally:
        next(fresh_server, None)
