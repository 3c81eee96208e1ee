"""The chat page in a real browser: Debian's headless Chromium driven by Playwright.

Load the page, attach a photo, send a request, wait for the streamed answer, and check
that the edge map the server produced is shown. A screenshot is kept in
tests/server/artifacts/chat-page.png.
"""

from pathlib import Path

import numpy as np
from PIL import Image
from playwright.sync_api import expect

from .conftest import API_KEY, ARTIFACTS, canny, fetch_image, shape_image, upload


def test_chat_page_uploads_streams_and_shows_the_produced_image(browser, server, client, tmp_path):
    import skimage

    photo = tmp_path / "chelsea.jpg"  # a real photo of a cat, shipped with scikit-image (as JPEG: ~30 kB)
    Image.open(Path(skimage.__file__).parent / "data" / "chelsea.png").save(photo, quality=90)
    page = browser.new_page(viewport={"width": 1200, "height": 1400})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    expect(page.locator("#status")).to_contain_text("tasks with a model ready here")
    expect(page.locator("#key-form")).to_be_hidden()

    page.set_input_files("#attach", str(photo))
    chip = page.locator("#attachments .chip.ready")
    expect(chip).to_have_count(1, timeout=20_000)
    expect(chip.locator("img")).to_have_count(1)

    page.fill("#request", "Make a canny edge map of this photo")
    page.click("#send")
    turn = page.locator(".turn.assistant.done")
    expect(turn).to_have_count(1, timeout=60_000)
    expect(turn.locator(".stages")).to_contain_text("plan (llm): 0 canny-control")
    expect(turn.locator(".stages")).to_contain_text("model for task 0: opencv-canny")
    expect(turn.locator(".answer")).to_contain_text("Edge map ready for: Make a canny edge map of this photo")

    shown = turn.locator(".answer-media img")
    expect(shown).to_have_count(1)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=shown.element_handle())
    size = shown.evaluate("img => [img.naturalWidth, img.naturalHeight]")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "chat-page.png"), full_page=True)
    print(f"screenshot: {ARTIFACTS / 'chat-page.png'}")
    src = shown.get_attribute("src")
    assert errors == []
    page.close()

    edges = fetch_image(client, src)
    assert src.startswith("/files/outputs/canny-") and list(edges.shape[::-1]) == size
    assert np.array_equal(edges, canny(photo))  # the page shows the edge map of the photo it sent


def test_chat_page_asks_for_the_key_when_auth_is_on(browser, start_server, tmp_path):
    key = API_KEY + "+/=="  # written URL-encoded into the cookie that authorises <img> loads
    locked = start_server(api_key=key)
    with locked.client(headers={"Authorization": f"Bearer {key}"}) as http:
        stored = upload(http, shape_image(tmp_path / "keyed.png", 4))
    page = browser.new_page()
    page.goto(locked.url + "/")
    expect(page.locator("#key-form")).to_be_visible()
    page.fill("#api-key", key)
    page.click("#key-form button")
    expect(page.locator("#key-form")).to_be_hidden()
    page.fill("#request", "hello")
    page.click("#send")
    expect(page.locator(".turn.assistant.done .answer")).to_have_text("Hello! Send me an image for an edge map.")
    size = page.evaluate("""url => new Promise(done => {
        const img = new Image();
        img.onload = () => done([img.naturalWidth, img.naturalHeight]);
        img.onerror = () => done(null);
        img.src = url;
    })""", stored["url"])
    assert size == list(Image.open(tmp_path / "keyed.png").size)
    page.close()
