#!/usr/bin/env python3
"""Drives badged-web's page in headless Chromium (chromium-driver, selenium) for the Web tests.

Usage: browser.py BASE_URL SCENARIO [--token TOKEN] [--out FOLDER]
Prints one result a line ("drawn mail 3 3", "shown mail 3 latency=12.5", …). A scenario that needs
the test to act in between prints a line ending in "?" ("incr?") and reads one line from stdin
before it goes on: the test's wall clock in ms when it acted ("1765000000000.0"), or "go".
Scenarios:
  drawn     the snapshot drawn: "ready first_draw_ms=…", "weight bytes=…", "drawn NAME COUNT LABEL"
  clear     issue 31 test 1: a count shown, a clear from the page, an INCR during a clear that survives
  resume    issue 31 test 2: "connected?" then each "expect NAME=COUNT …" line waited for; the log
  motion    issue 31 test 4: a bounce's frames, the count-up's end, frames while idle, the curves, a
            dot's pulse that stops, reduced motion
  pictures  issue 31 test 5: phone and desktop, light and dark, into --out; the badge's place and colour
  controls  a channel's page: + clicked, + held (repeats), the wheel picks one more (SET), Mark seen,
            then the segmented control to the stats: "stepped N ADDED", "set N STATUS",
            "seen UPTO STATUS", "stats COUNT CAPSULE"
  stale     the page while badged, then badged-web, are away: "stop-daemon?", "start-daemon?",
            "stop-web?", "start-web?" for the test to act; "status …" and "mail N" after each
  foreign   issue 31 test 3 in the browser: a page of another origin (127.0.0.1, another port: the
            same site, so the cookie goes along) posts a form, reads the API and opens /events:
            "post …", "read …", "events …"
"""
import json, os, shutil, sys, tempfile, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

os.environ.setdefault("SE_OFFLINE", "true")


# Chromium's profile: the test's (BADGED_BROWSER_PROFILE), else a temporary one removed at the end.
PROFILE = tempfile.mkdtemp(prefix="badged-browser-")


def say(*words):
    print(*words, flush=True)


def ask(prompt):
    say(prompt + "?")
    line = sys.stdin.readline()
    if not line:
        raise SystemExit("the test closed stdin")
    return line.strip()


def driver(width=1280, height=800):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/lib/chromium/chromium"
    profile = os.environ.get("BADGED_BROWSER_PROFILE") or PROFILE
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}",
              "--no-first-run", f"--user-data-dir={profile}", "--hide-scrollbars", "--force-device-scale-factor=1"):
        o.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def wait(d, script, timeout=10.0, *args):
    end = time.time() + timeout
    while True:
        value = d.execute_script(script, *args)
        if value or time.time() > end:
            return value
        time.sleep(0.01)


# Records, in the page, the wall time (ms) at which each tile first showed each count.
OBSERVE = """
window.badgedShown = {};
const mark = (li) => { (window.badgedShown[li.dataset.channel] ||= {})[li.dataset.count] ??= performance.timeOrigin + performance.now(); };
new MutationObserver((list) => { for (const m of list) if (m.target.dataset && m.target.dataset.channel) mark(m.target); })
  .observe(document.getElementById('grid'), {attributes: true, subtree: true, attributeFilter: ['data-count']});
document.querySelectorAll('#grid li').forEach(mark);
"""


def open_page(d, base, token):
    if token:
        d.get(base + "/manifest.webmanifest")  # any page of the origin, to set its cookie on
        d.add_cookie({"name": "badged_token", "value": token, "path": "/", "httpOnly": True, "sameSite": "Strict"})
    d.get(base + "/")
    if not wait(d, "return document.body.dataset.ready === '1'", 15):
        raise SystemExit("the page drew no snapshot: " + str(d.execute_script("return document.getElementById('status').textContent")))
    d.execute_script(OBSERVE)


