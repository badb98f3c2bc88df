import Foundation
import TestSupport
import Testing

/// The page's files as badged-web serves them (web/, no build step): the six files of its
/// routes, under 60 KB in all, nothing fetched from another host, and nothing inline that the
/// Content-Security-Policy (`script-src 'self'; style-src 'self'`) would block.
@Suite struct WebPageFilesTests {
  static let files = ["index.html", "app.js", "motion.js", "style.css", "manifest.webmanifest", "icon.svg"]

  func read(_ name: String) throws -> String {
    try String(contentsOfFile: Repository.path("web/" + name), encoding: .utf8)
  }

  @Test func theSixFilesWeighUnder60KB() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Repository.path("web")).sorted()
    #expect(names == Self.files.sorted())
    let total = try Self.files.reduce(0) { $0 + (try read($1)).utf8.count }
    #expect(total < 60_000, "\(total) bytes")
  }

  @Test func nothingComesFromAnotherHost() throws {
    for name in Self.files {
      let text = try read(name).replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
      #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"), "\(name)")
      #expect(!text.contains("@import") && !text.contains("url(http"), "\(name)")
    }
  }

  @Test func thePageHasNoInlineScriptOrStyle() throws {
    let page = try read("index.html")
    #expect(!page.contains("<style") && !page.contains(" style=") && !page.contains("onclick"))
    let scripts = page.matches(of: /<script([^>]*)>/).map { String($0.1) }
    #expect(scripts == [" src=\"motion.js\" defer", " src=\"app.js\" defer"])
    for link in ["manifest.webmanifest", "icon.svg", "style.css"] {
      #expect(page.contains("href=\"\(link)\""), "\(link)")
    }
    #expect(try read("manifest.webmanifest").contains("\"src\": \"icon.svg\""))
  }

  /// The hooks the browser tests read are there: the event log, the frame trace, the frame count.
  @Test func theTestHooksAreThere() throws {
    let app = try read("app.js")
    for hook in ["badgedLog", "badgedFrames", "badgedTrace", "badgedRafCount", "badgedWrites", "badgedPause"] {
      #expect(app.contains(hook), "\(hook)")
    }
  }
}
