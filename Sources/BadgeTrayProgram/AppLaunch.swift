import BadgePOSIX
import Glibc

/// How the tray opens an app: `badgectl open <channel> --upto <total>`, started and not waited
/// for, so the tray's loop never waits for an app to start and the way to an app (D-Bus
/// activation, else its desktop file) and the clear after it stay badgectl's, in one place.
enum AppLaunch {
  /// `badgectl` beside this program (the same install, or the same build), else on `PATH`.
  static let badgectl: String = {
    if let path = Environment.executablePath, let slash = path.lastIndex(of: "/") {
      let beside = String(path[..<slash]) + "/badgectl"
      if access(beside, X_OK) == 0 { return beside }
    }
    return "badgectl"
  }()
}
