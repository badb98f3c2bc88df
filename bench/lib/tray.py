#!/usr/bin/python3
"""The measuring side of bench scenario 13 (badged-tray): a StatusNotifierWatcher of its own on
the private session bus, which times each INCR sent to badged until the item's first NewIcon,
then counts the bounce's frames and the bytes a host reads for them (IconPixmap after each
NewIcon), as a tray host does.

Usage: tray.py <badged socket> <changes> <gap ms>
Prints one JSON line: p50_us, p99_us, frames (median per change), bytes (median per change).
"""
import json
import socket
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

WATCHER = "org.kde.StatusNotifierWatcher"


class Watcher(dbus.service.Object):
    def __init__(self, bus, registered):
        super().__init__(bus, "/StatusNotifierWatcher")
        self.registered = registered

    @dbus.service.method(WATCHER, in_signature="s", out_signature="", sender_keyword="sender")
    def RegisterStatusNotifierItem(self, service, sender=None):
        self.registered(service if not service.startswith("/") else sender)

    @dbus.service.method(WATCHER, in_signature="s", out_signature="")
    def RegisterStatusNotifierHost(self, service):
        pass

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return {"RegisteredStatusNotifierItems": dbus.Array([], signature="s"),
                "IsStatusNotifierHostRegistered": True, "ProtocolVersion": 0}[name]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    path, changes, gap_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    loop = GLib.MainLoop()
    state = {"item": None, "sent": None, "latencies": [], "frames": [], "bytes": [], "count": 0, "size": 0}

    def registered(name):
        if state["item"] is None:
            state["item"] = name
            bus.add_signal_receiver(new_icon, "NewIcon", "org.kde.StatusNotifierItem", name)
            GLib.timeout_add(500, send)

    def new_icon(*_):
        now = time.monotonic()
        if state["sent"] is not None:
            state["latencies"].append((now - state["sent"]) * 1e6)
            state["sent"] = None
        state["count"] += 1
        item = bus.get_object(state["item"], "/StatusNotifierItem")
        pixmaps = item.Get("org.kde.StatusNotifierItem", "IconPixmap", dbus_interface=dbus.PROPERTIES_IFACE)
        state["size"] += sum(len(p[2]) + 8 for p in pixmaps)

    client = socket.socket(socket.AF_UNIX)
    client.connect(path)
    reader = client.makefile("rb")

    def send():
        if state["sent"] is None and state["latencies"]:
            state["frames"].append(state["count"])
            state["bytes"].append(state["size"])
        if len(state["latencies"]) >= changes:
            loop.quit()
            return False
        state["count"] = state["size"] = 0
        state["sent"] = time.monotonic()
        client.sendall(b"INCR mail\n")
        reader.readline()
        GLib.timeout_add(gap_ms, send)
        return False

    Watcher(bus, registered)
    bus.request_name(WATCHER)
    GLib.timeout_add(60_000, loop.quit)
    loop.run()
    latencies = state["latencies"]
    if len(latencies) < changes:
        sys.exit(f"only {len(latencies)} of {changes} changes reached the tray")
    print(json.dumps({
        "changes": changes, "p50_us": round(percentile(latencies, 0.5)), "p99_us": round(percentile(latencies, 0.99)),
        "frames": percentile(state["frames"], 0.5), "bytes": percentile(state["bytes"], 0.5),
    }))


main()
