import BadgeBus
import Testing

/// Where `badgectl open` looks for an app: its bus object, its desktop file.
@Suite struct AppActivationTests {
  @Test(arguments: [
    ("org.gnome.Geary", "/org/gnome/Geary"), ("org.example.my-app", "/org/example/my_app"), ("firefox", "/firefox"),
  ])
  func objectPathsFollowTheDesktopEntrySpec(_ id: String, _ path: String) {
    #expect(AppActivation.objectPath(forDesktopID: id) == path)
  }

  @Test(arguments: [
    ("org.gnome.Geary", true), ("org.example.my-app", true), ("a.b_c", true),
    ("firefox", false), ("org..x", false), (".org.x", false), ("org.2x", false), ("org.x y", false), ("", false),
  ])
  func onlyBusNamesAreActivated(_ id: String, _ valid: Bool) {
    #expect(AppActivation.isBusName(id) == valid)
  }

  @Test func desktopFilesAreLookedForInTheXDGDataFolders() {
    #expect(
      AppActivation.desktopFileCandidates(id: "x", dataHome: "/d", dataDirs: "/a:/b", home: "/h") == [
        "/d/applications/x.desktop", "/a/applications/x.desktop", "/b/applications/x.desktop",
      ])
    #expect(
      AppActivation.desktopFileCandidates(id: "x", dataHome: nil, dataDirs: nil, home: "/h") == [
        "/h/.local/share/applications/x.desktop", "/usr/local/share/applications/x.desktop",
        "/usr/share/applications/x.desktop",
      ])
    #expect(
      AppActivation.desktopFileCandidates(id: "x", dataHome: "relative", dataDirs: "rel:/ok", home: "/h") == [
        "/h/.local/share/applications/x.desktop", "/ok/applications/x.desktop",
      ], "relative paths are ignored, as the XDG spec says")
  }
}
