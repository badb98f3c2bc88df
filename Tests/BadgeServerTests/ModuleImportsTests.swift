import Foundation
import TestSupport
import Testing

/// What the layering promises, read from the sources next to this file: the core imports no
/// operating-system module (the compiler refuses BadgeSystem and the C modules to it, as they
/// are not its dependencies, but `Glibc` and `Foundation` it would take), the system modules
/// know nothing of ours above the model and the pure modules beside it (the config's entries and
/// errors, the log's rules), and badgectl's module nothing that links libsystemd or ncursesw.
@Suite struct ModuleImportsTests {
  /// The modules the files of `Sources/<module>` import.
  static func imports(of module: String) throws -> Set<String> {
    let folder = URL(fileURLWithPath: Repository.path("Sources/\(module)"))
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
    #expect(!files.isEmpty, "\(folder.path)")
    var modules = Set<String>()
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n")
      where ["import ", "@testable import ", "@_exported import "].contains(where: line.hasPrefix) {
        modules.insert(String(line.split(separator: " ").last!))
      }
    }
    return modules
  }

  @Test func theCoreImportsTheModelTheProtocolTheConfigAndTheLogOnly() throws {
    #expect(try Self.imports(of: "BadgeServer") == ["BadgeCore", "BadgeProtocol", "BadgeConfig", "BadgeLog"])
  }

  @Test func theSystemModulesKnowTheModelTheConfigAndTheLogOnlyOfOurs() throws {
    let system = try Self.imports(of: "BadgeSystem")
    let posix = try Self.imports(of: "BadgePOSIX")
    #expect(system.filter { $0.hasPrefix("Badge") } == Set(["BadgeCore", "BadgeConfig", "BadgeLog", "BadgePOSIX"]))
    #expect(posix.filter { $0.hasPrefix("Badge") } == ["BadgeCore"])
    #expect(posix.isDisjoint(with: ["CSystemd", "CInih"]))
  }

  /// badgectl's one-shot program is BadgeCtl: what loads libsystemd or ncursesw stays in
  /// BadgeCtlSession (docs/ARCHITECTURE.md, "badgectl's two programs").
  @Test func badgectlsModuleImportsNothingThatLinksTheSessionLibraries() throws {
    let imports = try Self.imports(of: "BadgeCtl")
    #expect(imports.contains("BadgePOSIX"))
    let session = ["BadgeSystem", "BadgeScreen", "BadgeTop", "BadgeCtlSession", "CSystemd", "CNcurses"]
    #expect(imports.isDisjoint(with: session))
  }
}
