import Foundation
import Testing

/// The protocol spoken to the real daemon over a raw socket.
@Suite struct ProtocolTests {
  @Test func helloReportsVersionAndProtocol() throws {
    let daemon = try DaemonProcess()
    let reply = try daemon.client().request("HELLO")
    #expect(reply.count == 2)
    #expect(reply[0].hasPrefix("badged ") && reply[0].hasSuffix(" protocol=1"))
    #expect(reply[1] == "OK")
  }

  @Test func changesAnswerWithTheStateLine() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let incr = try client.request("INCR mail")
    #expect(incr.count == 2 && incr[1] == "OK")
    #expect(incr[0].hasPrefix("STATE mail count=1 label=1 dot=0 pulse="))
    #expect(incr[0].hasSuffix(" muted=0 seq=1 badge=count dnd=off unseen=1 total=1"))
    #expect(try client.request("incr mail 4")[0].hasPrefix("STATE mail count=5 "))
    #expect(try client.request("DECR mail 2")[0].hasPrefix("STATE mail count=3 "))
    // At 0 the channel is forgotten at total 5: the new one's totals run on from there.
    #expect(try client.request("DECR mail 100")[0].hasPrefix("STATE mail count=0 label= "))
    #expect(try client.request("SET mail 120")[0].hasPrefix("STATE mail count=120 label=99+ "))
    #expect(
      try client.request("CLEAR mail")[0]
        == "STATE mail count=0 label= dot=0 pulse=0 muted=0 seq=6 badge=count dnd=off unseen=0 total=125")
    #expect(
      try client.request("GET never") == [
        "STATE never count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=125", "OK",
      ])
  }

  @Test func listShowsChannelsWithACountOrASetting() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("INCR b")
    _ = try client.request("SET a 2")
    _ = try client.request("INCR gone")
    _ = try client.request("CLEAR gone")
    _ = try client.request("MUTE quiet")
    let list = try client.request("LIST")
    #expect(
      list.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        == ["STATE a count=2", "STATE b count=1", "STATE quiet count=0", "OK"])
    #expect(field(list[2], "muted") == "1")
  }

  @Test func clearAllClearsEveryChannelWithAStateLineEach() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("SET a 2")
    _ = try client.request("SET b 3")
    let reply = try client.request("CLEAR *")
    #expect(reply.count == 3)
    #expect(reply.dropLast().allSatisfy { field($0, "count") == "0" })
    #expect(try client.request("LIST") == ["OK"])
  }

  @Test func muteStopsThePulseAndUnmuteKeepsTheCount() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    #expect(try field(client.request("INCR mail")[0], "pulse") != "0")
    let muted = try client.request("MUTE mail")[0]
    #expect(field(muted, "muted") == "1" && field(muted, "pulse") == "0")
    let again = try client.request("INCR mail")[0]
    #expect(field(again, "count") == "2" && field(again, "pulse") == "0")
    let unmuted = try client.request("UNMUTE mail")[0]
    #expect(field(unmuted, "muted") == "0" && field(unmuted, "count") == "2")
  }

  @Test func configureChangesStyleAndLimitOverTheSocket() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("SET ci 12")
    #expect(try field(client.request("CONFIGURE ci max_label=9")[0], "label") == "9+")
    let dot = try client.request("CONFIGURE ci style=dot")[0]
    #expect(field(dot, "label") == "•" && field(dot, "dot") == "1")
    #expect(try field(client.request("CONFIGURE ci style=default max_label=default")[0], "label") == "12")
  }

  @Test func sequenceNumbersGrowByOneWithEveryChangeOnly() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    #expect(try field(client.request("INCR a")[0], "seq") == "1")
    #expect(try field(client.request("INCR b")[0], "seq") == "2")
    #expect(try field(client.request("DECR c")[0], "seq") == "0")  // no change: never written
    #expect(try field(client.request("SET b 1")[0], "seq") == "2")  // no change
    #expect(try field(client.request("GET a")[0], "seq") == "1")
    #expect(try field(client.request("INCR a")[0], "seq") == "3")
  }

  @Test func pingQuitAndCRLF() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    try client.send("PING\r\n")
    #expect(try client.readReply() == ["OK pong"])
    try client.send("\n\n  \nGET a\r\n")  // blank lines get no reply
    #expect(try client.readReply().last == "OK")
    #expect(try client.request("QUIT") == ["OK bye"])
    #expect(try client.readLine() == nil)
  }

  @Test func repliesComeInRequestOrderWhenPipelined() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    var batch = ""
    for i in 1...1000 { batch += i % 2 == 0 ? "INCR even\n" : "INCR odd 2\n" }
    try client.send(batch)
    var even = 0
    var odd = 0
    for i in 1...1000 {
      let reply = try client.readReply()
      #expect(reply.count == 2 && reply[1] == "OK")
      if i % 2 == 0 {
        even += 1
        #expect(field(reply[0], "count") == String(even))
      } else {
        odd += 2
        #expect(field(reply[0], "count") == String(odd))
      }
      #expect(field(reply[0], "seq") == String(i))
    }
    #expect(try client.request("GET odd")[0].hasPrefix("STATE odd count=1000 "))
  }

  @Test func manyClientsAtOnceEachGetTheirOwnReplies() throws {
    let daemon = try DaemonProcess()
    let clients = try (0..<20).map { _ in try daemon.client() }
    for (i, client) in clients.enumerated() { try client.send(String(repeating: "INCR c\(i)\n", count: 50)) }
    for (i, client) in clients.enumerated() {
      for n in 1...50 { #expect(try field(client.readReply()[0], "count") == String(n), "client \(i)") }
    }
  }
}

/// Back-pressure: a client that pipelines without reading is not read until its replies are
/// sent, and then every request is carried out, in order.
@Suite struct BackPressureTests {
  @Test func aClientThatDoesNotReadIsPausedThenServedInOrder() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let total = 40_000  // about 2.3 MB of replies: past the 1 MiB at which reading pauses
    let fd = client.fd
    let blocked = DispatchSemaphore(value: 0)
    Thread {
      let bytes = Array(String(repeating: "INCR mail\n", count: total).utf8)
      var offset = 0
      var signalled = false
      while offset < bytes.count {
        // Non-blocking until the socket is full, so the test starts reading only once the
        // daemon has fallen behind (and, with the replies waiting, paused reading).
        let flags = signalled ? Int32(MSG_NOSIGNAL) : Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
        let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, flags) }
        if n > 0 {
          offset += n
        } else if errno == EAGAIN && !signalled {
          signalled = true
          blocked.signal()
        } else if errno != EINTR {
          break
        }
      }
      if !signalled { blocked.signal() }
    }.start()
    blocked.wait()
    for i in 1...total {
      let reply = try client.readReply()
      #expect(reply.count == 2 && reply[0].hasPrefix("STATE mail count=\(i) "), "\(reply)")
      if reply.count != 2 { break }
    }
    #expect(try client.request("PING") == ["OK pong"])
  }
}
