"""Timers: a focus timer made through the API shows with its checklist; ticking an item persists."""
from selenium.webdriver.common.by import By

from conftest import go, open_app, shot, wait_for


def checkbox(driver, timer, item):
    return driver.find_element(By.ID, f"item-{timer['id']}-{item['id']}")


def done_on_server(server, timer_id):
    [timer] = [t for t in server.get("/timers")["timers"] if t["id"] == timer_id]
    return {i["text"]: i["done"] for i in timer["items"]}


def test_ticking_a_checklist_item_persists(server, browser):
    status, timer = server.api("POST", "/timers", {"name": "Morning pages", "durationMs": 25 * 60000,
                                                    "items": ["Water", "Notebook", "Phone away"]})
    assert status == 201, timer
    water, notebook = timer["items"][0], timer["items"][1]

    open_app(browser, server, "meditate")
    view = go(browser, "timers")
    card = view.find_element(By.CSS_SELECTOR, ".timer-list > li")
    assert card.find_element(By.TAG_NAME, "h2").text == "Morning pages"
    assert browser.find_element(By.ID, f"t-{timer['id']}-time").text == "25:00"
    assert [label.text for label in card.find_elements(By.CSS_SELECTOR, ".checklist label")] == [
        "Water", "Notebook", "Phone away"]

    # Clicking the item's text ticks it, as its label.
    card.find_element(By.XPATH, ".//label[.//span[text()='Notebook']]").click()
    wait_for(browser, lambda d: done_on_server(server, timer["id"])["Notebook"], message="the tick was not saved")
    wait_for(browser, lambda d: "done" in checkbox(d, timer, notebook).find_element(By.XPATH, "./ancestor::li[1]").get_attribute("class"))
    assert done_on_server(server, timer["id"]) == {"Water": False, "Notebook": True, "Phone away": False}

    browser.refresh()
    wait_for(browser, lambda d: d.find_elements(By.ID, f"item-{timer['id']}-{notebook['id']}"))
    assert checkbox(browser, timer, notebook).is_selected()
    assert not checkbox(browser, timer, water).is_selected()
    shot(browser, "timers-ticked")

    # And the tick comes off again.
    checkbox(browser, timer, notebook).click()
    wait_for(browser, lambda d: not done_on_server(server, timer["id"])["Notebook"], message="the untick was not saved")


def test_a_timer_made_in_the_form_gets_its_checklist(server, browser):
    open_app(browser, server, "meditate")
    go(browser, "timers")
    wait_for(browser, lambda d: d.find_elements(By.ID, "t-none"), message="no empty state for a new user")
    browser.find_element(By.ID, "t-name").send_keys("Tax return")
    minutes = browser.find_element(By.ID, "t-minutes")
    minutes.clear()
    minutes.send_keys("45")
    browser.find_element(By.ID, "t-items").send_keys("Receipts\nBank statements\n\n  Coffee  ")
    browser.find_element(By.ID, "t-add").click()
    card = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "li[data-testid=timer]"),
                    message="the new timer does not show")[0]
    [timer] = server.get("/timers")["timers"]
    assert (timer["name"], timer["durationMs"]) == ("Tax return", 45 * 60000)
    assert [i["text"] for i in timer["items"]] == ["Receipts", "Bank statements", "Coffee"]
    assert card.get_attribute("id") == f"t-{timer['id']}"
    assert browser.find_element(By.ID, f"t-{timer['id']}-time").text == "45:00"

    # An item added to the card's own field joins the checklist.
    browser.find_element(By.ID, f"t-{timer['id']}-new-item").send_keys("Sign it")
    browser.find_element(By.ID, f"t-{timer['id']}-add-item").click()
    wait_for(browser, lambda d: [i["text"] for i in server.get("/timers")["timers"][0]["items"]][-1] == "Sign it",
             message="the added item was not saved")

    receipts = timer["items"][0]
    wait_for(browser, lambda d: d.find_elements(By.ID, f"item-{timer['id']}-{receipts['id']}"))
    checkbox(browser, timer, receipts).click()
    wait_for(browser, lambda d: done_on_server(server, timer["id"])["Receipts"], message="the tick was not saved")
    assert done_on_server(server, timer["id"]) == {"Receipts": True, "Bank statements": False, "Coffee": False,
                                                   "Sign it": False}
    shot(browser, "timers-created-in-form")