def count(d, name):
    return d.execute_script("const li = document.querySelector(`#grid li[data-channel='${arguments[0]}']`); return li ? Number(li.dataset.count) : null", name)


def wait_count(d, name, value, timeout=10.0):
    return wait(d, "const li = document.querySelector(`#grid li[data-channel='${arguments[0]}']`); return li && li.dataset.count === String(arguments[1])", timeout, name, value)


def drawn(d, base, token):
    open_page(d, base, token)
    say("ready first_draw_ms=%.1f" % d.execute_script("return window.badgedFirstDraw"))
    weight = d.execute_script("""return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
      .filter((e) => !e.name.includes('/events')).reduce((a, e) => a + e.decodedBodySize, 0)""")
    say("weight bytes=%d" % weight)
    for name, value, label in d.execute_script("return [...document.querySelectorAll('#grid li')].map((li) => [li.dataset.channel, li.dataset.count, li.dataset.label])"):
        say("drawn", name, value, label or "-")
    say("title", d.title)
    say("status", d.execute_script("return document.getElementById('status').dataset.state"))


def write_done(d, verb):
    return wait(d, "const w = window.badgedWrites.filter((w) => w.verb === arguments[0]).pop(); return w && w.status ? [w.status, w.args.upto, w.tries] : null", 10, verb)


def clear(d, base, token):
    open_page(d, base, token)
    say("drawn mail", count(d, "mail") if count(d, "mail") is not None else "-")
    sent = float(ask("incr"))  # the test ran `badgectl incr mail 3` at this wall time (ms)
    if wait_count(d, "mail", 3, 5):
        shown = d.execute_script("return window.badgedShown.mail['3']")
        say("shown mail 3 latency=%.1f" % (shown - sent))
    else:
        say("timeout mail", count(d, "mail"))
    # A clear from the page: every watcher and the bar show 0.
    d.find_element(By.CSS_SELECTOR, "#grid li[data-channel='mail']").click()
    d.find_element(By.ID, "clear").click()
    status, upto, tries = write_done(d, "clear")
    say("cleared status=%d upto=%s tries=%d" % (status, upto, tries))
    wait_count(d, "mail", 0, 5)
    say("mail", count(d, "mail"))
    ask("checked")
    # Again with 3, and an INCR of 2 that badged gets after the page drew 3 but before its click:
    # the page's stream is held (badgedPause) so that it still shows what it drew.
    d.execute_script("location.hash = ''")
    ask("incr3")
    wait_count(d, "mail", 3, 5)
    d.execute_script("window.badgedPause = true")
    ask("incr2")
    d.find_element(By.CSS_SELECTOR, "#grid li[data-channel='mail']").click()
    d.find_element(By.ID, "clear").click()
    status, upto, tries = write_done(d, "clear")
    d.execute_script("window.badgedResume()")
    wait_count(d, "mail", 2, 5)
    say("cleared status=%d upto=%s tries=%d" % (status, upto, tries))
    say("mail", count(d, "mail"))
    # A write whose answer is lost (the request reached badged-web, the page saw a network
    # error): the page sends it again with the same id, and badged counts it once.
    d.execute_script("""const real = window.fetch; let lost = false;
      window.fetch = async (...a) => { const r = await real(...a); if (!lost) { lost = true; throw new TypeError('lost'); } return r; };""")
    d.find_element(By.ID, "plus").click()
    wait(d, "return window.badgedWrites.filter((w) => w.verb === 'incr' && w.status).length === 1", 10)
    w = d.execute_script("return window.badgedWrites.filter((w) => w.verb === 'incr')")
    wait_count(d, "mail", 3, 5)
    say("incr status=%d n=%s tries=%d writes=%d same_id=yes" % (w[0]["status"], w[0]["args"]["n"], w[0]["tries"], len(w)))
    say("mail", count(d, "mail"))


