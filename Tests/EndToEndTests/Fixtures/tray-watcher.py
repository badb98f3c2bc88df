#!/usr/bin/python3
"""A recording org.kde.StatusNotifierWatcher for the tray tests (Support/Tray/TrayWatcher.swift).

It owns the watcher's name on the session bus as a panel would, and reports on standard output,
one JSON object a line:
  {"event":"ready","name":"<its unique name>"}
  {"event":"registered","item":"<service>","sender":"<unique name>"}
  {"event":"unregistered","item":"<service>"}                  (the item's connection left)
  {"event":"icon","item":…,"n":<NewIcon signals so far>,"t":<monotonic s>,"elapsed":…,"scale":…,
   "sizes":[<the widths IconPixmap holds>],"capsule":{"x":…,"y":…,"w":…,"h":…} or null}
  {"event":"status","item":…,"status":"Active"}                (NewStatus)
For each NewIcon it reads FrameElapsed, FrameScale (io.github.badged.TrayItem1) and the 64 px entry
of IconPixmap, and reads FrameElapsed again: a frame that changed while it was read is read again,
so each line is one frame's figures. The capsule is the bounding box of the pixels of the badge
colour (#D32F2F, each channel within 8) and of the label's white and its blends with that colour
(a rolling digit covers the capsule's edge) that are at least half covered (alpha >= 128) in the
64 px entry; null when no pixel has the badge colour (or there is no 64 px entry: see "sizes").

Commands on standard input, each answered by one line:
  items                 {"event":"items","items":[…]}
  sync ITEM             {"event":"sync","item":…}  after every signal ITEM sent before it (a Ping
                        round trip: D-Bus keeps one sender's messages in order)
  icon ITEM             the "icon" line of the pixmap ITEM holds now (n = the signals so far)
  props ITEM            {"event":"props","item":…,"status":…,"title":…,"tooltip":[title, text],
                        "label":…,"id":…,"menu":…}
  layout ITEM           {"event":"layout","item":…,"revision":…,"entries":[{"id":…,"label":…,
                        "type":…,"toggle-state":…}…]}  (GetLayout(0, -1, []) on its menu)
  event ITEM ID         {"event":"clicked","item":…,"id":…}  after Event(ID, "clicked", 0, 0) returned
  quit                  ends it
A failing call is answered {"event":"error","command":…,"message":…}.
"""

import json
import os
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

WATCHER = "org.kde.StatusNotifierWatcher"
ITEM = "org.kde.StatusNotifierItem"
TRAY_ITEM = "io.github.badged.TrayItem1"
PROPERTIES = "org.freedesktop.DBus.Properties"
MENU = "com.canonical.dbusmenu"
BADGE = (0xD3, 0x2F, 0x2F)
SIZE = 64


def say(**fields):
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def capsule(pixmaps, size):
    """The bounding box of the badge-colour pixels of the `size` px entry; None without any."""
    for width, height, data in pixmaps:
        if width != size or height != size:
            continue
        data = bytes(data)
        xs, ys, found = [], [], False
        for y in range(height):
            row = y * width * 4
            for x in range(width):
                a, r, g, b = data[row + 4 * x : row + 4 * x + 4]
                if a < 128:
                    continue
                badge = abs(r - BADGE[0]) <= 8 and abs(g - BADGE[1]) <= 8 and abs(b - BADGE[2]) <= 8
                # the label's white and its blends with the badge colour, inside the capsule
                label = r >= BADGE[0] - 8 and g >= BADGE[1] - 8 and abs(g - b) <= 8
                if badge or label:
                    xs.append(x)
                    ys.append(y)
                    found = found or badge
        if not found:
            return None
        return {"x": min(xs), "y": min(ys), "w": max(xs) - min(xs) + 1, "h": max(ys) - min(ys) + 1}
    return None


