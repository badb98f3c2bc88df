import BadgeSystem
import Glibc
import Testing

/// Where the socket, config and state go, under each environment. Serialized: the tests change
/// the process environment, and put it back afterwards.
@Suite(.serialized) struct XDGPathsTests {
  static let names = ["XDG_RUNTIME_DIR", "BADGED_SOCKET", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME"]

  /// Runs `body` with `values` set (`nil` unsets), restoring every variable it may touch.
  static func with(_ values: [String: String?], _ body: () -> Void) {
    let saved = names.map { name in (name, getenv(name).map { String(cString: $0) }) }
    defer {
      for (name, value) in saved {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
      }
    }
    for (name, value) in values { Environment.set(name, value) }
    body()
  }

  static let uid = getuid()

  @Test func runtimeFolderFollowsXDGRuntimeDir() {
    Self.with(["XDG_RUNTIME_DIR": "/run/user/4242", "BADGED_SOCKET": nil]) {
      #expect(XDGPaths.runtimeFolder == "/run/user/4242/badged")
      #expect(XDGPaths.defaultSocket == "/run/user/4242/badged/badged.sock")
    }
  }

  @Test(arguments: [nil, ""] as [String?])
  func withoutXDGRuntimeDirTheFolderIsPerUserInTmp(_ value: String?) {
    Self.with(["XDG_RUNTIME_DIR": value, "BADGED_SOCKET": nil]) {
      #expect(XDGPaths.runtimeFolder == "/tmp/badged-\(Self.uid)")
      #expect(XDGPaths.defaultSocket == "/tmp/badged-\(Self.uid)/badged.sock")
    }
  }

  @Test func badgedSocketWinsOverTheRuntimeFolder() {
    Self.with(["XDG_RUNTIME_DIR": "/run/user/4242", "BADGED_SOCKET": "/srv/b.sock"]) {
      #expect(XDGPaths.defaultSocket == "/srv/b.sock")
      #expect(XDGPaths.runtimeFolder == "/run/user/4242/badged")
    }
    Self.with(["XDG_RUNTIME_DIR": "/run/user/4242", "BADGED_SOCKET": ""]) {
      #expect(XDGPaths.defaultSocket == "/run/user/4242/badged/badged.sock", "empty is unset")
    }
  }

  @Test func configAndStateFollowTheirXDGVariables() {
    Self.with(["XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/state", "HOME": "/home/ann"]) {
      #expect(XDGPaths.defaultConfigFile == "/cfg/badged/badged.conf")
      #expect(XDGPaths.defaultStateFolder == "/state/badged")
    }
  }

  @Test func withoutThemConfigAndStateAreUnderHome() {
    Self.with(["XDG_CONFIG_HOME": nil, "XDG_STATE_HOME": "", "HOME": "/home/ann"]) {
      #expect(Environment.home == "/home/ann")
      #expect(XDGPaths.defaultConfigFile == "/home/ann/.config/badged/badged.conf")
      #expect(XDGPaths.defaultStateFolder == "/home/ann/.local/state/badged")
    }
  }

  @Test func withoutHomeTheHomeFolderComesFromThePasswordDatabase() throws {
    let entry = try #require(getpwuid(getuid()))
    let home = String(cString: entry.pointee.pw_dir)
    Self.with(["HOME": nil, "XDG_CONFIG_HOME": nil]) {
      #expect(Environment.home == home)
      #expect(XDGPaths.defaultConfigFile == home + "/.config/badged/badged.conf")
    }
  }

  @Test func environmentValuesTreatEmptyAsUnset() {
    Self.with(["BADGED_SOCKET": "x"]) {
      #expect(Environment.value("BADGED_SOCKET") == "x")
      Environment.set("BADGED_SOCKET", "")
      #expect(Environment.value("BADGED_SOCKET") == nil)
      #expect(getenv("BADGED_SOCKET") != nil, "set, but empty")
      Environment.set("BADGED_SOCKET", nil)
      #expect(getenv("BADGED_SOCKET") == nil)
    }
  }

  @Test func processIdentity() {
    #expect(Environment.userID == getuid())
    #expect(Environment.processID == getpid())
  }
}
