import Foundation
import TestSupport
import Testing

/// The bar configurations in contrib/bars are the snippets of docs/BARS.md (and Waybar's, of the
/// README too), and the one bar that cannot run here (eww is not packaged for Debian 12) is
/// checked against its documented contract instead.
@Suite struct ContribTests {
  static let files = [
    "waybar/config", "waybar/style.css", "polybar/config.ini", "i3blocks/i3blocks.conf", "tmux/tmux.conf",
    "yambar/config.yml", "eww/eww.yuck",
  ]

  /// The one snippet the README shows, beside the guide's.
  static let readmeFiles = ["waybar/config", "waybar/style.css"]

  @Test(arguments: files) func theBarsGuideShowsExactlyTheFileTheTestsRun(_ file: String) throws {
    try expectShown(file, in: "docs/BARS.md")
  }

  @Test(arguments: readmeFiles) func theReadmeShowsExactlyTheFileTheTestsRun(_ file: String) throws {
    try expectShown(file, in: "README.md")
  }

  /// The document at `path` in the checkout holds contrib/bars/`file` word for word.
  private func expectShown(_ file: String, in path: String) throws {
    let document = try String(contentsOfFile: Repository.path(path), encoding: .utf8)
    #expect(document.contains(try Contrib.text(file)), "\(path) does not show contrib/bars/\(file) as it is")
  }

  /// eww's `deflisten` replaces its variable with each line; `mail.field` reads a member of the
  /// JSON object. Every member the snippet reads must be one the eww format writes.
  @Test func theEwwSnippetReadsOnlyFieldsTheFormatWrites() throws {
    let snippet = try Contrib.text("eww/eww.yuck")
    #expect(snippet.contains("(deflisten mail ") && snippet.contains("\"badgectl watch mail --format eww\""))
    let read = Set(snippet.matches(of: /mail\.([A-Za-z]+)/).map { String($0.1) })
    #expect(read.count >= 4)
    let daemon = try DaemonProcess()
    try badgectl(["set", "mail", "3"], socket: daemon.socket)
    let object = try jsonObject(WatchProcess(["mail", "--format", "eww"], socket: daemon.socket).readLine())
    #expect(read.subtracting(object.keys).isEmpty, "not written: \(read.subtracting(object.keys))")
    // The :initial value is an object with the same members, so the widget reads them before
    // the first line arrives.
    let initial = try #require(snippet.firstMatch(of: /:initial "((?:[^"\\]|\\.)*)"/)).1
    let initialObject = try jsonObject(String(initial).replacingOccurrences(of: "\\\"", with: "\""))
    #expect(read.subtracting(initialObject.keys).isEmpty)
  }

  /// Every class the Waybar CSS styles is one the waybar format writes.
  @Test func theWaybarCSSUsesTheFormatsClasses() throws {
    let css = try Contrib.text("waybar/style.css")
    let used = Set(css.matches(of: /#custom-mail\.([a-z]+)/).map { String($0.1) })
    #expect(!used.isEmpty && used.isSubset(of: ["unread", "zero", "dot", "pulse", "muted", "offline"]))
  }
}
