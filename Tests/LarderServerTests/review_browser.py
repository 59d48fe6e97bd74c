#!/usr/bin/env python3
"""Drives the review page in headless Chromium (Debian's chromium + chromium-driver) through selenium.

Usage: review_browser.py BASE_URL RECEIPT_ID NEW_TOTAL SCREENSHOT_FOLDER [PDF_ID] [PAGE_ID]

Opens the queue, opens the receipt, checks the photo is shown with its OCR boxes (and that choosing the total's
box lights the total field), changes the total, accepts (the `a` key), and checks the page says the version was
saved. Saves screenshots of the queue, the receipt and, when given, a PDF and a saved page. Prints one JSON line
with what it saw; exits non-zero on any failure. Run by ReviewBrowserTests (slow tier) in a throwaway virtualenv.
"""
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait


def main():
    base, receipt_id, new_total, shots = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    extra = sys.argv[5:]
    os.makedirs(shots, exist_ok=True)
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1100"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    seen = {}
    try:
        wait = WebDriverWait(driver, 30)
        driver.get(base + "/review")
        wait.until(EC.presence_of_element_located((By.TAG_NAME, "h1")))
        seen["queueTitle"] = driver.find_element(By.TAG_NAME, "h1").text
        driver.save_screenshot(os.path.join(shots, "queue.png"))
        link = driver.find_element(By.CSS_SELECTOR, 'a[href="/review/%s"]' % receipt_id)
        link.click()
        wait.until(EC.presence_of_element_located((By.ID, "photo")))
        wait.until(lambda d: d.execute_script("const i = document.getElementById('photo'); return i.complete && i.naturalWidth > 0;"))
        seen["photoWidth"] = driver.execute_script("return document.getElementById('photo').naturalWidth;")
        seen["boxes"] = len(driver.find_elements(By.CSS_SELECTOR, "svg.overlay rect.box"))
        seen["totalBoxes"] = len(driver.find_elements(By.CSS_SELECTOR, "svg.overlay rect.role-total"))
        total_input = driver.find_element(By.CSS_SELECTOR, 'input[name="/receipt/totals/total"]')
        # Choosing the total's box lights the total's field.
        boxes = driver.find_elements(By.CSS_SELECTOR, "svg.overlay rect.role-total")
        if boxes:
            driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}));", boxes[0])
            field = total_input.find_element(By.XPATH, "..")
            seen["totalFieldLit"] = "lit" in (field.get_attribute("class") or "")
        driver.save_screenshot(os.path.join(shots, "receipt.png"))
        total_input.clear()
        total_input.send_keys(new_total)
        total_input.send_keys(Keys.ESCAPE)  # leave the field, so the next key is a shortcut
        driver.find_element(By.TAG_NAME, "body").send_keys("a")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "div.notice")))
        seen["notice"] = driver.find_element(By.CSS_SELECTOR, "div.notice").text
        seen["totalAfter"] = driver.find_element(By.CSS_SELECTOR, 'input[name="/receipt/totals/total"]').get_attribute("value")
        driver.save_screenshot(os.path.join(shots, "receipt-accepted.png"))
        for name, document in zip(("pdf", "page"), extra):
            driver.get(base + "/review/" + document)
            wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "section.source")))
            seen[name + "Lines"] = len(driver.find_elements(By.CSS_SELECTOR, "section.source .used, section.source pre"))
            driver.save_screenshot(os.path.join(shots, name + ".png"))
        seen["consoleErrors"] = [
            entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"
        ]
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
