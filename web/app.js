// badged-web's page: the stream of counts (EventSource with resume), the grid of badges, a
// channel's page (stepper, number wheel, clear and seen), the segmented control and the stats.
// Every motion runs on one requestAnimationFrame loop that stops once everything has settled.
// Test hooks: window.badgedLog (each SSE event), badgedFrames (with badgedTrace = true, each
// frame's {t, name, scale} of a bouncing badge), badgedRafCount (frames requested), badgedWrites.
"use strict";
(function () {
  const BM = window.badgedMotion, T = BM.table, A = BM.A, Value = BM.Value;
  Object.assign(window, { badgedLog: [], badgedFrames: [], badgedRafCount: 0, badgedWrites: [] });
  if (window.badgedTrace === undefined) window.badgedTrace = false;
  const reduced = matchMedia("(prefers-reduced-motion: reduce)");
  const now = () => performance.now() / 1000;
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  // Moves a value, or puts it at its end state at once when the user asked for less motion.
  function move(v, to, a, t) { if (reduced.matches) v.set(to, t); else v.animate(to, a, t); }

  // --- The frame loop: movers tick each frame while any is busy; none → no frame requested.
  const movers = new Set();
  let framePending = false;
  function wake(m) {
    if (m) movers.add(m);
    if (framePending || movers.size === 0) return;
    framePending = true;
    window.badgedRafCount++;
    requestAnimationFrame(() => {
      framePending = false;
      const t = now();
      for (const x of [...movers]) if (!x.tick(t)) movers.delete(x);
      wake();
    });
  }

  // --- A badge: a capsule of digit columns that roll, or a dot whose ring pulses.
  class Badge {
    constructor(name) {
      this.name = name;
      this.el = el("span", "badge");
      this.el.setAttribute("aria-hidden", "true");
      this.scale = new Value(1); this.opacity = new Value(0); this.roll = new Value(1);
      this.ringScale = new Value(1); this.ringOpacity = new Value(1);
      this.label = ""; this.dot = false; this.dim = false; this.count = 0; this.bounceAt = null; this.pulseEnd = 0;
    }
    // Draws `ch` (a channel of the stream); `animate` false draws the end state (first load).
    update(ch, t, animate) {
      const shown = ch.count > 0 && !(ch.dnd === "hide" && dnd.on);
      const label = !shown ? "" : ch.dot ? "•" : ch.label || String(ch.count);
      const was = this.label, grew = ch.count > this.count;
      this.count = ch.count; this.dim = ch.muted || (ch.dnd === "dim" && dnd.on);
      if (!animate) {
        this.opacity.set(label ? 1 : 0, t); this.scale.set(1, t); this.roll.set(1, t);
        this.setLabel(label, label, true);
      } else if (label && !was) {
        if (this.opacity.value(t) === 0) this.scale.set(T.hiddenScale, t);
        this.setLabel(label, label, true);
        move(this.opacity, 1, A.fade, t);
        if (ch.dot) move(this.scale, 1, A.fade, t); else this.bounce(t);
      } else if (!label && was) {
        // The old label stays drawn while it fades; tick takes it away once settled.
        this.label = "";
        move(this.opacity, 0, A.fade, t); move(this.scale, T.hiddenScale, A.fade, t);
      } else if (label && ch.count !== Number(this.el.dataset.count || -1)) {
        if (!ch.dot) this.bounce(t);
        if (label !== was && !reduced.matches) { this.roll.set(0, t); this.roll.animate(1, A.roll, t); }
        this.setLabel(was, label, grew);
      }
      this.el.dataset.count = ch.count;
      // A pulse's time left is as of its event: only a new event moves the window's end.
      if (ch !== this.ch) { this.ch = ch; this.pulse(ch, t); }
      if (this.tick(t)) wake(this);
    }
    bounce(t) {
      if (reduced.matches) return this.scale.set(1, t);
      this.bounceAt = t;
      BM.bounce(this.scale, t);
    }
    // Keeps the dot's ring pulsing for the pulse window, then still (BadgeAnimator's rule).
    pulse(ch, t) {
      const wanted = ch.dot && ch.pulse > 0 && !ch.muted && ch.count > 0 && !reduced.matches;
      const running = this.ringScale.busy(t);
      if (wanted) {
        const end = t + ch.pulse / 1000;
        for (const [v, peak] of [[this.ringScale, T.timings.pulse.scale], [this.ringOpacity, T.timings.pulse.opacity]]) {
          if (running) v.cancel(t); else v.animate(peak, A.pulse, t);
          v.set(1, end);
        }
        this.pulseEnd = end;
      } else if (running) { this.ringScale.set(1, t); this.ringOpacity.set(1, t); }
    }
    // Builds the columns: a changed glyph rolls (old out, new in; up when the count grew).
    setLabel(from, to, up) {
      this.label = to; this.dir = up ? 1 : -1;
      this.el.className = "badge" + (to === "•" ? " dot" : "");
      this.el.textContent = ""; this.rolls = [];
      if (to === "•") { this.ring = this.el.appendChild(el("span", "ring")); return; }
      this.ring = null;
      const shown = to || from;
      for (let i = 0; i < shown.length; i++) {
        const col = this.el.appendChild(el("span", "col"));
        const j = from.length - (shown.length - i), old = j >= 0 ? from[j] : "";
        const glyph = col.appendChild(el("span", "", shown[i]));
        if (old !== shown[i] && from !== to) { const o = col.insertBefore(el("span", "out", old), glyph); this.rolls.push([o, glyph]); }
      }
    }
    tick(t) {
      const s = this.scale.value(t), o = this.opacity.value(t), p = this.roll.value(t);
      this.el.style.transform = `scale(${s})`;
      this.el.style.opacity = String(Math.max(0, Math.min(1, o)) * (this.dim ? T.mutedOpacity : 1));
      for (const [out, glyph] of this.rolls) {
        out.style.transform = `translateY(${-this.dir * p * 100}%)`;
        glyph.style.transform = `translateY(${this.dir * (1 - p) * 100}%)`;
      }
      if (this.ring) {
        this.ring.style.transform = `scale(${this.ringScale.value(t)})`;
        this.ring.style.opacity = String(this.ringOpacity.value(t));
      }
      if (window.badgedTrace && this.bounceAt !== null && this.scale.busy(t)) {
        window.badgedFrames.push({ t: t - this.bounceAt, name: this.name, scale: s });
      }
      const busy = [this.scale, this.opacity, this.roll, this.ringScale, this.ringOpacity].some((v) => v.busy(t));
      if (!busy) {
        for (const [out, glyph] of this.rolls) { out.remove(); glyph.style.transform = ""; }
        if (!this.label) this.el.textContent = "";
        this.rolls = []; this.bounceAt = null;
      }
      return busy;
    }
  }

  // --- State: the channels as the stream last drew them.
  const channels = new Map(); // name → {ch, tile, badge}
  let dnd = { on: false, left: 0 }, offline = false, connected = false, drawn = false;
  const announcements = [];

  function draw(ch, t, animate) {
    let c = channels.get(ch.name);
    if (!c) {
      const tile = el("li", "tile"), badge = new Badge(ch.name);
      tile.tabIndex = 0; tile.dataset.channel = ch.name;
      tile.append(el("span", "name", ch.name), el("span", "meta"), el("span", "slot"));
      tile.children[2].append(badge.el);
      tile.addEventListener("click", () => { location.hash = "channel=" + encodeURIComponent(ch.name); });
      tile.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tile.click(); } });
      c = { ch, tile, badge };
      channels.set(ch.name, c);
      placeTile(c);
    } else if (animate && c.ch.count !== ch.count) {
      announcements.push(`${ch.name}: ${ch.count === 0 ? "none" : ch.label || ch.count} unread`);
    }
    c.ch = ch;
    c.tile.dataset.count = ch.count; c.tile.dataset.total = ch.total; c.tile.dataset.label = ch.label;
    c.tile.classList.toggle("muted", !!ch.muted);
    c.tile.children[1].textContent = `${ch.unseen} unseen · ${ch.total} received` + (ch.stale ? " · stale" : "");
    c.tile.setAttribute("aria-label", `${ch.name}, ${ch.count} unread`);
    c.badge.update(ch, t, animate);
  }
  function placeTile(c) {
    const grid = $("grid"), after = [...grid.children].find((li) => li.dataset.channel > c.ch.name);
    grid.insertBefore(c.tile, after || null);
  }
  function forget(name) { const c = channels.get(name); if (c) { c.tile.remove(); channels.delete(name); } }

  // After every event: the title, favicon, stats, the open channel's page, the announcements.
  let shownTotal = -1;
  function refresh(t) {
    let total = 0;
    for (const c of channels.values()) total += c.ch.count;
    document.title = total > 0 ? `(${total}) badged` : "badged";
    if (total !== shownTotal) { shownTotal = total; favicon(total); }
    $("empty").hidden = channels.size > 0;
    stats.refresh(t); detail.refresh(t);
    if (announcements.length) { $("announce").textContent = announcements.splice(0).join(", "); }
    status();
  }
  function favicon(total) {
    const link = $("favicon");
    if (total === 0) { link.href = "icon.svg"; return; }
    const c = el("canvas"); c.width = c.height = 64;
    const g = c.getContext("2d");
    g.fillStyle = "#d32f2f"; g.beginPath(); g.arc(32, 32, 31, 0, 2 * Math.PI); g.fill();
    const text = total > 99 ? "99+" : String(total);
    g.fillStyle = "#fff"; g.textAlign = "center"; g.textBaseline = "middle";
    g.font = `bold ${text.length > 2 ? 24 : 36}px system-ui, sans-serif`;
    g.fillText(text, 32, 34);
    link.href = c.toDataURL("image/png");
  }
  function status() {
    const stale = !connected || offline, s = $("status");
    s.dataset.state = !drawn ? "connecting" : stale ? "stale" : "live";
    s.textContent = s.dataset.state;
    document.body.classList.toggle("stale", drawn && stale);
  }

  // --- The stream: the browser reconnects by itself with Last-Event-ID; a stream the server
  // closed with an error is opened again here, from the last id.
  let lastId = "", es = null;
  const held = [];
  // For tests: badgedPause holds the events received (logged, not drawn) until badgedResume();
  // badgedDrop() closes the stream and opens it again from the last id, as after an error.
  window.badgedPause = false;
  window.badgedResume = () => { window.badgedPause = false; for (const [type, data] of held.splice(0)) handle(type, data, now()); };
  window.badgedDrop = () => { es.close(); connected = false; status(); connect(); };
  function connect() {
    es = new EventSource(lastId ? "events?lastEventId=" + encodeURIComponent(lastId) : "events");
    es.onopen = () => { connected = true; status(); };
    es.onerror = () => {
      connected = false; status();
      if (es.readyState === EventSource.CLOSED) { const closed = es; setTimeout(() => { if (es === closed) connect(); }, 2000); }
    };
    for (const type of ["snapshot", "change", "state", "dnd", "reset", "offline"]) {
      es.addEventListener(type, (e) => {
        if (e.lastEventId) lastId = e.lastEventId;
        window.badgedLog.push({ type, id: e.lastEventId, data: e.data });
        let data;
        try { data = JSON.parse(e.data); } catch (_) { return; }
        if (window.badgedPause) held.push([type, data]); else handle(type, data, now());
      });
    }
  }
  function handle(type, data, t) {
    if (type === "offline") { offline = true; return status(); }
    if (type === "reset") return;
    offline = false; connected = true;
    if (type === "dnd") { dnd = data; for (const c of channels.values()) draw(c.ch, t, true); }
    if (type === "snapshot") {
      dnd = data.dnd || dnd;
      const names = new Set(data.channels.map((ch) => ch.name));
      for (const name of [...channels.keys()]) if (!names.has(name)) forget(name);
      for (const ch of data.channels) draw(ch, t, drawn);
      if (!drawn) { drawn = true; window.badgedFirstDraw = performance.now(); document.body.dataset.ready = "1"; }
    }
    if (type === "change" || type === "state") {
      const c = channels.get(data.name);
      if (!c || c.ch.seq <= data.seq || type === "state") draw(data, t, drawn);
    }
    refresh(t);
  }

  // --- Writes: form-encoded POSTs with a request id, retried with the same id on a network error.
  const randomId = () => [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");
  async function write(name, verb, args) {
    const id = randomId(), record = { name, verb, args, id, tries: 0, status: 0 };
    window.badgedWrites.push(record);
    const body = new URLSearchParams(Object.assign({}, args, { id }));
    for (let attempt = 0; ; attempt++) {
      record.tries = attempt + 1;
      try {
        const r = await fetch(`api/channels/${encodeURIComponent(name)}/${verb}`, { method: "POST", body, credentials: "same-origin" });
        record.status = r.status;
        const reply = await r.json().catch(() => null);
        if (!r.ok) { $("error").textContent = (reply && (reply.message || reply.error)) || `error ${r.status}`; return null; }
        $("error").textContent = "";
        const c = reply && channels.get(reply.name);
        if (c && reply.seq > c.ch.seq) { draw(reply, now(), true); refresh(now()); }
        return reply;
      } catch (_) {
        if (attempt >= 7) { $("error").textContent = "badged-web cannot be reached"; return null; }
        await new Promise((ok) => setTimeout(ok, Math.min(250 * 2 ** attempt, 4000)));
      }
    }
  }

  // --- The views: the segmented control, the stats panel and a channel's page.
  const views = { selected: 0, capsule: new Value(0), tick(t) {
    $("capsule").style.transform = `translateX(${this.capsule.value(t) * 100}%)`;
    return this.capsule.busy(t);
  } };
  function route() {
    const hash = decodeURIComponent(location.hash.slice(1)), t = now();
    const name = hash.startsWith("channel=") ? hash.slice(8) : null, index = hash === "stats" ? 1 : 0;
    document.body.classList.toggle("detail-open", !!name);
    $("back").hidden = !name; $("heading").textContent = name ? name : "badged";
    $("channels").hidden = !!name || index !== 0; $("stats").hidden = !!name || index !== 1; $("detail").hidden = !name;
    for (const b of $("segments").querySelectorAll("button")) b.setAttribute("aria-selected", String(Number(b.dataset.view === "stats") === index));
    if (index !== views.selected) { views.selected = index; move(views.capsule, index, A.selection, t); wake(views); }
    if (index === 1 && !name) stats.restart(t);
    detail.open(name, t);
  }
  for (const b of $("segments").querySelectorAll("button")) {
    b.addEventListener("click", () => { location.hash = b.dataset.view === "stats" ? "stats" : ""; });
  }
  $("back").addEventListener("click", () => { location.hash = views.selected ? "stats" : ""; });
  window.addEventListener("hashchange", route);

  // The stats: every number and bar from one easeOut progress, restarted when the panel opens.
  const COLUMN_HEIGHT = 120; // px, the tallest column (style.css leaves room for it)
  const stats = { progress: new Value(1), restart(t) { this.progress.set(0, t); move(this.progress, 1, A.countUp, t); wake(this); this.refresh(t); },
    refresh(t) { if (!$("stats").hidden) this.tick(t); },
    tick(t) {
      const p = Math.min(Math.max(this.progress.value(t), 0), 1), list = [...channels.values()].map((c) => c.ch);
      const n = (x) => (p >= 1 ? x : Math.floor(x * p)), sum = (k) => list.reduce((a, ch) => a + ch[k], 0);
      $("stat-count").textContent = n(sum("count")); $("stat-unseen").textContent = n(sum("unseen")); $("stat-total").textContent = n(sum("total"));
      const maxCount = Math.max(1, ...list.map((ch) => ch.count)), maxTotal = Math.max(1, ...list.map((ch) => ch.total));
      const bars = $("bars"), cols = $("columns");
      while (bars.children.length > list.length) bars.lastChild.remove();
      while (cols.children.length > list.length) cols.lastChild.remove();
      list.forEach((ch, i) => {
        let b = bars.children[i], c = cols.children[i];
        if (!b) { b = bars.appendChild(el("li")); b.append(el("span", "label"), el("span", "track"), el("span", "n")); b.children[1].append(el("span", "fill")); }
        if (!c) { c = cols.appendChild(el("div", "c")); c.append(el("span", "n"), el("span", "col-fill"), el("span", "label")); }
        b.children[0].textContent = ch.name; b.children[2].textContent = n(ch.count);
        b.children[1].firstChild.style.width = `${(ch.count / maxCount) * p * 100}%`;
        c.children[0].textContent = n(ch.total); c.children[2].textContent = ch.name;
        c.children[1].style.height = `${(ch.total / maxTotal) * p * COLUMN_HEIGHT}px`;
      });
      return this.progress.busy(t);
    } };

  // A channel's page: the big badge, the stepper (hold to repeat, as `badgectl top`), the wheel.
  const detail = { name: null, badge: null, hold: null, wheel: new Value(0), dragging: null, pending: null,
    open(name, t) {
      this.name = name; this.release();
      if (!name) return;
      this.badge = new Badge(name);
      const slot = $("detail-badge"); slot.className = "slot big"; slot.replaceChildren(this.badge.el);
      $("error").textContent = "";
      const c = channels.get(name);
      if (c) this.badge.update(c.ch, t, false);
      this.wheel.set(c ? c.ch.count : 0, t); this.refresh(t, true);
    },
    refresh(t, opening) {
      const c = this.name && channels.get(this.name);
      if (!c) return;
      if (!opening) this.badge.update(c.ch, t, true);
      const step = c.ch.step || 1;
      $("detail-count").textContent = c.ch.count;
      $("detail-meta").textContent = `${c.ch.unseen} unseen · ${c.ch.total} received`; $("detail-step").textContent = step === 1 ? "" : `×${step}`;
      $("minus").disabled = c.ch.count === 0;
      $("wheel").setAttribute("aria-valuenow", c.ch.count);
      if (!this.dragging && this.pending === null && Math.round(this.wheel.final) !== c.ch.count) {
        if (Math.abs(this.wheel.value(t) - c.ch.count) <= 5) move(this.wheel, c.ch.count, A.wheelScroll, t); else this.wheel.set(c.ch.count, t);
      }
      wake(this);
    },
    tick(t) {
      const pos = this.wheel.value(t), rows = $("wheel-rows"), base = Math.round(pos);
      while (rows.children.length < 7) rows.append(el("div"));
      [...rows.children].forEach((row, i) => {
        const v = base - 3 + i;
        row.textContent = v >= 0 ? v : "";
        row.style.transform = `translateY(${(v - pos) * 36}px)`;
        row.style.opacity = String(Math.max(0, 1 - Math.abs(v - pos) * 0.3));
      });
      return this.wheel.busy(t);
    },
    // One press of − or +: the channel's step, ten times it once held for accelerateAfter.
    press(sign) {
      const c = channels.get(this.name);
      if (!c) return;
      const h = this.hold, factor = h && now() - h.start >= T.hold.accelerateAfter ? T.hold.acceleratedFactor : 1;
      if (sign < 0 && c.ch.count === 0) return this.release();
      write(this.name, sign > 0 ? "incr" : "decr", { n: String((c.ch.step || 1) * factor) });
    },
    holdDown(sign) {
      this.release();
      this.hold = { start: now(), timer: 0 };
      this.press(sign);
      const again = (delay) => { this.hold.timer = setTimeout(() => { this.press(sign); if (this.hold) again(T.hold.repeatInterval); }, delay * 1000); };
      again(T.hold.repeatDelay);
    },
    release() { if (this.hold) clearTimeout(this.hold.timer); this.hold = null; },
    // The wheel picked `value` (drag or scroll ended): it settles there and the count is SET.
    pick(t) {
      const c = channels.get(this.name), value = Math.max(0, Math.round(this.wheel.value(t)));
      move(this.wheel, value, A.wheelSelect, t); wake(this);
      if (c && value !== c.ch.count) write(this.name, "set", { n: String(value) });
    } };
  for (const [id, sign] of [["minus", -1], ["plus", 1]]) {
    const b = $(id);
    b.addEventListener("pointerdown", (e) => { if (e.button === 0) { b.setPointerCapture(e.pointerId); detail.holdDown(sign); } });
    for (const ev of ["pointerup", "pointercancel", "lostpointercapture"]) b.addEventListener(ev, () => detail.release());
    b.addEventListener("click", (e) => { if (e.detail === 0) detail.press(sign); });
  }
  const wheel = $("wheel");
  wheel.addEventListener("pointerdown", (e) => {
    wheel.setPointerCapture(e.pointerId);
    detail.dragging = { y: e.clientY, from: detail.wheel.value(now()) };
  });
  wheel.addEventListener("pointermove", (e) => {
    if (!detail.dragging) return;
    const t = now();
    detail.wheel.set(Math.max(-0.4, detail.dragging.from - (e.clientY - detail.dragging.y) / 36), t); detail.tick(t);
  });
  for (const ev of ["pointerup", "pointercancel"]) wheel.addEventListener(ev, () => { if (detail.dragging) { detail.dragging = null; detail.pick(now()); } });
  wheel.addEventListener("wheel", (e) => {
    e.preventDefault();
    const t = now();
    detail.wheel.set(Math.max(-0.4, detail.wheel.value(t) + Math.sign(e.deltaY) * Math.min(1, Math.abs(e.deltaY) / 50)), t); detail.tick(t);
    clearTimeout(detail.pending); detail.pending = setTimeout(() => { detail.pending = null; detail.pick(now()); }, 200);
  }, { passive: false });
  wheel.addEventListener("keydown", (e) => {
    const d = { ArrowUp: -1, ArrowDown: 1 }[e.key];
    if (d) { e.preventDefault(); detail.wheel.set(Math.max(0, Math.round(detail.wheel.value(now())) + d), now()); detail.pick(now()); }
  });
  // Clear and seen send the total the page drew: what arrived after it stays.
  for (const verb of ["clear", "seen"]) {
    $(verb).addEventListener("click", () => { const c = channels.get(detail.name); if (c) write(detail.name, verb, { upto: String(c.ch.total) }); });
  }

  route();
  connect();
})();
