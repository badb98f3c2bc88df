import BadgeCore

/// How `badgectl open` reaches an app from its desktop id: the `org.freedesktop.Application`
/// object of a D-Bus activatable app, else the desktop file a launcher starts.
public enum AppActivation {
  public static let interface = "org.freedesktop.Application"

  /// The object path of the app's `org.freedesktop.Application` interface, per the desktop
  /// entry spec: `/` and the id with `.` as `/` and `-` as `_`
  /// (`org.gnome.Geary` → `/org/gnome/Geary`).
  public static func objectPath(forDesktopID id: String) -> String {
    "/" + String(id.map { $0 == "." ? "/" : ($0 == "-" ? "_" : $0) })
  }

  /// Whether `id` can be a well-known bus name, which a D-Bus activatable app's id is: two or
  /// more dot-separated elements of `A-Z a-z 0-9 _ -`, none empty or starting with a digit.
  public static func isBusName(_ id: String) -> Bool {
    let elements = id.split(separator: ".", omittingEmptySubsequences: false)
    guard elements.count >= 2, id.utf8.count <= Limits.maxDesktopIDLength else { return false }
    return elements.allSatisfy { element in
      guard let first = element.utf8.first, !(0x30...0x39).contains(first) else { return false }
      return element.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      }
    }
  }

  /// Where the app's desktop file may be, first match wins: `applications/<id>.desktop` under
  /// `$XDG_DATA_HOME` (default `~/.local/share`), then under each of `$XDG_DATA_DIRS` (default
  /// `/usr/local/share:/usr/share`).
  public static func desktopFileCandidates(id: String, dataHome: String?, dataDirs: String?, home: String) -> [String] {
    desktopFileCandidates(id: id, dataDirectories: dataDirectories(dataHome: dataHome, dataDirs: dataDirs, home: home))
  }

  /// Where the app's desktop file may be in these data directories, first match wins.
  public static func desktopFileCandidates(id: String, dataDirectories: [String]) -> [String] {
    dataDirectories.map { "\($0)/applications/\(id).desktop" }
  }

  /// The data directories, most important first: `$XDG_DATA_HOME` (default `~/.local/share`),
  /// then each of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`); relative entries
  /// are ignored, as the spec says.
  public static func dataDirectories(dataHome: String?, dataDirs: String?, home: String) -> [String] {
    let homeData = dataHome.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
    let dirs = (dataDirs ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    let systemData = dirs.isEmpty ? ["/usr/local/share", "/usr/share"] : dirs
    return [homeData] + systemData
  }
}
