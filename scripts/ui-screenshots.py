#!/usr/bin/env python3
"""Screenshots of the web UI with headless Chromium, phone (360x740) and desktop (1280x800).

Usage: scripts/ui-screenshots.py BASE_URL OUTPUT_DIR   (e.g. http://127.0.0.1:8099 /tmp/shots)

Takes Meditate idle, running and stopped, Progress (and its sessions, strength, year and statistics
sections), Breathe (idle, the preset editor, running), Timers, Settings,
Meditate in German (switched in Settings and back), and
prints the browser console, the cues the player scheduled and catalog keys the UI had to fall back
for. Needs `pip install selenium` and chromium + chromium-driver.
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def driver(width, height, scheme):
    options = Options()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument("--autoplay-policy=no-user-gesture-required")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(options=options)
    d.set_window_size(width, height)
    d.execute_cdp_cmd("Emulation.setEmulatedMedia",
                      {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 720})
    return d


def wait_for(d, css, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        found = d.find_elements(By.CSS_SELECTOR, css)
        if found and found[0].is_displayed():
            return found[0]
        time.sleep(0.2)
    raise TimeoutError(css)


def click(d, css):
    node = d.find_element(By.CSS_SELECTOR, css)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", node)
    time.sleep(0.2)
    node.click()


def main():
    base, out = sys.argv[1].rstrip("/"), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for (w, h, label) in [(360, 740, "phone"), (1280, 800, "desktop")]:
        for scheme in ["light", "dark"]:
            d = driver(w, h, scheme)
            tag = f"{label}-{scheme}"
            try:
                d.get(f"{base}/#meditate")
                wait_for(d, "#m-start")
                d.save_screenshot(f"{out}/meditate-idle-{tag}.png")
                click(d, "#m-start")
                wait_for(d, "#m-ring")
                time.sleep(2.5)
                d.save_screenshot(f"{out}/meditate-running-{tag}.png")
                print(tag, "title:", d.title)
                print(tag, "scheduled:", json.dumps(d.execute_script("return window.momentumPlayer")))
                click(d, "#m-pause")
                time.sleep(0.5)
                click(d, "#m-stop")
                time.sleep(0.5)
                click(d, "#stop-keep")
                time.sleep(1)
                d.save_screenshot(f"{out}/meditate-stopped-{tag}.png")
                for section, css in [("progress", ".calendar"), ("breathe", "#b-preset"),
                                     ("timers", "#h-timers"), ("settings", "#s-language")]:
                    d.get(f"{base}/#{section}")
                    try:
                        wait_for(d, css)
                    except TimeoutError:
                        print(tag, section, "did not render", css)
                    time.sleep(0.4)
                    d.save_screenshot(f"{out}/{section}-{tag}.png")
                d.get(f"{base}/#progress")
                time.sleep(1)  # a revisited section draws itself again
                for sid in ["log", "strength", "year", "stats"]:
                    node = wait_for(d, f"#{sid}")
                    d.execute_script("arguments[0].scrollIntoView()", node)
                    time.sleep(0.2)
                    node.screenshot(f"{out}/progress-{sid}-{tag}.png")
                d.get(f"{base}/#breathe")
                wait_for(d, "#b-preset")
                click(d, "#b-new")
                wait_for(d, "#b-editor")
                d.save_screenshot(f"{out}/breathe-editor-{tag}.png")
                click(d, "#b-cancel")
                click(d, "#view-breathe button[type=submit]")
                time.sleep(3)
                d.save_screenshot(f"{out}/breathe-running-{tag}.png")
                d.get(f"{base}/#settings")
                Select(wait_for(d, "#s-language")).select_by_value("de")
                time.sleep(1.5)
                d.get(f"{base}/#meditate")
                wait_for(d, "#m-start")
                time.sleep(0.5)
                d.save_screenshot(f"{out}/meditate-idle-de-{tag}.png")
                d.get(f"{base}/#settings")
                Select(wait_for(d, "#s-language")).select_by_value("en")
                time.sleep(1)
                print(tag, "missing catalog keys:", d.execute_script("return window.momentumI18n.missingKeys()"))
                for entry in d.get_log("browser"):
                    print(tag, "console:", entry["level"], entry["message"][:300])
            finally:
                d.quit()


if __name__ == "__main__":
    main()
