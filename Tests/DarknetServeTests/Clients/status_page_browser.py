"""Debian's headless Chromium on a swift-darknet server's status page: it loads the page, chooses a
photo in the form, submits it, waits for the boxes to be drawn and reads what the page shows.

    status_page_browser.py CHROMIUM URL IMAGE OUTDIR [SCREENSHOT_WIDTH]

Chromium is driven over its DevTools protocol through --remote-debugging-pipe (JSON messages ended
by a NUL byte on file descriptors 3 and 4), so nothing beyond the standard library is needed; Pillow
only shrinks the screenshot. Prints one JSON line: the page's title and state, its tables' text,
the status line after the upload, the listed detections with the colour each was drawn in and the
colour of the canvas pixel in the middle of its bottom edge, and the screenshots' paths
(OUTDIR/status-page.png as taken, OUTDIR/status-page-small.png resized to SCREENSHOT_WIDTH).
"""
import base64
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time

from PIL import Image


class DevTools:
    """The DevTools protocol over Chromium's pipe: commands, their replies, and events kept."""

    def __init__(self, chromium, profile):
        # Chromium's ends are moved above 10 first, so that placing them at 3 and 4 in the child
        # never overwrites one with the other; dup2 makes the copies survive exec.
        to_browser_read, self.to_browser = [self.high(fd) for fd in os.pipe()]
        self.from_browser, from_browser_write = [self.high(fd) for fd in os.pipe()]

        def wire():
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "--window-size=1000,1500", "about:blank"],
            close_fds=False, preexec_fn=wire,
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(profile, "chromium.log"), "w"))
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    @staticmethod
    def high(fd):
        """`fd` moved to a descriptor number of at least 10 (close-on-exec)."""
        moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        return moved

    def command(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = self.read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)
        raise TimeoutError(method)

    def read(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("no message from Chromium")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self):
        try:
            self.command("Browser.close", timeout=10)
        except Exception:  # noqa: BLE001 - it may already be gone
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


READ_PAGE = """(() => {
  const canvas = document.getElementById('canvas');
  const context = canvas.getContext('2d');
  const hex = (r, g, b) => '#' + [r, g, b].map(v => v.toString(16).padStart(2, '0')).join('');
  const items = [...document.querySelectorAll('#detections li')].map((li, index) => {
    const box = li.textContent.match(/\\[(\\d+), (\\d+), (\\d+), (\\d+)\\]/).slice(1).map(Number);
    const x = Math.round((box[0] + box[2]) / 2), y = Math.min(box[3], canvas.height - 1);
    const pixel = context.getImageData(x, y, 1, 1).data;
    return {text: li.textContent, color: palette[index % palette.length], pixel: hex(pixel[0], pixel[1], pixel[2])};
  });
  return JSON.stringify({title: document.title, state: document.getElementById('state').textContent,
    models: document.getElementById('models').innerText, requests: document.getElementById('requests').innerText,
    status: document.getElementById('result-status').textContent, boxes: canvas.dataset.boxes || null,
    canvas: [canvas.width, canvas.height], items: items, palette: palette});
})()"""


def evaluate(tools, session, expression):
    result = tools.command("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
    return result["result"].get("value")


def main():
    chromium, url, image, outdir = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    small_width = int(sys.argv[5]) if len(sys.argv) > 5 else 640
    with tempfile.TemporaryDirectory() as profile:
        tools = DevTools(chromium, profile)
        try:
            target = tools.command("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = tools.command("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            tools.command("Page.enable", session=session)
            tools.command("Emulation.setDeviceMetricsOverride",
                          {"width": 1000, "height": 1400, "deviceScaleFactor": 1, "mobile": False}, session)
            tools.command("Page.navigate", {"url": url}, session)
            deadline = time.time() + 30
            while evaluate(tools, session, "document.readyState") != "complete" or evaluate(tools, session, "!!document.getElementById('try')") is not True:
                if time.time() > deadline:
                    raise TimeoutError("the page did not load")
                time.sleep(0.05)
            document = tools.command("DOM.getDocument", session=session)["root"]["nodeId"]
            node = tools.command("DOM.querySelector", {"nodeId": document, "selector": "#try input[type=file]"}, session)["nodeId"]
            tools.command("DOM.setFileInputFiles", {"nodeId": node, "files": [os.path.abspath(image)]}, session)
            evaluate(tools, session, "document.querySelector('#try button').click()")
            deadline = time.time() + 60
            while evaluate(tools, session, "document.getElementById('canvas').dataset.boxes || ''") == "":
                if time.time() > deadline:
                    raise TimeoutError("no boxes drawn: " + str(evaluate(tools, session, "document.getElementById('result-status').textContent")))
                time.sleep(0.05)
            page = json.loads(evaluate(tools, session, READ_PAGE))
            shot = tools.command("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, session)
            full = os.path.join(outdir, "status-page.png")
            with open(full, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
            picture = Image.open(full).convert("RGB")
            picture = picture.resize((small_width, round(picture.height * small_width / picture.width)), Image.LANCZOS)
            small = os.path.join(outdir, "status-page-small.png")
            picture.quantize(colors=64).save(small, optimize=True)
            page["screenshot"], page["small_screenshot"] = full, small
            print(json.dumps(page), flush=True)
        finally:
            tools.close()


if __name__ == "__main__":
    main()
