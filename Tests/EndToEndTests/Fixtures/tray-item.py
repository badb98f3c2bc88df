#!/usr/bin/python3
"""A stand-in StatusNotifierItem for checking the tray harness itself (TrayHarnessTests), never
the product: it serves a fixed icon, a grey square with a red (#D32F2F) capsule 0.42 of the
side high at its top-right corner, at 32 and 64 px, with FrameElapsed 0 and FrameScale 1 on
io.github.badged.TrayItem1, and an empty dbusmenu on /MenuBar.

It owns org.kde.StatusNotifierItem-<pid>-1 and registers with org.kde.StatusNotifierWatcher
whenever a host registers with the watcher, or at once when a watcher appears whose host is
registered already. Standard input: `scale S` redraws the capsule S times as high
(about its centre) and emits NewIcon; end of file ends it. It prints `ready NAME` once it owns
its name.
"""

import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

ITEM = "org.kde.StatusNotifierItem"
TRAY_ITEM = "io.github.badged.TrayItem1"
PROPERTIES = "org.freedesktop.DBus.Properties"
WATCHER = "org.kde.StatusNotifierWatcher"
GLYPH = (0x80, 0x80, 0x80)
BADGE = (0xD3, 0x2F, 0x2F)


def pixmap(size, scale):
    """ARGB bytes of the icon at `size` px: the glyph square, then the capsule over it."""
    height = 0.42 * size
    cx, cy = size - height / 2, height / 2
    h = height * scale
    w = h
    out = bytearray()
    samples = [(i + 0.5) / 4 for i in range(4)]
    for y in range(size):
        for x in range(size):
            covered = 0
            for sy in samples:
                for sx in samples:
                    px, py = x + sx, y + sy
                    # a circle of diameter h (w == h: one digit) about the centre
                    if (px - cx) ** 2 + (py - cy) ** 2 <= (h / 2) ** 2:
                        covered += 1
            glyph = 0 <= x < 0.84 * size and 0.16 * size <= y < size
            alpha = covered / 16
            if glyph:
                colour = tuple(round(b * alpha + g * (1 - alpha)) for b, g in zip(BADGE, GLYPH))
                out += bytes((255,) + colour)
            else:
                out += bytes((round(255 * alpha),) + (BADGE if covered else (0, 0, 0)))
    return (dbus.Int32(size), dbus.Int32(size), dbus.ByteArray(bytes(out)))


class Item(dbus.service.Object):
    def __init__(self, bus, name):
        super().__init__(bus, "/StatusNotifierItem")
        self.bus = bus
        self.name = name
        self.scale = 1.0
        self.icons = [pixmap(s, 1.0) for s in (32, 64)]

    def values(self, interface):
        if interface == TRAY_ITEM:
            return {"FrameElapsed": dbus.Double(0.0), "FrameScale": dbus.Double(self.scale)}
        return {
            "Category": "Communications",
            "Id": "stand-in",
            "Title": "stand-in",
            "Status": "Active",
            "IconName": "",
            "IconPixmap": dbus.Array(self.icons, signature="(iiay)"),
            "ToolTip": dbus.Struct(("", dbus.Array([], signature="(iiay)"), "stand-in", ""), signature="sa(iiay)ss"),
            "ItemIsMenu": dbus.Boolean(False),
            "Menu": dbus.ObjectPath("/MenuBar"),
        }

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.values(interface)[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.values(interface)

    @dbus.service.signal(ITEM, signature="")
    def NewIcon(self):
        pass

    def redraw(self, scale):
        self.scale = scale
        self.icons = [pixmap(s, scale) for s in (32, 64)]
        self.NewIcon()

    def watcher_appeared(self, name, old, new):
        """A new watcher: register now if its host is ready, else when the host registers."""
        if not new:
            return
        watcher = self.bus.get_object(WATCHER, "/StatusNotifierWatcher", introspect=False)
        watcher.Get(
            WATCHER,
            "IsStatusNotifierHostRegistered",
            dbus_interface=PROPERTIES,
            reply_handler=lambda ready: self.register() if ready else None,
            error_handler=lambda e: None,
        )

    def register(self, *args):
        self.bus.get_object(WATCHER, "/StatusNotifierWatcher", introspect=False).RegisterStatusNotifierItem(
            self.name, dbus_interface=WATCHER, reply_handler=lambda: None, error_handler=lambda e: None
        )


class Menu(dbus.service.Object):
    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {"Version": dbus.UInt32(3), "TextDirection": "ltr", "Status": "normal"}

    @dbus.service.method("com.canonical.dbusmenu", in_signature="iias", out_signature="u(ia{sv}av)")
    def GetLayout(self, parent, depth, names):
        return (dbus.UInt32(1), (0, {"children-display": "submenu"}, dbus.Array([], signature="v")))

    @dbus.service.method("com.canonical.dbusmenu", in_signature="aias", out_signature="a(ia{sv})")
    def GetGroupProperties(self, ids, names):
        return dbus.Array([], signature="(ia{sv})")

    @dbus.service.method("com.canonical.dbusmenu", in_signature="i", out_signature="b")
    def AboutToShow(self, ident):
        return False

    @dbus.service.method("com.canonical.dbusmenu", in_signature="isvu")
    def Event(self, ident, kind, data, timestamp):
        pass


def read_commands(source, condition):
    data = os.read(0, 4096)
    if not data:
        loop.quit()
        return False
    for line in data.decode().splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "scale":
            item.redraw(float(words[1]))
    return True


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = "org.kde.StatusNotifierItem-%d-1" % os.getpid()
bus.request_name(name)
item = Item(bus, name)
Menu(bus, "/MenuBar")
bus.add_signal_receiver(
    item.watcher_appeared, "NameOwnerChanged", "org.freedesktop.DBus", "org.freedesktop.DBus", arg0=WATCHER
)
# Waybar 0.9's host reads the registered items once, from what its proxy cached before it
# registered itself, and listens for new ones only after: an item that registers in between is
# never shown. So register when a host registers (or at once when one already has).
bus.add_signal_receiver(item.register, "StatusNotifierHostRegistered", WATCHER, None, "/StatusNotifierWatcher")
if bus.name_has_owner(WATCHER):
    item.watcher_appeared(WATCHER, "", "owner")
loop = GLib.MainLoop()
GLib.io_add_watch(0, GLib.IO_IN | GLib.IO_HUP, read_commands)
print("ready", name, flush=True)
loop.run()
