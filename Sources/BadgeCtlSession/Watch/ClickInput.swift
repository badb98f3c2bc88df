import BadgeCtl
import BadgeProtocol
import BadgeSystem

/// Click lines that a bar writes to the watcher's standard input (i3blocks with
/// `interval=persist`), read on the watcher's event loop.
///
/// A left click calls `onClear`; other buttons are ignored. When standard input ends, or fails,
/// the watch on it stops and the watcher carries on: a bar that closes the pipe must neither
/// end the watcher nor make it spin on an endless end of file.
final class ClickInput {
  private var source: IOSource?
  private var reader = LineReader(maxLineLength: 4096, capacity: 16384)
  private let onClear: () -> Void

  /// Starts reading standard input; no clicks are read when it cannot be watched (a regular
  /// file or `/dev/null`).
  init(loop: EventLoop, onClear: @escaping () -> Void) {
    self.onClear = onClear
    source = try? loop.addIO(fd: .standardInput, events: .readable) { [unowned self] _ in readable() }
  }

  /// One `read(2)` per readiness: the descriptor may be blocking (it is the bar's pipe, and its
  /// flags are shared with the bar), and readiness guarantees that one read returns at once.
  private func readable() {
    let result = try? reader.read(from: .standardInput).get()
    let ended = result == nil || result == .endOfFile
    var clicked = false
    reader.forEachFrame { frame in
      if case .line(let bytes) = frame, I3blocksClick.button(in: bytes) == I3blocksClick.clearButton {
        clicked = true
      }
      return true
    }
    if clicked { onClear() }
    if ended {
      source?.cancel()
      source = nil
    }
  }
}