def resume(d, base, token):
    open_page(d, base, token)
    say("snapshot", d.execute_script("return window.badgedLog.filter((e) => e.type === 'snapshot').map((e) => e.id).join(',')"))
    while True:
        line = ask("expect")
        if line == "done":
            break
        if line == "drop":
            d.execute_script("window.badgedDrop()")
            say("dropped")
            continue
        wanted = dict(pair.split("=") for pair in line.split())
        ok = all(wait_count(d, name, value, 30) for name, value in wanted.items())
        say("reached" if ok else "timeout", " ".join(f"{n}={count(d, n)}" for n in wanted))
        log = d.execute_script("return window.badgedLog")
        ids = [int(e["id"]) for e in log if e["type"] == "change"]
        say("log changes=%d distinct=%d resets=%d snapshots=%d" % (
            len(ids), len(set(ids)), sum(e["type"] == "reset" for e in log), sum(e["type"] == "snapshot" for e in log)))
        say("ids", ",".join(map(str, ids)))
        say("status", d.execute_script("return document.getElementById('status').dataset.state"))


def settle(d, quiet=0.4, timeout=5.0):
    """Waits until no frame has been requested for `quiet` seconds; returns the frame count."""
    end, last, since = time.time() + timeout, -1, time.time()
    while time.time() < end:
        n = d.execute_script("return window.badgedRafCount")
        if n != last:
            last, since = n, time.time()
        elif time.time() - since >= quiet:
            break
        time.sleep(0.02)
    return last


def motion(d, base, token):
    open_page(d, base, token)
    errors = d.execute_script("""const M = window.badgedMotion, out = [];
      for (const [name, values] of Object.entries(M.table.samples))
        out.push([name, Math.max(...values.map((v, i) => Math.abs(M.sample(name, i * M.table.sampleStep) - v)))]);
      return out""")
    for name, error in errors:
        say("curve %s max_error=%.3g" % (name, error))
    settle(d)
    d.execute_script("window.badgedTrace = true; window.badgedFrames = []")
    before = count(d, "mail") or 0
    ask("incr")  # the test ran `badgectl incr mail`
    wait_count(d, "mail", before + 1, 5)
    settled = settle(d)
    for f in d.execute_script("return window.badgedFrames.filter((f) => f.name === 'mail')"):
        say("frame %.6f %.6f" % (f["t"], f["scale"]))
    time.sleep(1.0)
    say("idle frames=%d" % (d.execute_script("return window.badgedRafCount") - settled))
    # The count-up: the stats panel's numbers from 0 together, ending exactly at the sums.
    d.find_element(By.ID, "tab-stats").click()
    samples = []
    end = time.time() + 2
    while time.time() < end and len(samples) < 400:
        samples.append(d.execute_script("return [performance.now(), Number(document.getElementById('stat-total').textContent)]"))
        if samples[-1][1] == d.execute_script("return [...document.querySelectorAll('#grid li')].reduce((a, li) => a + Number(li.dataset.total), 0)"):
            break
    settle(d)
    total = d.execute_script("return [...document.querySelectorAll('#grid li')].reduce((a, li) => a + Number(li.dataset.total), 0)")
    say("countup start=%d end=%s expected=%d rising=%s" % (samples[0][1], d.find_element(By.ID, "stat-total").text, total,
                                                          "yes" if all(a[1] <= b[1] for a, b in zip(samples, samples[1:])) else "no"))
    after = settle(d)
    time.sleep(1.0)
    say("idle frames=%d" % (d.execute_script("return window.badgedRafCount") - after))
    # A dot (the test's badged draws `calendar` as one) pulses its ring for the pulse window, then
    # stands still: frames while it pulses, none after.
    d.execute_script("location.hash = ''")
    settle(d)
    ask("dot")  # the test ran INCR calendar
    wait(d, "return document.querySelector(`#grid li[data-channel='calendar'] .badge.dot .ring`)", 5)
    scales = set()
    for _ in range(20):
        scales.add(d.execute_script("return document.querySelector(`#grid li[data-channel='calendar'] .ring`).style.transform"))
        time.sleep(0.02)
    pulsed = settle(d, 0.4, 10)
    time.sleep(1.0)
    say("pulse ring_scales=%d idle_frames=%d end=%s" % (len(scales), d.execute_script("return window.badgedRafCount") - pulsed,
        d.execute_script("return document.querySelector(`#grid li[data-channel='calendar'] .ring`).style.transform")))
    # Reduced motion: a change jumps to its end state and requests no frame.
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    before, frames = count(d, "mail"), d.execute_script("return window.badgedRafCount")
    ask("reduced")  # the test ran INCR mail
    wait_count(d, "mail", before + 1, 5)
    time.sleep(0.5)
    say("reduced frames=%d scale=%s" % (d.execute_script("return window.badgedRafCount") - frames,
        d.execute_script("return document.querySelector(`#grid li[data-channel='mail'] .badge`).style.transform")))


