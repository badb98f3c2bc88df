import Foundation

/// The built programs as a package installs them: `badged`, `badgectl`, `badged-sources` and
/// `seccomp-run` in `bin/`, and every library they load from outside the system's library folders (the Swift
/// runtime, wherever the toolchain is) in `lib/`, owned by root and readable by every user.
///
/// The tests run the programs from here where the checkout may be out of reach: as another
/// user (nobody may not enter a home folder, or the toolchain in one), and inside the sandbox,
/// which hides /tmp and the home folders, so a build there is gone (SandboxTests mounts the
/// copy at /usr/local). One copy per test run, in `TestRun.folder`.
struct InstalledBinaries: Sendable {
  /// The folder holding `bin/` and `lib/`.
  let prefix: String

  /// The installed `program`.
  func path(_ program: String) -> String { prefix + "/bin/" + program }

  /// What makes the programs load the copied libraries rather than the toolchain's.
  var environment: [String: String] { ["LD_LIBRARY_PATH": prefix + "/lib"] }

  static let programs = ["badged", "badgectl", "badged-sources", "seccomp-run"]

  /// Where the libraries every process finds as they are live; the sandbox keeps them, read-only.
  static let systemLibraryFolders = ["/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"]

  /// The copy as SandboxTests mounts it inside the sandbox.
  static let inSandbox = InstalledBinaries(prefix: "/usr/local")

  /// The test run's copy, made the first time a test asks for it.
  static func copy() throws -> InstalledBinaries { try made.get() }

  private static let made = Result { () throws(TestFailure) -> InstalledBinaries in
    do {
      return try install(into: TestRun.folder + "/installed")
    } catch {
      throw TestFailure("could not install the built programs for the tests: \(error)")
    }
  }

  /// Copies with install(1): the copies are written by that child alone. Were the test process
  /// to write them, a program another test starts at that moment could inherit the open file,
  /// and running the copy would fail with ETXTBSY while it held it.
  private static func install(into prefix: String) throws -> InstalledBinaries {
    func install(_ mode: String, _ source: String, _ destination: String) throws {
      // Without -d, install copies the file a link names, not the link.
      let result = try run("/usr/bin/install", ["-m", mode, source, destination])
      guard result.status == 0 else { throw TestFailure("install \(source): \(result.stderr)") }
    }
    for folder in [prefix, prefix + "/bin", prefix + "/lib"] {
      guard mkdir(folder, 0o755) == 0, chmod(folder, 0o755) == 0 else {
        throw TestFailure("mkdir \(folder): errno \(errno)")
      }
    }
    let installed = InstalledBinaries(prefix: prefix)
    var libraries: [String: String] = [:]
    for program in programs {
      let built = Binaries.folder.appendingPathComponent(program).path
      guard FileManager.default.isExecutableFile(atPath: built) else {
        throw TestFailure("\(built) is missing: run 'swift build' before 'swift test' (make test does)")
      }
      try install("0755", built, installed.path(program))
      for library in try loadedLibraries(built) where !systemLibraryFolders.contains(where: library.file.hasPrefix) {
        libraries[library.name] = library.file
      }
    }
    for (name, file) in libraries { try install("0644", file, prefix + "/lib/" + name) }
    return installed
  }

  /// The libraries `program` loads, as `ldd` lists them: the name asked for, and the file the
  /// loader finds for it (`libswiftCore.so => /opt/swift/…/libswiftCore.so (0x…)`).
  static func loadedLibraries(_ program: String) throws -> [(name: String, file: String)] {
    let listing = try run("ldd", [program])
    guard listing.status == 0 else { throw TestFailure("ldd \(program): \(listing.stderr)") }
    return try listing.stdout.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ", omittingEmptySubsequences: true).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard words.count >= 3, words[1] == "=>" else { return nil }  // the vDSO and the loader itself
      guard words[2].hasPrefix("/") else { throw TestFailure("\(program) cannot load \(words[0]): \(line)") }
      return (words[0], words[2])
    }
  }
}
