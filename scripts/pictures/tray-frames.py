#!/usr/bin/python3
"""Records badged-tray's frames for `make pictures`: a StatusNotifierWatcher of its own on the
session bus that, after each NewIcon of the first item that registers, writes the item's
IconPixmap entry of SIZE pixels as a PNG (NNNNN.png in FOLDER) and its time (monotonic
nanoseconds, a line of FOLDER/times). It prints "registered" once the item registered, and stops
when FOLDER/stop exists.

Usage: tray-frames.py FOLDER SIZE
"""
import os
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
from PIL import Image

WATCHER = "org.kde.StatusNotifierWatcher"


class Watcher(dbus.service.Object):
    def __init__(self, bus, registered):
        super().__init__(bus, "/StatusNotifierWatcher")
        self.registered = registered

    @dbus.service.method(WATCHER, in_signature="s", out_signature="", sender_keyword="sender")
    def RegisterStatusNotifierItem(self, service, sender=None):
        self.registered(sender if service.startswith("/") else service)

    @dbus.service.method(WATCHER, in_signature="s", out_signature="")
    def RegisterStatusNotifierHost(self, service):
        pass


def main():
    folder, size = sys.argv[1], int(sys.argv[2])
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    loop = GLib.MainLoop()
    state = {"item": None, "frame": 0}

    def save():
        item = bus.get_object(state["item"], "/StatusNotifierItem")
        pixmaps = item.Get("org.kde.StatusNotifierItem", "IconPixmap", dbus_interface=dbus.PROPERTIES_IFACE,
                          byte_arrays=True)
        for width, height, data in pixmaps:
            if width == size:
                argb = bytes(data)
                # A, R, G, B per pixel (network order) to PIL's RGBA.
                rgba = bytearray(len(argb))
                rgba[0::4], rgba[1::4], rgba[2::4], rgba[3::4] = argb[1::4], argb[2::4], argb[3::4], argb[0::4]
                Image.frombytes("RGBA", (width, height), bytes(rgba)).save(
                    os.path.join(folder, "%05d.png" % state["frame"]))
                with open(os.path.join(folder, "times"), "a") as times:
                    times.write("%d\n" % time.monotonic_ns())
                state["frame"] += 1

    def registered(name):
        if state["item"] is None:
            state["item"] = name
            bus.add_signal_receiver(lambda *_: save(), "NewIcon", "org.kde.StatusNotifierItem", name)
            save()
            print("registered", flush=True)

    def check_stop():
        if os.path.exists(os.path.join(folder, "stop")):
            loop.quit()
        return True

    Watcher(bus, registered)
    bus.request_name(WATCHER)
    GLib.timeout_add(50, check_stop)
    loop.run()


main()