def pictures(d, base, token, out):
    from PIL import Image
    open_page(d, base, token)
    for size, (w, h, mobile) in {"phone": (390, 844, True), "desktop": (1280, 800, False)}.items():
        for theme in ("light", "dark"):
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile})
            d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
            d.execute_script("location.hash = ''")
            settle(d)
            path = os.path.join(out, f"web-{size}-{theme}.png")
            d.save_screenshot(path)
            x, y, bw, bh, tx, ty, tw, th = d.execute_script("""const b = document.querySelector("#grid li[data-channel='mail'] .badge").getBoundingClientRect(),
              t = document.querySelector("#grid li[data-channel='mail']").getBoundingClientRect();
              return [b.left, b.top, b.width, b.height, t.left, t.top, t.width, t.height]""")
            px, py = int(x + 4), int(y + bh / 2)
            image = Image.open(path).convert("RGB")
            say("picture %s size=%dx%d badge=%d,%d,%d,%d tile=%d,%d,%d,%d pixel=#%02x%02x%02x corner=#%02x%02x%02x" % (
                os.path.basename(path), image.width, image.height, x, y, bw, bh, tx, ty, tw, th, *image.getpixel((px, py)),
                *image.getpixel((2, h - 2))))


FOREIGN = """
const done = arguments[arguments.length - 1], target = arguments[0], out = {};
const finish = () => { if (out.post && out.read && out.events) done(out); };
// The classic cross-site write: a form posted into a frame, the user's cookie riding along
// unless SameSite keeps it home; the frame's load says the answer came.
const sink = document.createElement('iframe');
sink.name = 'sink';
document.body.append(sink);
const form = document.createElement('form');
form.method = 'POST';
form.action = target + '/api/channels/mail/incr';
form.target = 'sink';
const field = document.createElement('input');
field.name = 'n';
field.value = '5';
form.append(field);
document.body.append(form);
sink.onload = () => { out.post = 'answered'; finish(); };
form.submit();
fetch(target + '/api/channels', {credentials: 'include'})
  .then((r) => { out.read = 'status ' + r.status; finish(); }, () => { out.read = 'blocked'; finish(); });
const stream = new EventSource(target + '/events', {withCredentials: true});
stream.addEventListener('snapshot', () => { out.events = 'snapshot'; stream.close(); finish(); });
stream.onerror = () => { out.events = out.events || 'refused'; stream.close(); finish(); };
"""


def state(d):
    return d.execute_script("return document.getElementById('status').dataset.state")


def stale(d, base, token):
    open_page(d, base, token)
    say("status", state(d))
    for away in ("daemon", "web"):
        ask("stop-" + away)
        # badged away: badged-web's `offline` event; badged-web away: the stream's error.
        wait(d, "return document.getElementById('status').dataset.state === 'stale'", 15)
        say("status", state(d), "body", "stale" if d.execute_script("return document.body.classList.contains('stale')") else "-")
        total = int(ask("start-" + away))  # the test made a change meanwhile: mail's count now
        wait_count(d, "mail", total, 15)
        wait(d, "return document.getElementById('status').dataset.state === 'live'", 15)
        say("status", state(d))
        say("mail", count(d, "mail"))


