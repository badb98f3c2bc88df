import Foundation

/// A real tray host the tests look at: it owns org.kde.StatusNotifierWatcher on the rig's bus
/// and draws the items' pixmaps in a strip at the top of its screen.
protocol TrayHost {
  /// The strip's background: any other pixel is an item's.
  var stripBackground: Colour { get }
  /// Whether it shows an item whose Status is Passive (a count of 0).
  var showsPassiveItems: Bool { get }
  /// The strip the tray is in.
  func screenshot() throws -> Screenshot
  /// Stops the host and starts it again: its watcher goes and a new one comes.
  func restart() throws
  /// What the host wrote so far, for failure messages.
  var log: String { get }
  /// The picture `make pictures` keeps of it (`keepTrayPicture`): its name, and the part of the
  /// strip the tray is in (an ImageMagick crop geometry).
  var picture: (name: String, crop: String) { get }
  /// Whether it draws an item that registers in the first moments after it started. Waybar
  /// 0.9.17 does not: restarted, it registers the item, reads its properties and menu, and
  /// shows nothing until the item's next NewIcon (seen 3 times in 4 with the stand-in item);
  /// an item that registers a second later is drawn at once. badged-tray sends NewIcon again a
  /// second after each registration for such hosts; the stand-in item does not.
  var drawsAnItemRegisteredAtItsStart: Bool { get }
}

extension TrayHost {
  /// Waits until the host's strip is drawn (its background fills most of it) and its tray
  /// has registered as a host with its watcher: a tray started before that may register with
  /// no one.
  func waitUntilReady(bus: SessionBus) throws {
    let take = { try screenshot() }
    let drawn = try pollScreenshot(take) { $0.count(stripBackground, tolerance: 12) > $0.width * $0.height / 2 }
    guard drawn.matched, waitUntil({ (try? bus.trayHostIsRegistered()) == true }) else {
      throw TestFailure("the tray host did not start (\(drawn.shot)): \(log)")
    }
  }
}

extension SessionBus {
  /// The watcher's IsStatusNotifierHostRegistered.
  func trayHostIsRegistered() throws -> Bool { try watcherProperty("IsStatusNotifierHostRegistered").contains("true") }

  /// The watcher's RegisteredStatusNotifierItems, as gdbus prints them.
  func registeredTrayItems() throws -> String { try watcherProperty("RegisteredStatusNotifierItems") }

  /// A property of org.kde.StatusNotifierWatcher, as gdbus prints it.
  private func watcherProperty(_ name: String) throws -> String {
    try run(
      "gdbus",
      [
        "call", "--session", "--dest", "org.kde.StatusNotifierWatcher", "--object-path", "/StatusNotifierWatcher",
        "--method", "org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierWatcher", name,
      ],
      environment: environment
    ).stdout
  }
}

/// Waybar 0.9's `tray` module in a headless sway (DESKTOP.md), 32 px icons, Passive items shown,
/// on a plain navy bar 40 px high.
struct WaybarTray: TrayHost {
  let sway: HeadlessSway
  private let background: Background
  private let arguments: [String]
  private let environment: [String: String]

  var stripBackground: Colour { Colour("#000080") }
  var picture: (name: String, crop: String) { ("tray-waybar", "240x40+1040+0") }
  var showsPassiveItems: Bool { true }
  var drawsAnItemRegisteredAtItsStart: Bool { false }

  init(_ rig: TrayRig) throws {
    background = rig.background
    sway = try HeadlessSway(rig.background)
    let config = try rig.daemon.folder.write(
      "waybar.json",
      #"{"layer":"top","height":40,"modules-right":["tray"],"tray":{"icon-size":32,"show-passive-items":true}}"#)
    let style = try rig.daemon.folder.write("waybar.css", "window#waybar { background: #000080; }\n")
    arguments = ["waybar", "-c", config, "-s", style]
    environment = sway.environment.merging(rig.bus.environment) { $1 }
    try background.start("waybar", arguments, environment: environment)
    try waitUntilReady(bus: rig.bus)
  }

  func screenshot() throws -> Screenshot { try sway.screenshot(height: 40) }

  var log: String { background.log("waybar") }

  func restart() throws {
    background.stop("waybar")
    try background.start("waybar", arguments, environment: environment)
  }
}

/// xfce4-panel 4.18 with its systray plugin under Xvfb (DESKTOP.md's panel config: one panel
/// 40 px high at the top, 32 px icons), with an xfconfd of its own so that the bus does not
/// start one outside the test. It hides Passive items.
struct XfcePanel: TrayHost {
  let x: XServer
  private let background: Background
  private let environment: [String: String]

  var stripBackground: Colour { Colour(red: 246, green: 245, blue: 244) }
  var picture: (name: String, crop: String) { ("tray-xfce", "240x40+0+0") }
  var showsPassiveItems: Bool { false }
  var drawsAnItemRegisteredAtItsStart: Bool { true }

  static let panelConfig = """
    <?xml version="1.0" encoding="UTF-8"?>
    <channel name="xfce4-panel" version="1.0">
      <property name="configver" type="int" value="2"/>
      <property name="panels" type="array">
        <value type="int" value="1"/>
        <property name="panel-1" type="empty">
          <property name="position" type="string" value="p=6;x=0;y=0"/>
          <property name="length" type="uint" value="100"/>
          <property name="size" type="uint" value="40"/>
          <property name="plugin-ids" type="array"><value type="int" value="1"/></property>
        </property>
      </property>
      <property name="plugins" type="empty">
        <property name="plugin-1" type="string" value="systray">
          <property name="icon-size" type="int" value="32"/>
        </property>
      </property>
    </channel>

    """

  init(_ rig: TrayRig) throws {
    background = rig.background
    x = try XServer(rig.background)
    let configHome = rig.daemon.folder.file("config")
    let channels = configHome + "/xfce4/xfconf/xfce-perchannel-xml"
    try FileManager.default.createDirectory(atPath: channels, withIntermediateDirectories: true)
    try XfcePanel.panelConfig.write(toFile: channels + "/xfce4-panel.xml", atomically: true, encoding: .utf8)
    environment = x.environment.merging(rig.bus.environment) { $1 }.merging([
      "XDG_CONFIG_HOME": configHome, "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1",
    ]) { $1 }
    try background.start("xfconfd", ["/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"], environment: environment)
    guard waitUntil({ (try? rig.bus.ownerPID(of: "org.xfce.Xfconf")) != nil }) else {
      throw TestFailure("xfconfd did not start: \(rig.background.log("xfconfd"))")
    }
    try background.start("xfce4-panel", ["xfce4-panel", "--disable-wm-check"], environment: environment)
    try waitUntilReady(bus: rig.bus)
  }

  func screenshot() throws -> Screenshot { try x.screenshot(height: 40) }

  var log: String { background.log("xfce4-panel") }

  func restart() throws {
    background.stop("xfce4-panel")  // and the systray plugin's wrapper, in its session
    try background.start("xfce4-panel", ["xfce4-panel", "--disable-wm-check"], environment: environment)
  }
}

/// Saves the host's last screenshot, cropped to its tray, as `NAME.png` in the folder
/// BADGED_SCREENSHOTS names (how `make pictures` takes the README's pictures of the tray);
/// does nothing otherwise.
func keepTrayPicture(_ background: Background, _ host: some TrayHost) {
  guard let folder = ProcessInfo.processInfo.environment["BADGED_SCREENSHOTS"] else { return }
  let source = background.folder.file("shot.ppm")
  let (name, crop) = host.picture
  _ = try? background.run(["convert", source, "-crop", crop, "+repage", "-strip", "\(folder)/\(name).png"])
}
