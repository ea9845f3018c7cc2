"""Morse keys and paddles (issue 44).

- The page's keyer (js/morse-keyer.js) keys every case of keyer-fixtures.json as the core's
  PaddleKeyer does (PaddleKeyerTests reads the same table).
- Paddle scripts sent as key events with their timestamps, through Settings → Morse key, in modes A
  and B: the page's keyer gives the table's elements, and the server's decoder reads them (K in A,
  C in B).
- The sidetone runs in an AudioWorklet; its start after a real key press is measured and written
  to ARTIFACTS/keyer-latency.json.
- A send session keyed with paddles: the keyer's elements go to the session and are scored.
"""
import json

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, PHONE, DESKTOP, go, open_app, set_size, shot, wait_for

FIXTURES = json.loads((__import__("pathlib").Path(__file__).with_name("keyer-fixtures.json")).read_text())
CASES = {case["name"]: case for case in FIXTURES["cases"]}
SQUEEZE_A = "squeeze, dah first, both let go during the second dah: mode A stops"
SQUEEZE_B = "squeeze, dah first, both let go during the second dah: mode B adds the dit (C)"
KEY_CODES = {".": ("[", "BracketLeft"), "-": ("]", "BracketRight")}
CTRL_CODES = {".": ("Control", "ControlLeft"), "-": ("Control", "ControlRight")}

# Dispatches a paddle script as keydown/keyup events whose timeStamp is the script's instant after
# a base a little ahead of now, on the element that has the focus. Returns the base.
DISPATCH = """
const [script, codes] = arguments;
const base = performance.now() + 30;
const target = document.activeElement || document.body;
for (const event of script) {
  const [key, code] = codes[event.paddle];
  const e = new KeyboardEvent(event.down ? 'keydown' : 'keyup', { key, code, bubbles: true, cancelable: true, ctrlKey: key === 'Control' && event.down });
  Object.defineProperty(e, 'timeStamp', { value: base + event.at });
  target.dispatchEvent(e);
}
return base;
"""


def relative(elements, base):
    return [{"mark": e["mark"], "start": round(e["start"] - base, 3), "end": round(e["end"] - base, 3)}
            for e in elements]


def expected(case):
    return [{"mark": e["mark"], "start": e["start"], "end": e["end"]} for e in case["elements"]]


def same_elements(made, wanted):
    return len(made) == len(wanted) and all(
        m["mark"] == w["mark"] and abs(m["start"] - w["start"]) < 0.001 and abs(m["end"] - w["end"]) < 0.001
        for m, w in zip(made, wanted))


def test_the_page_keyer_keys_every_case_of_the_shared_table(server, browser):
    open_app(browser, server, "morse")
    made = browser.execute_async_script("""
        const [cases, done] = arguments;
        import('/js/morse-keyer.js').then(({ keyScript }) => done(cases.map((c) =>
          keyScript(c.events, { unitMs: 1200 / c.wpm, mode: c.mode, until: c.until })
            .map((e) => ({ mark: e.mark, start: Math.round(e.start * 1000) / 1000, end: Math.round(e.end * 1000) / 1000 })))));
    """, FIXTURES["cases"])
    assert len(made) == len(FIXTURES["cases"]) >= 15
    for case, elements in zip(FIXTURES["cases"], made):
        assert same_elements(elements, expected(case)), (case["name"], elements)


def key_pad(browser, server, mode):
    go(browser, "settings")
    pad = wait_for(browser, lambda d: d.find_element(By.ID, "k-pad").get_attribute("data-ready") and
                   d.find_element(By.ID, "k-pad"), message="the key pad did not get the keyer")
    Select(browser.find_element(By.ID, "k-kind")).select_by_value("paddles")
    Select(browser.find_element(By.ID, "k-mode")).select_by_value(mode)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", pad)
    return pad


