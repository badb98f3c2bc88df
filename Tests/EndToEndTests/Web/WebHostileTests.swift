import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// badged-web against clients that do not play along: streams that read nothing while
/// thousands of changes happen, idle connections, a header never finished, bodies of 100 MB
/// with and without a length. The server stays up, its memory bounded, and another client is
/// served at once.
@Suite struct WebHostileTests {
  @Test func streamsReadingNothingIdleConnectionsAndHugeBodiesLeaveOthersServed() throws {
    let rig = try WebRig()
    let token = try rig.token()
    var sockets: [Int32] = []
    defer { for fd in sockets { close(fd) } }
    for _ in 0..<300 {
      sockets.append(
        try WebHostileTests.connect(
          port: rig.port,
          send: "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(rig.port)\r\nAuthorization: Bearer \(token)\r\n\r\n"))
    }
    for _ in 0..<300 { sockets.append(try WebHostileTests.connect(port: rig.port, send: "")) }
    sockets.append(try WebHostileTests.connect(port: rig.port, send: "GET /api/channels HTTP/1.1\r\nHo"))

    let writer = try rig.daemon.client()
    for _ in 0..<6 { try writer.send(String(repeating: "INCR mail\n", count: 500)) }
    // The other client: served, and up to date once badged-web has taken every change.
    let served = waitUntil {
      (try? rig.request("GET", "/api/channels/mail", token: token)).map {
        $0.status == 200 && WebStreamTests.field("count", in: $0.body) == "3000"
      } ?? false
    }
    #expect(served)
    let rss = try WebHostileTests.residentKiB(rig.web.pid)
    print("badged-web VmRSS \(rss) KiB with 300 streams reading nothing, 300 idle connections, 3000 changes")
    #expect(rss < 48 * 1024, "VmRSS \(rss) KiB")

    let huge = rig.daemon.folder.file("huge")
    #expect(FileManager.default.createFile(atPath: huge, contents: Data(count: 100_000_000)))
    let sized = try capture(
      [
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
        "--data-binary", "@" + huge, rig.url + "/api/channels/mail/incr",
      ], environment: Child.environment())
    #expect(sized.stdout == "413")
    let chunked = try capture(
      [
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_upload}", "-H", "Authorization: Bearer \(token)",
        "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + huge, rig.url + "/api/channels/mail/incr",
      ],
      environment: Child.environment())
    // Refused (the connection closed) long before the 100 MB were sent.
    let uploaded = Double(chunked.stdout.split(separator: " ").last ?? "") ?? .infinity
    print("a chunked 100 MB body was cut off after \(Int(uploaded)) bytes")
    #expect(uploaded < 50_000_000, "\(chunked.stdout)")
    #expect(try rig.ctl("get", "mail").hasPrefix("mail 3000"))
    #expect(rig.web.isRunning)
  }

  /// A TCP connection to badged-web that sends `text` and never reads (a small receive buffer,
  /// so the stream backs up at once).
  static func connect(port: Int, send text: String) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
    var size: Int32 = 4096
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      throw TestFailure("connect: errno \(errno)")
    }
    if !text.isEmpty { _ = text.withCString { write(fd, $0, strlen($0)) } }
    return fd
  }

  /// The resident memory of `pid` (VmRSS of /proc/<pid>/status), in KiB.
  static func residentKiB(_ pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { throw TestFailure("no VmRSS in /proc/\(pid)/status") }
    return kib
  }
}

/// issue 31's hostile clients at their full size, each from Fixtures/web/hostile.py against one
/// badged-web: 10,000 idle connections, a slowloris, malformed and oversized requests, and
/// 1,000 event streams that read nothing while 5,000 changes are made. After each, another
/// client is served with the exact count; the figures (resident memory before, during and
/// after) are printed.
@Suite struct WebHostileScaleTests {
  @Test func theServerStaysUpAndServesOthersAtTheIssuesScale() throws {
    let rig = try WebRig()
    let token = try rig.token()
    try rig.ctl("set", "mail", "2")
    func attack(_ name: String, _ extra: [String] = []) throws -> [String] {
      let result = try capture(
        [
          "/usr/bin/python3", Repository.path("Tests/EndToEndTests/Fixtures/web/hostile.py"), rig.url, token,
          String(rig.web.pid), name,
        ] + extra, environment: Child.environment())
      #expect(result.status == 0, "\(name): \(result.stderr)")
      print("hostile \(name): " + result.stdout.split(separator: "\n").joined(separator: "; "))
      #expect(rig.web.isRunning, "\(name): \(rig.log)")
      return result.stdout.split(separator: "\n").map(String.init)
    }
    let idle = try attack("idle")
    #expect(idle.contains("served 200 2") && idle.contains("refused 0"), "\(idle)")
    #expect(try attack("slowloris").contains("served 200 2"))
    let headers = try attack("headers")
    #expect(headers.contains("served 200 2"), "\(headers)")
    // Each malformed request is refused with a 4xx or 505, or its connection closed.
    let answers = headers.filter { $0.hasPrefix("answered ") }.map { Int($0.split(separator: " ")[1]) ?? -1 }
    #expect(answers.count == 6 && answers.allSatisfy { $0 == 0 || (400..<500).contains($0) || $0 == 505 }, "\(answers)")
    let readers = try attack("readers", [rig.daemon.socket])
    #expect(readers.contains("served 200 5002"), "\(readers)")
    // Memory stays bounded: the streams that read nothing share the ring, each holding at
    // most what its socket and libmicrohttpd's buffer take.
    let rss = readers.first { $0.hasPrefix("rss_kb ") }.map { Int($0.split(separator: " ")[2]) ?? .max } ?? .max
    #expect(rss < 192 * 1024, "VmRSS \(rss) KiB during the readers")
  }
}