def writes_done(d, verb, n):
    """Waits until `n` writes of `verb` have their answers; their records."""
    wait(d, "return window.badgedWrites.filter((w) => w.verb === arguments[0] && w.status).length >= arguments[1]",
         10, verb, n)
    return d.execute_script("return window.badgedWrites.filter((w) => w.verb === arguments[0])", verb)


def controls(d, base, token):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    open_page(d, base, token)
    d.find_element(By.CSS_SELECTOR, "#grid li[data-channel='mail']").click()
    wait(d, "return !document.getElementById('detail').hidden", 5)
    plus = d.find_element(By.ID, "plus")
    ActionChains(d).click(plus).perform()
    writes_done(d, "incr", 1)
    # Held: the first press at once, repeats after the hold's delay; released after four.
    ActionChains(d).click_and_hold(plus).perform()
    wait(d, "return window.badgedWrites.filter((w) => w.verb === 'incr').length >= 5", 10)
    ActionChains(d).release(plus).perform()
    sent = d.execute_script("return window.badgedWrites.filter((w) => w.verb === 'incr').length")
    incrs = writes_done(d, "incr", sent)
    say("stepped", len(incrs), sum(int(w["args"]["n"]) for w in incrs if w["status"] == 200))
    # The wheel, once it rests on the count: one row down picks one more.
    wait(d, "const li = document.querySelector(`#grid li[data-channel='mail']`); return document.getElementById('wheel').getAttribute('aria-valuenow') === li.dataset.count", 10)
    settle(d)
    d.find_element(By.ID, "wheel").send_keys(Keys.ARROW_DOWN)
    picked = writes_done(d, "set", 1)[0]
    say("set", picked["args"]["n"], picked["status"])
    d.find_element(By.ID, "seen").click()
    seen = writes_done(d, "seen", 1)[0]
    say("seen", seen["args"]["upto"], seen["status"])
    d.find_element(By.ID, "back").click()
    d.find_element(By.ID, "tab-stats").click()
    wait(d, "return !document.getElementById('stats').hidden", 5)
    settle(d)
    say("stats", d.find_element(By.ID, "stat-count").text, d.execute_script("return document.getElementById('capsule').style.transform"))


def other_origin():
    """A server of another origin on the same host (127.0.0.1, another port): the same site, so
    the browser sends the user's SameSite=Strict cookie with its requests to badged-web, and only
    badged-web's Origin check stands between its page and the user's counts. Its page has no
    policy of its own that could keep the requests from going out."""
    import http.server, threading

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<!doctype html><title>another origin</title><p>another origin"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d" % server.server_address[1]


def foreign(d, base, token):
    open_page(d, base, token)  # the user's cookie, on 127.0.0.1
    d.get(other_origin() + "/")
    d.set_script_timeout(15)
    out = d.execute_async_script(FOREIGN, base)
    say("post", out["post"])
    say("read", out["read"])
    say("events", out["events"])


def main():
    args = sys.argv[1:]
    opts = {}
    while len(args) > 2 and args[-2].startswith("--"):
        opts[args[-2][2:]] = args[-1]
        args = args[:-2]
    base, scenario = args[0].rstrip("/"), args[1]
    d = driver()
    try:
        if scenario == "pictures":
            pictures(d, base, opts.get("token"), opts["out"])
        else:
            {"drawn": drawn, "clear": clear, "resume": resume, "motion": motion, "foreign": foreign,
             "controls": controls, "stale": stale}[scenario](d, base, opts.get("token"))
    finally:
        d.quit()
        shutil.rmtree(PROFILE, ignore_errors=True)


if __name__ == "__main__":
    main()
