import Foundation
import TestSupport

/// The stand-in StatusNotifierItem (Fixtures/tray-item.py), for checking the tray harness
/// itself: a fixed red capsule whose scale the test sets. The product's tests never use it.
final class StandInItem {
  private let child: Child
  /// Its well-known name, org.kde.StatusNotifierItem-<pid>-1.
  let name: String

  init(bus: SessionBus) throws {
    child = try Child(
      ["/usr/bin/python3", Repository.path("Tests/EndToEndTests/Fixtures/tray-item.py")],
      environment: Child.environment(bus.environment), stdin: .pipe, stdout: .pipe)
    var input = LineInput(fd: child.output)
    let ready = try input.next(timeout: 10, what: "tray-item.py") ?? ""
    guard ready.hasPrefix("ready ") else { throw TestFailure("tray-item.py did not start: '\(ready)'") }
    name = String(ready.dropFirst("ready ".count))
  }

  deinit {
    child.closeInput()
    child.wait()
  }

  /// Redraws the capsule `scale` times as high and emits NewIcon.
  func draw(scale: Double) throws {
    let bytes = Array("scale \(scale)\n".utf8)
    guard bytes.withUnsafeBytes({ write(child.input, $0.baseAddress, $0.count) }) == bytes.count else {
      throw TestFailure("writing to tray-item.py failed: errno \(errno)")
    }
  }
}
