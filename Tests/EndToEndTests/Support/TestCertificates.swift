import Foundation

/// A CA of a test's own and a server certificate it signed, made by openssl in a folder:
/// `ca.pem`, `srv.pem` and `srv.key` (readable by every user: a server that drops privileges
/// reads them), and `other-ca.pem`, a CA that signed nothing here, for the "certificate does not
/// verify" cases. Elliptic-curve keys, which openssl makes at once.
enum TestCertificates {
  /// `names`: the subjectAltName entries (`DNS:localhost`, `IP:127.0.0.1`): Python's `ssl`
  /// checks an address against the IP entries, mbsync a name against the DNS ones.
  static func make(in folder: String, names: [String]) throws {
    let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for (name, subject) in [("ca", "/CN=test-ca"), ("other-ca", "/CN=another CA")] {
      try openssl(
        ["req", "-x509"] + curve + [
          "-days", "2", "-subj", subject, "-keyout", "\(folder)/\(name).key", "-out", "\(folder)/\(name).pem",
        ])
    }
    try openssl(
      ["req"] + curve + ["-subj", "/CN=localhost", "-keyout", folder + "/srv.key", "-out", folder + "/srv.csr"])
    let extensions = folder + "/ext"
    try "subjectAltName=\(names.joined(separator: ","))\n".write(toFile: extensions, atomically: true, encoding: .utf8)
    try openssl([
      "x509", "-req", "-in", folder + "/srv.csr", "-CA", folder + "/ca.pem", "-CAkey", folder + "/ca.key",
      "-CAcreateserial", "-days", "2", "-extfile", extensions, "-out", folder + "/srv.pem",
    ])
    for name in ["ca.pem", "other-ca.pem", "srv.pem", "srv.key"] { chmod(folder + "/" + name, 0o644) }
  }

  private static func openssl(_ arguments: [String]) throws {
    let result = try run("openssl", arguments)
    guard result.status == 0 else { throw TestFailure("openssl \(arguments[0]) failed: \(result.stderr)") }
  }
}
