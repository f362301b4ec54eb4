"""The notebook widget in a real headless browser (Debian's chromium, driven through chromedriver).

The page loads the widget's own ES module and stylesheet and hands ``render`` a small stand-in for anywidget's
model: ``get``/``set``/``on``/``off`` over the synced traits, and ``send``, which posts the message to this test's
loopback server; the server delivers it to the Python widget as the kernel's comm would
(``_handle_custom_msg``) and answers with the update messages the widget sent through its comm, which the
stand-in applies and announces as ``change:NAME`` events, as anywidget does. So the round trip browser →
Python model → browser is the real one, with the kernel's transport replaced by HTTP on 127.0.0.1.
"""

from __future__ import annotations

import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("anywidget", reason="the notebook extra (anywidget) is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (the test extra) is not installed")

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from bloomviz.items.encoding import to_bytes  # noqa: E402
from bloomviz.notebook import BloomWidget  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                reason="needs Debian's chromium and chromium-driver (apt-get install chromium "
                                       "chromium-driver; .ci/run installs them)")

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/widget.css"></head>
<body><div id="root"></div><script type="module">
import widget from "/widget.js";
const state = await (await fetch("/state")).json();
const listeners = {};
function apply(updates) {
  // as Backbone's set (anywidget's model): every value of an update first, then its change events
  for (const update of updates) {
    Object.assign(state, update);
    for (const name of Object.keys(update)) for (const fn of listeners["change:" + name] || []) fn();
  }
}
const model = {
  get: (name) => state[name],
  set: (name, value) => { state[name] = value; },
  save_changes: () => {},
  on: (event, fn) => { (listeners[event] ||= []).push(fn); },
  off: (event, fn) => { listeners[event] = (listeners[event] || []).filter((f) => f !== fn); },
  send: async (content) => {
    const answer = await fetch("/msg", { method: "POST", body: JSON.stringify(content) });
    apply(await answer.json());
  },
};
widget.render({ model, el: document.getElementById("root") });
document.body.dataset.rendered = "yes";
</script></body></html>"""


@pytest.fixture
def served():
    w = BloomWidget(m=64, k=3, probes=500)
    updates, lock = [], threading.Lock()
    w.comm.send = lambda data=None, metadata=None, buffers=None: updates.append(data["state"]) \
        if data and data.get("method") == "update" else None
    synced = [n for n in BloomWidget.class_trait_names(sync=True) if not n.startswith("_")
              and n not in ("layout", "tabbable", "tooltip")]
    # what anywidget hands the front end: the module's and the stylesheet's text
    files = {"/widget.js": (str(w._esm), "text/javascript"), "/widget.css": (str(w._css), "text/css")}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, body: bytes, kind: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.path == "/":
                self.reply(PAGE.encode(), "text/html; charset=utf-8")
            elif self.path == "/state":
                with lock:
                    self.reply(json.dumps({n: getattr(w, n) for n in synced}).encode(), "application/json")
            elif self.path in files:
                text, kind = files[self.path]
                self.reply(text.encode(), kind)
            else:
                self.send_error(404)

        def do_POST(self):
            content = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with lock:
                del updates[:]
                w._handle_custom_msg(content, [])
                self.reply(json.dumps(updates).encode(), "application/json")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield w, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage", "--no-first-run", "--window-size=900,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def distinct_item(flt, prefix: str, want_member: bool | None = None) -> str:
    """An item whose k positions are distinct (so it lights k cells), optionally already passing or not."""
    for i in range(10_000):
        item = f"{prefix}{i}@acme.com"
        if len(set(flt.positions(to_bytes(item)))) == flt.k and (want_member is None
                                                                 or (to_bytes(item) in flt) == want_member):
            return item
    raise AssertionError("no such item among 10,000")


def test_the_grid_renders_an_insert_lights_k_cells_and_a_lookup_shows_its_verdict(served, browser):
    w, url = served
    wait = WebDriverWait(browser, 30)
    browser.get(url)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".bv-cell")) == 64)
    assert browser.find_element(By.CSS_SELECTOR, ".bv-fill").text == w.fill_line
    assert not browser.find_elements(By.CSS_SELECTOR, ".bv-cell.on")

    item = distinct_item(w.workbench.filter, "ana")
    field = browser.find_element(By.CSS_SELECTOR, ".bv-item")
    field.send_keys(item)
    browser.find_element(By.CSS_SELECTOR, ".bv-insert").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".bv-cell.lit")) == 3)
    lit = sorted(int(c.get_attribute("data-i")) for c in browser.find_elements(By.CSS_SELECTOR, ".bv-cell.lit"))
    assert lit == sorted(w.workbench.last_record.positions) and w.n == 1
    assert len(browser.find_elements(By.CSS_SELECTOR, ".bv-cell.on")) == 3
    assert browser.find_element(By.CSS_SELECTOR, ".bv-verdict").text.startswith("INSERTED — Inserted “")
    first = browser.find_element(By.CSS_SELECTOR, f'.bv-cell[data-i="{lit[0]}"]')
    ActionChains(browser).move_to_element(first).perform()   # pointing at a cell asks the model who set it
    wait.until(lambda d: f"set by: {item}" in d.find_element(By.CSS_SELECTOR, ".bv-cell-text").text)

    stranger = distinct_item(w.workbench.filter, "zed", want_member=False)
    field.clear()
    field.send_keys(stranger)
    browser.find_element(By.CSS_SELECTOR, ".bv-lookup").click()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".bv-verdict").text.startswith("TRUE NEGATIVE"))
    verdict = browser.find_element(By.CSS_SELECTOR, ".bv-verdict")
    assert w.verdict_text in verdict.text and "definitely not in the set" in verdict.text
    assert verdict.get_attribute("role") == "status"
    kinds = {c.get_attribute("class") for c in browser.find_elements(By.CSS_SELECTOR, ".bv-cell.lit")}
    assert any("k-zero" in k for k in kinds)
    assert browser.find_element(By.CSS_SELECTOR, ".bv-rate").text == w.rate_line

    field.clear()
    browser.find_element(By.CSS_SELECTOR, ".bv-insert").click()   # an empty item: the model refuses it
    wait.until(lambda d: "the item is empty" in d.find_element(By.CSS_SELECTOR, ".bv-error").text)
    assert w.n == 1