class Watcher(dbus.service.Object):
    def __init__(self, bus):
        self.bus = bus
        self.items = {}  # service -> {"sender": unique name, "path": object path, "signals": n}
        super().__init__(bus, "/StatusNotifierWatcher")
        bus.add_signal_receiver(
            self.name_owner_changed, "NameOwnerChanged", "org.freedesktop.DBus", "org.freedesktop.DBus"
        )

    @dbus.service.method(WATCHER, in_signature="s", sender_keyword="sender")
    def RegisterStatusNotifierItem(self, service, sender=None):
        path = "/StatusNotifierItem"
        if service.startswith("/"):
            path, service = service, sender
        if service not in self.items:
            owner = self.bus.get_name_owner(service) if not service.startswith(":") else service
            item = {"sender": str(owner), "path": path, "signals": 0, "matches": []}
            self.items[service] = item
            for member, handler in (("NewIcon", self.new_icon), ("NewStatus", self.new_status)):
                item["matches"].append(
                    self.bus.add_signal_receiver(
                        lambda *args, s=service, h=handler: h(s, *args),
                        member,
                        ITEM,
                        owner,
                        path,
                    )
                )
        say(event="registered", item=str(service), sender=str(sender))
        self.StatusNotifierItemRegistered(service)

    @dbus.service.method(WATCHER, in_signature="s")
    def RegisterStatusNotifierHost(self, service):
        pass

    @dbus.service.signal(WATCHER, signature="s")
    def StatusNotifierItemRegistered(self, service):
        pass

    @dbus.service.signal(WATCHER, signature="s")
    def StatusNotifierItemUnregistered(self, service):
        pass

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {
            "RegisteredStatusNotifierItems": dbus.Array(
                ["%s%s" % (s, i["path"]) for s, i in self.items.items()], signature="s"
            ),
            "IsStatusNotifierHostRegistered": dbus.Boolean(True),
            "ProtocolVersion": dbus.Int32(0),
        }

    def name_owner_changed(self, name, old, new):
        for service, item in list(self.items.items()):
            if old and not new and item["sender"] == old:
                for match in item["matches"]:
                    match.remove()
                del self.items[service]
                say(event="unregistered", item=service)
                self.StatusNotifierItemUnregistered(service)

    def proxy(self, service, path=None):
        item = self.items[service]
        return self.bus.get_object(item["sender"], path or item["path"], introspect=False)

    def new_icon(self, service):
        self.items[service]["signals"] += 1
        self.report_icon(service)

    def report_icon(self, service):
        item = self.items.get(service)
        if item is None:
            return
        proxy = self.proxy(service)
        for _ in range(10):
            first = proxy.Get(TRAY_ITEM, "FrameElapsed", dbus_interface=PROPERTIES)
            scale = proxy.Get(TRAY_ITEM, "FrameScale", dbus_interface=PROPERTIES)
            pixmaps = proxy.Get(ITEM, "IconPixmap", dbus_interface=PROPERTIES, byte_arrays=True)
            last = proxy.Get(TRAY_ITEM, "FrameElapsed", dbus_interface=PROPERTIES)
            if first == last:
                break
        say(
            event="icon",
            item=service,
            n=item["signals"],
            t=time.monotonic(),
            elapsed=float(first),
            scale=float(scale),
            sizes=sorted(int(width) for width, _, _ in pixmaps),
            capsule=capsule(pixmaps, SIZE),
        )

    def new_status(self, service, status):
        say(event="status", item=service, status=str(status))

    def command(self, words):
        verb = words[0]
        if verb == "items":
            say(event="items", items=sorted(self.items))
        elif verb == "sync":
            service = words[1]
            self.proxy(service).Ping(
                dbus_interface="org.freedesktop.DBus.Peer",
                reply_handler=lambda: say(event="sync", item=service),
                error_handler=lambda e: say(event="error", command="sync", message=str(e)),
            )
        elif verb == "icon":
            self.report_icon(words[1])
        elif verb == "props":
            service = words[1]
            values = self.proxy(service).GetAll(ITEM, dbus_interface=PROPERTIES, byte_arrays=True)
            tooltip = values.get("ToolTip", ("", [], "", ""))
            say(
                event="props",
                item=service,
                status=str(values.get("Status", "")),
                title=str(values.get("Title", "")),
                tooltip=[str(tooltip[2]), str(tooltip[3])],
                label=str(values.get("XAyatanaLabel", "")),
                id=str(values.get("Id", "")),
                menu=str(values.get("Menu", "")),
            )
        elif verb == "layout":
            service = words[1]
            menu = self.proxy(service, "/MenuBar")
            revision, (_, _, children) = menu.GetLayout(0, -1, dbus.Array([], signature="s"), dbus_interface=MENU)
            entries = []
            for child in children:
                ident, props, _ = child
                entries.append(
                    {
                        "id": int(ident),
                        "label": str(props.get("label", "")),
                        "type": str(props.get("type", "standard")),
                        "toggle-state": int(props["toggle-state"]) if "toggle-state" in props else None,
                    }
                )
            say(event="layout", item=service, revision=int(revision), entries=entries)
        elif verb == "event":
            service, ident = words[1], int(words[2])
            menu = self.proxy(service, "/MenuBar")
            menu.Event(
                dbus.Int32(ident), "clicked", dbus.Int32(0, variant_level=1), dbus.UInt32(0), dbus_interface=MENU
            )
            say(event="clicked", item=service, id=ident)
        elif verb == "quit":
            loop.quit()
        else:
            say(event="error", command=verb, message="unknown command")


pending = b""


def read_commands(source, condition):
    global pending
    chunk = os.read(0, 4096)
    if not chunk:
        loop.quit()
        return False
    pending += chunk
    while b"\n" in pending:
        line, pending = pending.split(b"\n", 1)
        words = line.decode().split()
        if words:
            try:
                watcher.command(words)
            except (dbus.DBusException, KeyError, IndexError, ValueError) as error:
                say(event="error", command=words[0], message=str(error))
    return True


DBusGMainLoop(set_as_default=True)
session = dbus.SessionBus()
watcher = Watcher(session)
if session.request_name(WATCHER, dbus.bus.NAME_FLAG_DO_NOT_QUEUE) != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
    sys.exit("org.kde.StatusNotifierWatcher is owned already")
loop = GLib.MainLoop()
GLib.io_add_watch(0, GLib.IO_IN | GLib.IO_HUP, read_commands)
say(event="ready", name=session.get_unique_name())
loop.run()
