// badged-web's motion: the closed forms of MOTION.md (springs in three regimes, cubic Bézier
// timing curves, autoreversing repeats) and an animated value that retargets keeping position
// and velocity, as Sources/BadgeMotion does. The constants come from ONE table, generated from the
// Swift engine (BadgeMotions, TopMotions, CountUp, HoldRepeat): Tests/BadgeTopTests/
// WebMotionTableTests fails when it differs; `make web-motion` writes it again.
"use strict";
(function () {
  const M = /* motion-table:begin */ {
  "epsilon": 0.001,
  "springs": {
    "bounceUp": {"response": 0.3, "dampingRatio": 0.5},
    "bounceBack": {"response": 0.25, "dampingRatio": 0.6},
    "roll": {"response": 0.25, "dampingRatio": 0.85},
    "fade": {"response": 0.3, "dampingRatio": 1},
    "selection": {"response": 0.35, "dampingRatio": 0.8},
    "wheelSelect": {"response": 0.35, "dampingRatio": 0.7}
  },
  "bounce": {"peakScale": 1.3, "returnDelay": 0.12},
  "hiddenScale": 0.5,
  "mutedOpacity": 0.5,
  "curves": {
    "linear": [0, 0, 1, 1],
    "easeIn": [0.42, 0, 1, 1],
    "easeOut": [0, 0, 0.58, 1],
    "easeInOut": [0.42, 0, 0.58, 1]
  },
  "timings": {
    "pulse": {"curve": "easeInOut", "duration": 0.8, "scale": 1.5, "opacity": 0.4},
    "countUp": {"curve": "easeOut", "duration": 0.75},
    "wheelScroll": {"curve": "easeInOut", "duration": 0.25}
  },
  "hold": {"repeatDelay": 0.4, "repeatInterval": 0.1, "accelerateAfter": 1, "acceleratedFactor": 10},
  "sampleStep": 0.05,
  "samples": {
    "bounce": [1, 1.109683, 1.266336, 1.275239, 1.090879, 0.984894, 0.972267, 0.989361, 1.000775, 1.002746, 1.001213, 1.000004, 0.999733, 0.999865, 0.999991, 1, 1, 1, 1, 1, 1],
    "bounceUp": [0, 0.365609, 0.887787, 1.1407, 1.142095, 1.054361, 0.989822, 0.973493, 0.984221, 0.997782, 1.003918, 1.003639, 1.001281, 0.999659, 0.999301, 0.99961, 0.99996, 1.000108, 1.000093, 1.00003, 0.999989],
    "bounceBack": [0, 0.449964, 0.944031, 1.093536, 1.05955, 1.00932, 0.991517, 0.99366, 0.998681, 1.000738, 1.000664, 1.000171, 0.999939, 0.999931, 0.999979, 1.000005, 1.000007, 1.000003, 1, 0.999999, 1],
    "roll": [0, 0.388102, 0.786369, 0.956447, 1.001617, 1.00602, 1.003073, 1.000955, 1.000155, 0.999971, 0.999966, 0.999985, 0.999996, 1, 1, 1, 1, 1, 1, 1, 1],
    "fade": [0, 0.281598, 0.618942, 0.821026, 0.921314, 0.966815, 0.986399, 0.994541, 0.997843, 0.999159, 0.999675, 0.999876, 0.999953, 0.999982, 0.999993, 0.999997, 0.999999, 1, 1, 1, 1],
    "selection": [0, 0.247831, 0.60804, 0.850704, 0.968216, 1.008896, 1.015008, 1.010451, 1.005181, 1.001852, 1.000319, 0.999826, 0.999779, 0.999856, 0.999932, 0.999977, 0.999997, 1.000003, 1.000003, 1.000002, 1.000001],
    "wheelSelect": [0, 0.259702, 0.651529, 0.912693, 1.024516, 1.045814, 1.032201, 1.014498, 1.003234, 0.998639, 0.997916, 0.998605, 0.9994, 0.999884, 1.000072, 1.000094, 1.00006, 1.000025, 1.000004, 0.999996, 0.999996],
    "linear": [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1],
    "easeIn": [0, 0.004475, 0.017027, 0.036577, 0.062282, 0.093465, 0.129577, 0.170167, 0.214861, 0.263345, 0.315357, 0.370676, 0.42912, 0.490538, 0.554814, 0.621862, 0.691634, 0.764131, 0.839428, 0.917758, 1],
    "easeOut": [0, 0.082242, 0.160572, 0.235869, 0.308366, 0.378138, 0.445186, 0.509462, 0.57088, 0.629324, 0.684643, 0.736655, 0.785139, 0.829833, 0.870423, 0.906535, 0.937718, 0.963423, 0.982973, 0.995525, 1],
    "easeInOut": [0, 0.00483, 0.019722, 0.04521, 0.08166, 0.129162, 0.187396, 0.255486, 0.331884, 0.41434, 0.5, 0.58566, 0.668116, 0.744514, 0.812604, 0.870838, 0.91834, 0.95479, 0.980278, 0.99517, 1],
    "pulse": [0, 0.007587, 0.031114, 0.071509, 0.129162, 0.203543, 0.292771, 0.393305, 0.5, 0.606695, 0.707229, 0.796457, 0.870838, 0.928491, 0.968886, 0.992413, 1, 0.992413, 0.968886, 0.928491, 0.870838],
    "countUp": [0, 0.108716, 0.211088, 0.308366, 0.400792, 0.488349, 0.57088, 0.648119, 0.719698, 0.785139, 0.843836, 0.895022, 0.937718, 0.970661, 0.99218, 1, 1, 1, 1, 1, 1]
  }
} /* motion-table:end */;

  // A spring of mass 1: response (s) and damping ratio, as SwiftUI names them.
  function spring(s) {
    const w0 = (2 * Math.PI) / s.response;
    const z = s.dampingRatio;
    const regime = Math.abs(z - 1) <= 1e-9 ? "critical" : z < 1 ? "under" : "over";
    const lambda = z * w0;
    const wd = regime === "under" ? w0 * Math.sqrt(1 - z * z) : 0;
    const spread = regime === "over" ? w0 * Math.sqrt(z * z - 1) : 0;
    const r1 = -z * w0 + spread, r2 = -z * w0 - spread;
    // Offset from the target and velocity `t` seconds after starting at (x0, v0).
    function state(x0, v0, t) {
      if (regime === "under") {
        const b = (v0 + lambda * x0) / wd, e = Math.exp(-lambda * t);
        const c = Math.cos(wd * t), s2 = Math.sin(wd * t);
        return [e * (x0 * c + b * s2), e * (v0 * c - ((lambda * v0 + w0 * w0 * x0) / wd) * s2)];
      }
      if (regime === "critical") {
        const e = Math.exp(-w0 * t), b = v0 + w0 * x0;
        return [e * (x0 + b * t), e * (v0 - w0 * b * t)];
      }
      const c1 = (v0 - r2 * x0) / (r1 - r2), c2 = x0 - c1;
      const e1 = Math.exp(r1 * t), e2 = Math.exp(r2 * t);
      return [c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2];
    }
    // When the motion stays within eps of its target: the OpenSwiftUI estimate, extended to the
    // true envelope where it would end early (Spring+Motion.swift's settlingDuration).
    function settle(target, v0) {
      const eps = M.epsilon;
      const reach = Math.abs(lambda * target - v0) + Math.abs(target);
      if (reach <= eps) return 0;
      const estimate = -Math.log(eps / reach) / lambda;
      const x0 = -target;
      let bound = 0;
      if (regime === "under") {
        const b = (v0 + lambda * x0) / wd, a = Math.hypot(x0, b);
        bound = a > eps ? Math.log(a / eps) / lambda : 0;
      } else if (regime === "critical") {
        const b = Math.abs(v0 + w0 * x0), a = Math.abs(x0);
        const env = (t) => (a + b * t) * Math.exp(-w0 * t);
        let lo = b > 0 ? Math.max(0, 1 / w0 - a / b) : 0;
        if (env(lo) <= eps) bound = lo;
        else {
          let hi = lo + 1 / w0;
          while (env(hi) > eps) hi += hi - lo;
          for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
            const mid = (lo + hi) / 2;
            if (env(mid) > eps) lo = mid; else hi = mid;
          }
          bound = hi;
        }
      } else {
        const c1 = (v0 - r2 * x0) / (r1 - r2), a = Math.abs(c1) + Math.abs(x0 - c1);
        bound = a > eps ? Math.log(a / eps) / -r1 : 0;
      }
      return Math.max(0, estimate, bound);
    }
    return { state, settle };
  }

  // A cubic Bézier from (0,0) to (1,1): progress and slope at time u (TimingCurve.swift).
  function curve(p) {
    const [x1, y1, x2, y2] = p;
    const bz = (u, a, b) => { const v = 1 - u; return 3 * v * v * u * a + 3 * v * u * u * b + u * u * u; };
    const dv = (u, a, b) => { const v = 1 - u; return 3 * v * v * a + 6 * v * u * (b - a) + 3 * u * u * (1 - b); };
    const linear = x1 === y1 && x2 === y2;
    function param(t) {
      let u = t;
      for (let i = 0; i < 8; i++) {
        const err = bz(u, x1, x2) - t;
        if (Math.abs(err) < 1e-9) return u;
        const d = dv(u, x1, x2);
        if (Math.abs(d) <= 1e-6) break;
        const next = u - err / d;
        if (next < 0 || next > 1) break;
        u = next;
      }
      let lo = 0, hi = 1;
      u = t;
      for (let i = 0; i < 100; i++) {
        const x = bz(u, x1, x2);
        if (Math.abs(x - t) < 1e-9) break;
        if (x < t) lo = u; else hi = u;
        u = (lo + hi) / 2;
      }
      return u;
    }
    return function (t) {
      if (linear) return [Math.min(Math.max(t, 0), 1), 1];
      let u = param(Math.min(Math.max(t, 0), 1));
      const value = t <= 0 ? 0 : t >= 1 ? 1 : bz(u, y1, y2);
      if (dv(u, x1, x2) < 1e-9) u = Math.min(Math.max(u, 1e-6), 1 - 1e-6);
      return [value, dv(u, y1, y2) / dv(u, x1, x2)];
    };
  }

  // An animation description: {spring: name} or {curve: name, duration, repeat}.
  function animation(spec) {
    if (spec.spring) {
      const s = spring(M.springs[spec.spring]);
      return {
        state: (from, to, v, e) => { const [x, vel] = s.state(from - to, v, e); return [to + x, vel]; },
        duration: (from, to, v) => s.settle(to - from, v),
      };
    }
    const c = curve(M.curves[spec.curve]), d = spec.duration;
    function unit(e) {
      if (spec.repeat) {
        const k = Math.floor(e / d), [p, sl] = c(e / d - k);
        return k % 2 === 1 ? [1 - p, -sl / d] : [p, sl / d];
      }
      if (e >= d) return [1, 0];
      const [p, sl] = c(e / d);
      return [p, sl / d];
    }
    return {
      state: (from, to, v, e) => { const [p, r] = unit(Math.max(e, 0)); return [from + (to - from) * p, (to - from) * r]; },
      duration: () => (spec.repeat ? Infinity : d),
    };
  }

  // One animated property (AnimatedValue.swift): segments that each start from the state the
  // value has then, so a retarget in mid-flight keeps position and velocity.
  class Value {
    constructor(v) { this.segs = [{ start: -Infinity, from: v, v: 0, to: v, a: null, end: -Infinity }]; }
    seg(t) { let s = null; for (const x of this.segs) if (x.start <= t) s = x; return s; }
    state(t) {
      const s = this.seg(t);
      if (!s) return [this.segs[0].from, 0];
      if (!s.a || t >= s.end) return [s.to, 0];
      return s.a.state(s.from, s.to, s.v, t - s.start);
    }
    value(t) { return this.state(t)[0]; }
    cancel(t) { this.segs = [this.segs[0]].concat(this.segs.slice(1).filter((x) => x.start <= t)); }
    push(seg) {
      let i = -1;
      this.segs.forEach((x, j) => { if (x.start <= seg.start) i = j; });
      if (i > 0) this.segs.splice(0, i);
      this.segs.push(seg);
    }
    animate(to, a, t) {
      this.cancel(t);
      const [from, v] = this.state(t);
      this.push({ start: t, from, v, to, a, end: t + a.duration(from, to, v) });
    }
    set(v, t) { this.cancel(t); this.push({ start: t, from: v, v: 0, to: v, a: null, end: t }); }
    // Whether anything moves at t or is scheduled after it.
    busy(t) { const s = this.seg(t); return (s && s.a && t < s.end) || this.segs.some((x) => x.start > t); }
    get final() { return this.segs[this.segs.length - 1].to; }
  }

  const A = {
    bounceUp: animation({ spring: "bounceUp" }),
    bounceBack: animation({ spring: "bounceBack" }),
    roll: animation({ spring: "roll" }),
    fade: animation({ spring: "fade" }),
    selection: animation({ spring: "selection" }),
    wheelSelect: animation({ spring: "wheelSelect" }),
    wheelScroll: animation({ curve: M.timings.wheelScroll.curve, duration: M.timings.wheelScroll.duration }),
    countUp: animation({ curve: M.timings.countUp.curve, duration: M.timings.countUp.duration }),
    pulse: animation({ curve: M.timings.pulse.curve, duration: M.timings.pulse.duration, repeat: true }),
  };

  // The badge's bounce: up towards peakScale, back to 1 after returnDelay (BadgeMotions).
  function bounce(value, t) {
    value.animate(M.bounce.peakScale, A.bounceUp, t);
    value.animate(1, A.bounceBack, t + M.bounce.returnDelay);
  }

  // Each sample family of the table, evaluated here, for the browser test comparing the page's
  // closed forms with the Swift engine's figures.
  function sample(name, t) {
    if (M.springs[name]) return 1 + spring(M.springs[name]).state(-1, 0, t)[0];
    if (M.curves[name]) return curve(M.curves[name])(t)[0];
    if (name === "bounce") { const v = new Value(1); bounce(v, 0); return v.value(t); }
    if (name === "pulse" || name === "countUp") { const v = new Value(0); v.animate(1, A[name], 0); return v.value(t); }
    return NaN;
  }

  window.badgedMotion = { table: M, Value, A, bounce, sample };
})();
