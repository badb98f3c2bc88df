import Foundation

/// The checkout the tests were built from, for the files they check (units, man pages, the
/// Makefile, contrib/, the fuzz corpus): found from this file's own path when it was compiled,
/// so it is right wherever the checkout is. The one place that knows where this file sits in
/// the tree.
public enum Repository {
  /// `<root>/Tests/TestSupport/Repository.swift` → `<root>`.
  public static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The absolute path of `relative`, a path inside the checkout.
  public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}