def test_paddle_scripts_as_key_events_key_the_tables_elements_in_modes_a_and_b(server, browser):
    open_app(browser, server, "morse")
    assert server.get("/morse/keyer")["unitMilliseconds"] == 60  # the course's 20 wpm
    for name, letter, codes in ((SQUEEZE_A, "K", KEY_CODES), (SQUEEZE_B, "C", CTRL_CODES)):
        case = CASES[name]
        key_pad(browser, server, case["mode"])
        base = browser.execute_script(DISPATCH, case["events"], codes)
        made = wait_for(browser, lambda d: len(d.execute_script("return window.momentumKeying.elements")) ==
                        len(case["elements"]) and d.execute_script("return window.momentumKeying.elements"),
                        message=f"{name}: the page keyed no elements")
        assert same_elements(relative(made, base), expected(case)), (name, relative(made, base))
        # After a rest the keying goes to the server's decoder as down/up signals: the elements'.
        wait_for(browser, lambda d: d.find_element(By.ID, "k-read").text == f"Read so far: {letter}",
                 timeout=6, message=f"{name}: not read as {letter}")
        signals = browser.execute_script("return window.momentumKeying.signals")
        downs = [s["down"] for s in signals if "down" in s]
        assert downs == [(e["end"] - e["start"]) for e in case["elements"]], signals
        ups = [s["up"] for s in signals if "up" in s]
        assert ups == [60] * (len(case["elements"]) - 1), signals
        shot(browser, f"desktop-settings-morse-key-{case['mode']}")


# The same script as touches on the pad: its left half is the dit contact, its right half the dah.
TOUCH = """
const [script, pad] = arguments;
const box = pad.getBoundingClientRect();
const base = performance.now() + 30;
for (const event of script) {
  const x = event.paddle === '.' ? box.left + box.width / 4 : box.right - box.width / 4;
  const e = new PointerEvent(event.down ? 'pointerdown' : 'pointerup', { pointerType: 'touch', pointerId: event.paddle === '.' ? 11 : 12,
    clientX: x, clientY: box.top + box.height / 2, bubbles: true, cancelable: true, isPrimary: event.paddle === '.' });
  Object.defineProperty(e, 'timeStamp', { value: base + event.at });
  pad.dispatchEvent(e);
}
return base;
"""


def test_two_fingers_on_the_pad_squeeze_the_paddles(server, browser):
    open_app(browser, server, "morse")
    case = CASES[SQUEEZE_B]
    pad = key_pad(browser, server, case["mode"])
    browser.execute_script("document.activeElement.blur()")  # a touch gives the pad the focus itself
    base = browser.execute_script(TOUCH, case["events"], pad)
    made = wait_for(browser, lambda d: len(d.execute_script("return window.momentumKeying.elements")) ==
                    len(case["elements"]) and d.execute_script("return window.momentumKeying.elements"),
                    message="the touches keyed no elements")
    assert same_elements(relative(made, base), expected(case)), relative(made, base)
    wait_for(browser, lambda d: d.find_element(By.ID, "k-read").text == "Read so far: C", timeout=6)
    assert "Your keying: 20 wpm" in browser.find_element(By.ID, "k-report").text


def test_a_paddle_held_when_the_page_loses_the_focus_is_let_go(server, browser):
    open_app(browser, server, "morse")
    key_pad(browser, server, "iambicB")
    # Ctrl is the dit paddle: Ctrl+Tab away would leave it down, keying dits for ever.
    browser.execute_script(DISPATCH, [{"paddle": ".", "down": True, "at": 0}], CTRL_CODES)
    wait_for(browser, lambda d: len(d.execute_script("return window.momentumKeying.elements")) >= 2)
    browser.execute_script("window.dispatchEvent(new Event('blur'))")
    wait_for(browser, lambda d: d.find_element(By.ID, "k-read").text.startswith("Read so far:"), timeout=6,
             message="the keying never rested")
    count = len(browser.execute_script("return window.momentumKeying.signals"))
    assert count >= 3, count


