/// Certificate authorities a test makes with openssl (elliptic-curve keys, made at once), and
/// server certificates they sign, in a folder of the test's own.
final class TestCA {
  let folder: TestFolder
  let name: String

  /// The CA's certificate, for `caFile`.
  var certificate: String { folder.file("\(name).pem") }

  init(_ name: String, in folder: TestFolder) throws {
    self.folder = folder
    self.name = name
    try runChecked(
      ["openssl", "req", "-x509"] + Self.curve + [
        "-days", "2", "-subj", "/CN=\(name)", "-keyout", folder.file("\(name).key"), "-out", certificate,
      ])
  }

  /// A certificate for `names` (subjectAltName entries: `DNS:localhost`, `IP:127.0.0.1`) signed
  /// by this CA: the paths of its certificate and key.
  func issue(_ file: String, names: [String]) throws -> (certificate: String, key: String) {
    let key = folder.file("\(file).key")
    let request = folder.file("\(file).csr")
    let extensions = try folder.write("\(file).ext", "subjectAltName=\(names.joined(separator: ","))\n")
    try runChecked(["openssl", "req"] + Self.curve + ["-subj", "/CN=\(file)", "-keyout", key, "-out", request])
    try runChecked([
      "openssl", "x509", "-req", "-in", request, "-CA", certificate, "-CAkey", folder.file("\(name).key"),
      "-CAcreateserial", "-days", "2", "-extfile", extensions, "-out", folder.file("\(file).pem"),
    ])
    return (folder.file("\(file).pem"), key)
  }

  private static let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
}
