"""The theme is chosen per device (issue 39): System (the default) follows the device as it
changes; Light and Dark stay, across a reload, whatever the device says."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import axe_violations, open_app, set_color_scheme, set_size, shot, wait_for

THEME = "return [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]"


def test_a_theme_chosen_in_settings_stays_and_system_follows_the_device(server, browser):
    set_size(browser, 390, 844)
    set_color_scheme(browser, "light")
    open_app(browser, server, "settings")
    theme = wait_for(browser, lambda d: d.find_element(By.ID, "s-theme"))
    assert Select(theme).first_selected_option.get_attribute("value") == "system"
    light = browser.execute_script(THEME)
    assert light[0] == "light", light
    # System follows the device.
    set_color_scheme(browser, "dark")
    wait_for(browser, lambda d: d.execute_script(THEME)[0] == "dark", message="System did not follow the device")
    set_color_scheme(browser, "light")
    wait_for(browser, lambda d: d.execute_script(THEME)[0] == "light")
    # Dark, chosen on a light device, stays across a reload.
    Select(browser.find_element(By.ID, "s-theme")).select_by_value("dark")
    wait_for(browser, lambda d: d.execute_script(THEME)[0] == "dark", message="Dark was not applied")
    browser.refresh()
    wait_for(browser, lambda d: d.find_elements(By.ID, "s-theme"))
    dark = browser.execute_script(THEME)
    assert dark[0] == "dark" and dark[1] != light[1], (dark, light)
    assert Select(browser.find_element(By.ID, "s-theme")).first_selected_option.get_attribute("value") == "dark"
    shot(browser, "settings-theme-dark-on-light-device-390")
    assert axe_violations(browser) == []
    # Light, chosen on a dark device, stays light.
    set_color_scheme(browser, "dark")
    Select(browser.find_element(By.ID, "s-theme")).select_by_value("light")
    wait_for(browser, lambda d: d.execute_script(THEME)[0] == "light", message="Light was not applied")
    Select(browser.find_element(By.ID, "s-theme")).select_by_value("system")
    wait_for(browser, lambda d: d.execute_script(THEME)[0] == "dark", message="System did not follow the dark device")
