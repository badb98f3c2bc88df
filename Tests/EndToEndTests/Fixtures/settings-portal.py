#!/usr/bin/python3
"""A stand-in for the desktop's settings portal in the tray tests (TrayMotionSettingTests): it owns
org.freedesktop.portal.Desktop on the session bus and answers org.freedesktop.portal.Settings.Read
for org.gnome.desktop.interface enable-animations with the value given on its command line, as
GNOME's and GTK's portals do. Its changes are sent by the test (SettingChanged, with gdbus).

Usage: settings-portal.py true|false
"""
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

SETTINGS = "org.freedesktop.portal.Settings"


class Portal(dbus.service.Object):
    def __init__(self, bus, animations):
        super().__init__(bus, "/org/freedesktop/portal/desktop")
        self.animations = animations

    @dbus.service.method(SETTINGS, in_signature="ss", out_signature="v")
    def Read(self, namespace, key):
        if (namespace, key) != ("org.gnome.desktop.interface", "enable-animations"):
            raise dbus.exceptions.DBusException("no such setting", name="org.freedesktop.portal.Error.NotFound")
        return dbus.Boolean(self.animations, variant_level=1)


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
portal = Portal(bus, sys.argv[1] == "true")
bus.request_name("org.freedesktop.portal.Desktop")
GLib.MainLoop().run()
