import Foundation
import TestSupport
import Testing

/// What the layering promises, read from the sources next to this file: the core imports no
/// operating-system module (the compiler refuses BadgeSystem and the C modules to it, as they
/// are not its dependencies, but `Glibc` and `Foundation` it would take), and the system module
/// knows nothing of ours above the model.
@Suite struct ModuleImportsTests {
  /// The modules the files of `Sources/<module>` import.
  static func imports(of module: String) throws -> Set<String> {
    let folder = URL(fileURLWithPath: Repository.path("Sources/\(module)"))
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
    #expect(!files.isEmpty, "\(folder.path)")
    var modules = Set<String>()
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
        modules.insert(String(line.split(separator: " ").last!))
      }
    }
    return modules
  }

  @Test func theCoreImportsTheModelAndTheProtocolOnly() throws {
    #expect(try Self.imports(of: "BadgeServer") == ["BadgeCore", "BadgeProtocol"])
  }

  @Test func theSystemModuleKnowsTheModelOnlyOfOurs() throws {
    let ours = try Self.imports(of: "BadgeSystem").filter { $0.hasPrefix("Badge") }
    #expect(ours == ["BadgeCore"])
  }
}