def test_the_sidetone_runs_in_an_audio_worklet_and_its_start_is_measured(server, browser):
    open_app(browser, server, "morse")
    pad = key_pad(browser, server, "iambicB")
    wait_for(browser, lambda d: d.execute_script("return window.momentumKeying.worklet"),
             message="the sidetone's worklet did not load")
    for _ in range(7):
        ActionChains(browser).key_down("[").pause(0.03).key_up("[").pause(0.3).perform()
    wait_for(browser, lambda d: len(d.execute_script("return window.momentumKeying.latencies")) >= 5,
             message="the worklet reported no sidetone start")
    state = browser.execute_script("""
        const k = window.momentumKeying;
        return { worklet: k.worklet, latencies: k.latencies, sampleRate: k.sampleRate, baseLatency: k.baseLatency,
                 outputLatency: k.outputLatency };
    """)
    assert state["worklet"], state
    latencies = sorted(state["latencies"])
    report = {**state, "medianMs": latencies[len(latencies) // 2], "worstMs": latencies[-1],
              "renderQuantumMs": 128 / state["sampleRate"] * 1000 if state["sampleRate"] else None}
    (ARTIFACTS / "keyer-latency.json").write_text(json.dumps(report, indent=2) + "\n")
    print("sidetone start after the key:", report)
    # Within one audio buffer of the device, with room for the page's event handling; the figure
    # itself is reported, not judged here (a timed assertion would be flaky).
    assert 0 <= report["medianMs"] < 100, report
    wait_for(browser, lambda d: "ms after the key" in d.find_element(By.ID, "k-latency").text)
    assert pad.is_displayed()
    shot(browser, "desktop-settings-morse-key")
    set_size(browser, *PHONE)
    browser.execute_script("document.getElementById('k-key').scrollIntoView()")
    shot(browser, "phone-settings-morse-key")
    set_size(browser, *DESKTOP)


def test_a_send_session_keyed_with_paddles_is_scored(server, browser):
    open_app(browser, server, "morse")
    browser.execute_script("localStorage.setItem('momentum.morseKey', JSON.stringify({kind: 'paddles', mode: 'iambicB'}))")
    browser.execute_script("document.getElementById('view-morse').dataset.seed = '7'")
    browser.find_element(By.ID, "mo-start-send").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-begin"))[0].click()
    target = wait_for(browser, lambda d: d.find_element(By.ID, "mo-target").text in ("K", "M") and
                      d.find_element(By.ID, "mo-target").text, message="no target shown")
    browser.find_element(By.ID, "mo-mode-keyer").click()
    # Not a touch screen: a pad for an adapter's mouse buttons, no on-screen paddles.
    assert browser.find_element(By.ID, "mo-paddle-pad").is_displayed()
    assert not browser.find_element(By.ID, "mo-paddle-dit").is_displayed()
    assert not browser.find_element(By.ID, "mo-dit").is_displayed()
    wait_for(browser, lambda d: d.find_element(By.ID, "mo-drill").get_attribute("data-state") == "keying")
    # Mode B: K is a squeeze let go in the dit; M is the dah paddle held for two dahs.
    scripts = {
        "K": [{"paddle": "-", "down": True, "at": 0}, {"paddle": ".", "down": True, "at": 30},
              {"paddle": "-", "down": False, "at": 250}, {"paddle": ".", "down": False, "at": 300}],
        "M": [{"paddle": "-", "down": True, "at": 0}, {"paddle": "-", "down": False, "at": 250}],
    }
    browser.execute_script("document.activeElement.blur()")
    browser.execute_script(DISPATCH, scripts[target], KEY_CODES)
    patterns = {"K": "− · −", "M": "− −"}  # as the page shows them
    wait_for(browser, lambda d: patterns[target] in d.find_element(By.ID, "mo-pattern").text, timeout=4,
             message="the keyed elements did not show")
    shot(browser, "desktop-morse-paddles")
    wait_for(browser, lambda d: d.find_element(By.ID, "mo-training").get_attribute("data-attempts") == "1",
             timeout=6, message="the keying was not sent")
    feedback = browser.find_element(By.ID, "mo-feedback")
    assert "right" in feedback.get_attribute("class"), feedback.text
    # How it was keyed: the keyer's exact elements at the course's 20 wpm.
    assert "Your keying: 20 wpm" in browser.find_element(By.ID, "mo-keying").text
    session_id = browser.find_element(By.ID, "mo-training").get_attribute("data-session-id")
    assert server.get(f"/morse/sessions/{session_id}")["lastAttempt"]["answer"] == target
    browser.find_element(By.ID, "mo-end").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "mo-results"))
