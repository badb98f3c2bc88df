import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// badged-web as a program: a refused `[web]` section, the body limit, badged going away and
/// coming back (the feed resumes with `WATCH since=`), and a token revoked under an open stream.
@Suite struct WebProgramTests {
  @Test func aRefusedWebSectionExits78AndSaysWhy() throws {
    let folder = try TemporaryFolder()
    let config = try folder.write("web.conf", "[web]\nkeepalive = 0\n")
    let web = try SourcesProcess(
      folder: folder, config: config, socket: folder.file("none.sock"), executable: Binaries.badgedWeb.path)
    #expect(waitUntil { !web.isRunning })
    #expect(web.stop() == 78)
    #expect(web.log.contains("web.conf:2"))
    #expect(web.log.contains("keepalive"))
  }

  @Test func readyComesOnceTheAddressesAreServedAndStoppingAtSigterm() throws {
    let daemon = try DaemonProcess()
    let notify = try DatagramListener(path: daemon.folder.file("notify.sock"))
    let port = try Broker.freePort()
    let config = try daemon.folder.write("web.conf", "[web]\nlisten = 127.0.0.1:\(port)\n")
    let web = try SourcesProcess(
      folder: daemon.folder, config: config, socket: daemon.socket, environment: ["NOTIFY_SOCKET": notify.path],
      executable: Binaries.badgedWeb.path)
    let ready = try notify.next { $0.contains("READY=1") }
    #expect(ready.split(separator: "\n").contains("STATUS=Serving on 127.0.0.1:\(port)"), "\(ready)")
    // No retry: the address answers when READY=1 arrives.
    let answer = try capture(
      ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/api/channels"],
      environment: Child.environment())
    #expect(answer.stdout == "401")
    web.signal(SIGTERM)
    _ = try notify.next { $0.contains("STOPPING=1") }
    #expect(web.stop() == 0)
  }

  /// Behind a reverse proxy: a Unix socket, answering to public_url's host (what the proxy
  /// passes on) and to no other name.
  @Test func aUnixSocketServesTheNameOfPublicURL() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("web.sock")
    let rig = try WebRig(extra: "listen = unix:\(path)\npublic_url = https://badges.example.org\n")
    let token = try rig.token()
    try rig.ctl("incr", "mail", "4")
    func get(host: String) throws -> String {
      try capture(
        [
          "curl", "-s", "-w", " %{http_code}", "--unix-socket", path, "-H", "Host: \(host)", "-H",
          "Authorization: Bearer \(token)", "http://\(host)/api/channels/mail",
        ], environment: Child.environment()
      ).stdout
    }
    let served = try get(host: "badges.example.org")
    #expect(served.hasSuffix(" 200") && WebStreamTests.field("count", in: served) == "4", "\(served)")
    #expect(try get(host: "elsewhere.example.org").hasSuffix(" 421"))
  }

  @Test func aListenAddressInUseExits1AndNamesIt() throws {
    let rig = try WebRig()
    let config = try rig.daemon.folder.write("second.conf", "[web]\nlisten = 127.0.0.1:\(rig.port)\n")
    let second = try SourcesProcess(
      folder: rig.daemon.folder, config: config, socket: rig.daemon.socket, executable: Binaries.badgedWeb.path)
    #expect(waitUntil { !second.isRunning })
    #expect(second.stop() == 1)
    #expect(second.log.contains("bind to '127.0.0.1:\(rig.port)'"))
    #expect(rig.web.isRunning)
  }

  @Test func aBodyOverEightKiBIs413AndChangesNothing() throws {
    let rig = try WebRig()
    let token = try rig.token()
    let big = "n=1&pad=" + String(repeating: "x", count: 9000)
    let answer = try rig.request("POST", "/api/channels/mail/incr", token: token, form: big)
    #expect(answer.status == 413)
    #expect(try rig.ctl("get", "mail").hasPrefix("mail 0"))
    // A body under the limit is read as a form.
    let small = try rig.request("POST", "/api/channels/mail/incr", token: token, form: "n=2&id=small-1")
    #expect(small.status == 200)
    #expect(WebStreamTests.field("count", in: small.body) == "2")
  }

  @Test func whileBadgedIsAwayStreamsGetOfflineThenGoOnWhenItIsBack() throws {
    let rig = try WebRig()
    let token = try rig.token(readOnly: true)
    try rig.ctl("incr", "mail", "4")
    let stream = try EventStreamReader(rig: rig, token: token)
    #expect(try stream.nextEvent().id == "1")
    try rig.restartDaemon {
      let offline = try stream.nextEvent()
      #expect(offline.name == "offline")
      #expect(offline.id == nil)
      #expect(offline.data?.hasPrefix("{\"since\":") == true)
      // Writes while badged is away are answered 503.
      let write = try rig.request("POST", "/api/channels/mail/incr", token: try rig.token(), form: "n=1")
      #expect(write.status == 503)
    }
    // badged restored seq 1: `WATCH since=1` replays nothing, and the stream goes on with the
    // next change, no reset in between.
    try rig.ctl("incr", "mail")
    let change = try stream.nextEvent()
    #expect(change.name == "change")
    #expect(change.id == "2")
    #expect(change.data.flatMap { WebStreamTests.field("count", in: $0) } == "5")
  }

  @Test func thePagesFilesComeFromTheRootWithTheirTypesAndPolicy() throws {
    let rig = try WebRig()
    let token = try rig.token(readOnly: true)
    _ = try rig.daemon.folder.write("index.html", "<!doctype html><title>badged</title>\n")
    _ = try rig.daemon.folder.write("style.css", "body{}\n")
    _ = try rig.daemon.folder.write("secret.txt", "not served\n")
    let index = try rig.request("GET", "/", token: token)
    #expect(index.status == 200)
    #expect(index.body == "<!doctype html><title>badged</title>\n")
    #expect(index.headers.first { $0.name == "content-type" }?.value == "text/html; charset=utf-8")
    #expect(index.headers.first { $0.name == "content-security-policy" }?.value.hasPrefix("default-src 'self'") == true)
    let style = try rig.request("GET", "/style.css", token: token)
    #expect(style.headers.first { $0.name == "content-type" }?.value == "text/css; charset=utf-8")
    #expect(try rig.request("GET", "/app.js", token: token).status == 404)
    #expect(try rig.request("GET", "/secret.txt", token: token).status == 404)
    #expect(try rig.request("GET", "/../secret.txt", token: token).status == 404)
  }

  @Test func aRevokedTokensStreamEndsAtTheNextKeepAlive() throws {
    let rig = try WebRig(keepalive: 1)
    let issued = try rig.issuedToken(readOnly: true)
    let stream = try EventStreamReader(rig: rig, token: issued.token)
    #expect(try stream.nextEvent().name == "snapshot")
    #expect(try stream.next().comment == "keep-alive")
    try rig.revoke(issued.access.id)
    #expect(stream.ended(timeout: 5))
    #expect(try rig.request("GET", "/api/channels", token: issued.token).status == 401)
  }
}
