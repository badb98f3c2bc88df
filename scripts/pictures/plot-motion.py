#!/usr/bin/python3
"""Plots the motion curves `badgectl watch --format frames` wrote against MOTION.md's reference.

Usage: plot-motion.py FRAMES.jsonl OUT.png

FRAMES holds the frames of a count change 3 -> 4 on channel `mail` (the bounce and the digit
roll) and of channel `ci`, a dot, going 0 -> 1 (its pulse window). The reference curves are
computed here from MOTION.md's closed forms, and its tabulated values are drawn as crosses, so
the plot shows the engine's frames against SwiftUI's curves, not against themselves.
"""
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def spring(response, zeta, start, target, v0, t):
    """An underdamped spring (mass 1): position and velocity after t seconds (MOTION.md)."""
    w0 = 2 * math.pi / response
    lam = zeta * w0
    wd = w0 * math.sqrt(1 - zeta * zeta)
    y0 = start - target
    b = (v0 + lam * y0) / wd
    decay = math.exp(-lam * t)
    position = target + decay * (y0 * math.cos(wd * t) + b * math.sin(wd * t))
    velocity = decay * (v0 * math.cos(wd * t) - (lam * b + wd * y0) * math.sin(wd * t))
    return position, velocity


def bounce(t):
    """Scale 1 -> 1.3 with spring(0.3, 0.5), retargeted to 1 at 0.12 s with spring(0.25, 0.6)."""
    if t < 0.12:
        return spring(0.3, 0.5, 1, 1.3, 0, t)[0]
    position, velocity = spring(0.3, 0.5, 1, 1.3, 0, 0.12)
    return spring(0.25, 0.6, position, 1, velocity, t - 0.12)[0]


def roll(t):
    """The entering digit's offset, 1 -> 0 with .snappy(duration: 0.25): spring(0.25, 0.85)."""
    return spring(0.25, 0.85, 1, 0, 0, t)[0]


def ease_in_out(x):
    """The cubic Bezier (0.42, 0, 0.58, 1), solved for x by bisection."""
    def bezier(u, p1, p2):
        return 3 * (1 - u) ** 2 * u * p1 + 3 * (1 - u) * u * u * p2 + u ** 3
    low, high = 0.0, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if bezier(mid, 0.42, 0.58) < x:
            low = mid
        else:
            high = mid
    return bezier((low + high) / 2, 0, 1)


def pulse(t):
    """The pulse's progress: easeInOut over 0.8 s, there and back (repeatForever)."""
    cycle = math.floor(t / 0.8)
    p = ease_in_out(t / 0.8 - cycle)
    return p if cycle % 2 == 0 else 1 - p


# MOTION.md's tabulated values.
BOUNCE_TABLE = [(0.05, 1.109683), (0.10, 1.266336), (0.15, 1.275239), (0.20, 1.090879),
                (0.25, 0.984894), (0.30, 0.972267), (0.40, 1.000775)]
SNAPPY_TABLE = [(0.05, 0.388102), (0.10, 0.786369), (0.20, 1.001617), (0.30, 1.003073)]
PULSE_TABLE = [(0.2, 0.129162), (0.4, 0.5), (0.6, 0.870838), (0.8, 1.0), (1.0, 0.870838),
               (1.2, 0.5), (1.6, 0.0)]


def main():
    if len(sys.argv) != 3:
        sys.exit("Usage: plot-motion.py FRAMES.jsonl OUT.png")
    frames = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    # The bounce is over by 0.8 s; later frames of mail only repeat its rest while ci moves.
    change = sorted((f for f in frames if f["channel"] == "mail" and f["label"] == "4" and f["t"] <= 0.8),
                    key=lambda f: f["t"])
    dot = sorted((f for f in frames if f["channel"] == "ci" and f["dot"] and f["label"]), key=lambda f: f["t"])
    if not change or not dot:
        sys.exit("plot-motion.py: no frames of mail 3 -> 4 or of the dot ci in " + sys.argv[1])

    plt.rcParams.update({"font.size": 9, "axes.grid": True, "grid.alpha": 0.3})
    figure, (scale_axes, pulse_axes, roll_axes) = plt.subplots(1, 3, figsize=(12, 3.4), dpi=100)
    reference = dict(color="0.55", linewidth=1.2, label="MOTION.md, closed form")
    table = dict(marker="x", color="black", linestyle="none", markersize=6, label="MOTION.md, table")
    measured = dict(marker="o", markersize=2.5, linewidth=0.8)

    end = max(0.6, change[-1]["t"])
    ts = [i * end / 400 for i in range(401)]
    scale_axes.plot(ts, [bounce(t) for t in ts], **reference)
    scale_axes.plot(*zip(*BOUNCE_TABLE), **table)
    scale_axes.plot([f["t"] for f in change], [f["scale"] for f in change], color="#e53935",
                    label="badgectl watch, scale", **measured)
    scale_axes.set(title="Badge bounce (count 3 → 4)", xlabel="seconds since the change", ylabel="scale")

    end = max(2.4, dot[-1]["t"])
    ts = [i * end / 600 for i in range(601)]
    pulse_axes.plot(ts, [1 + 0.5 * pulse(t) for t in ts], **reference)
    pulse_axes.plot(ts, [1 - 0.6 * pulse(t) for t in ts], color="0.55", linewidth=1.2)
    pulse_axes.plot([t for t, _ in PULSE_TABLE], [1 + 0.5 * p for _, p in PULSE_TABLE], **table)
    pulse_axes.plot([t for t, _ in PULSE_TABLE], [1 - 0.6 * p for _, p in PULSE_TABLE], marker="x",
                    color="black", linestyle="none", markersize=6)
    pulse_axes.plot([f["t"] for f in dot], [f["dotScale"] for f in dot], color="#ff9800",
                    label="badgectl watch, dotScale", **measured)
    pulse_axes.plot([f["t"] for f in dot], [f["dotOpacity"] for f in dot], color="#1e88e5",
                    label="badgectl watch, dotOpacity", **measured)
    pulse_axes.set(title="Dot pulse (easeInOut 0.8 s, autoreversing)", xlabel="seconds since the change",
                   ylabel="dot scale, dot opacity")

    rolling = [f for f in change if f["previous"]]
    end = max(0.4, rolling[-1]["t"] if rolling else 0)
    ts = [i * end / 400 for i in range(401)]
    roll_axes.plot(ts, [roll(t) for t in ts], **reference)
    roll_axes.plot([t for t, _ in SNAPPY_TABLE], [1 - x for _, x in SNAPPY_TABLE], **table)
    roll_axes.plot([f["t"] for f in rolling], [f["offset"] for f in rolling], color="#43a047",
                   label="badgectl watch, offset", **measured)
    roll_axes.set(title="Digit roll 3 → 4 (snappy 0.25 s)", xlabel="seconds since the change",
                  ylabel="offset of the entering digit (cells)")

    pulse_axes.set_ylim(0.3, 1.85)
    for axes in (scale_axes, roll_axes):
        axes.legend(loc="best", fontsize=7)
    pulse_axes.legend(loc="upper center", ncol=2, fontsize=7)
    figure.tight_layout()
    figure.savefig(sys.argv[2])


if __name__ == "__main__":
    main()
