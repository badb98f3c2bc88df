import TestSupport
import Testing

@testable import BadgeRender

/// eww/json, frames and yambar: the values themselves.
@Suite struct ChannelJSONFormatTests {
  @Test func restingChannel() {
    var watcher = ManualWatcher(.eww)
    watcher.receive(snapshot(count: 4))
    #expect(
      watcher.draw() == """
        {"channel":"mail","count":4,"label":"4","dot":false,"pulse":0,"muted":false,"seq":1,"badge":"count","dnd":"off","unseen":4,\
        "online":true,"pulsing":false,"shown":"4","previous":"","direction":"",\
        "scale":1.000000,"opacity":1.000000,"offset":0.000000,"dotScale":1.000000,"dotOpacity":1.000000,\
        "text":"mail: 4 unread","class":["unread"]}

        """)
  }

  @Test func theStateFieldsAreTheOnesGetPrints() {
    var object = JSONObject()
    object.addState(of: snapshot("ci", count: 120, pulseMs: 2000, online: false))
    #expect(
      object.text == """
        {"channel":"ci","count":120,"label":"99+","dot":false,"pulse":2000,"muted":false,"seq":1,"badge":"count","dnd":"off","unseen":120,\
        "online":false}
        """)
  }

  /// The running total the daemon sent comes after `unseen`; a line without one (an older
  /// daemon) adds no field.
  @Test func theTotalFollowsUnseenWhenTheDaemonSentIt() {
    var state = snapshot("ci", count: 2)
    state.total = 9
    var object = JSONObject()
    object.addState(of: state)
    #expect(object.text.contains(#""unseen":2,"total":9,"online":true}"#))
  }

  @Test func rollingChannelAndOneLinePerChannel() {
    var watcher = ManualWatcher(.json, at: 10)
    watcher.receive(snapshot(count: 10))
    watcher.receive(snapshot("ci", count: 0))
    watcher.receive(snapshot(count: 9, pulseMs: 3000))
    watcher.advance(to: 10.05)
    #expect(
      watcher.draw() == """
        {"channel":"mail","count":9,"label":"9","dot":false,"pulse":2950,"muted":false,"seq":1,"badge":"count","dnd":"off","unseen":9,\
        "online":true,"pulsing":true,"shown":"9","previous":"10","direction":"down",\
        "scale":1.109683,"opacity":1.000000,"offset":-0.611898,"dotScale":1.000000,"dotOpacity":1.000000,\
        "text":"mail: 9 unread","class":["unread","pulse"]}
        {"channel":"ci","count":0,"label":"","dot":false,"pulse":0,"muted":false,"seq":1,"badge":"count","dnd":"off","unseen":0,\
        "online":true,"pulsing":false,"shown":"","previous":"","direction":"",\
        "scale":1.000000,"opacity":0.000000,"offset":0.000000,"dotScale":1.000000,"dotOpacity":1.000000,\
        "text":"ci: no unread","class":["zero"]}

        """)
  }
}

@Suite struct FramesFormatTests {
  @Test func exactEngineValuesAtThePeak() {
    var watcher = ManualWatcher(.frames, at: 10)
    watcher.receive(snapshot(count: 3))
    watcher.receive(snapshot(count: 4))
    watcher.advance(to: 10.128)
    #expect(
      watcher.draw() == """
        {"t":0.128000,"channel":"mail","label":"4","previous":"3","dot":false,"scale":1.314340,\
        "opacity":1.000000,"offset":0.095945,"dotScale":1.000000,"dotOpacity":1.000000}

        """)
  }

  @Test func dotPulseAtPointFour() {
    var watcher = ManualWatcher(.frames)
    watcher.receive(snapshot("alerts", count: 2, dot: true))
    watcher.receive(snapshot("alerts", count: 3, dot: true, pulseMs: 3000))
    watcher.advance(to: 0.4)
    #expect(
      watcher.draw() == """
        {"t":0.400000,"channel":"alerts","label":"•","previous":"","dot":true,"scale":1.000000,\
        "opacity":1.000000,"offset":0.000000,"dotScale":1.250000,"dotOpacity":0.700000}

        """)
  }
}

@Suite struct YambarFormatTests {
  @Test func oneChannelSetEndsWithAnEmptyLine() {
    var watcher = ManualWatcher(.yambar)
    watcher.receive(snapshot("ci", count: 120, pulseMs: 3000))
    #expect(
      watcher.draw() == """
        channel|string|ci
        count|int|120
        label|string|99+
        shown|string|99+
        dot|bool|false
        pulse|bool|true
        muted|bool|false
        quiet|bool|false
        dnd|string|off
        online|bool|true
        scale|float|1.000000
        opacity|float|1.000000
        text|string|ci: 120 unread (shown as 99+)


        """)
  }

  @Test func severalChannelsPrefixTheirTags() {
    var watcher = ManualWatcher(.yambar)
    watcher.receive(snapshot("mail:work", count: 7, muted: true))
    watcher.receive(snapshot("ci", count: 0, online: false))
    #expect(
      watcher.draw() == """
        mail_work_channel|string|mail:work
        mail_work_count|int|7
        mail_work_label|string|7
        mail_work_shown|string|7
        mail_work_dot|bool|false
        mail_work_pulse|bool|false
        mail_work_muted|bool|true
        mail_work_quiet|bool|false
        mail_work_dnd|string|off
        mail_work_online|bool|true
        mail_work_scale|float|1.000000
        mail_work_opacity|float|0.500000
        mail_work_text|string|mail:work: 7 unread, muted
        ci_channel|string|ci
        ci_count|int|0
        ci_label|string|
        ci_shown|string|?
        ci_dot|bool|false
        ci_pulse|bool|false
        ci_muted|bool|false
        ci_quiet|bool|false
        ci_dnd|string|off
        ci_online|bool|false
        ci_scale|float|1.000000
        ci_opacity|float|1.000000
        ci_text|string|ci: offline


        """)
  }
}

/// The watcher loop on a manual clock: draw at each wake until nothing moves.
@Suite struct ManualClockTests {
  @Test func bounceDrawsOnTheGridThenSleeps() throws {
    var watcher = ManualWatcher(.term, animator: AnimatorOptions(frameInterval: 1.0 / 30), at: 10)
    watcher.receive(snapshot(count: 3))
    watcher.receive(snapshot(count: 4))
    let drawn = watcher.runUntilIdle()
    // The bounce back settles 0.703740 s after the change: frames 301/30 … 322/30.
    #expect(drawn.count == 22)
    for (index, frame) in drawn.enumerated() {
      expectClose(frame.time, Double(301 + index) / 30, 1e-9)
    }
    #expect(drawn.last?.output == TermFormatTests.rest4)
    #expect(watcher.nextWake == nil)
  }

  @Test func pulseWindowRunsItsLengthThenSleeps() {
    var watcher = ManualWatcher(.waybar, at: 5)
    watcher.receive(snapshot("alerts", count: 2, dot: true))
    watcher.receive(snapshot("alerts", count: 3, dot: true, pulseMs: 1500))
    let drawn = watcher.runUntilIdle()
    #expect(drawn.count == 45)  // 30 fps over 1.5 s, the last frame at the window's end
    expectClose(drawn.last?.time ?? 0, 6.5, 1e-9)
    #expect(drawn.last?.output.hasPrefix("{\"text\":\"•\",") == true)
  }

  @Test func severalChannelsWakeTogether() {
    var watcher = ManualWatcher(.plain, at: 0)
    watcher.receive(snapshot(count: 3))
    watcher.receive(snapshot("ci", count: 1))
    watcher.receive(snapshot(count: 4))
    watcher.advance(to: 0.2)
    watcher.receive(snapshot("ci", count: 2))
    let drawn = watcher.runUntilIdle()
    #expect(Set(drawn.map(\.time)).count == drawn.count)
    #expect(drawn.last?.output == "mail 4 ci 2\n")
  }

  @Test func tmuxWatcherNeverWakes() {
    var watcher = ManualWatcher(.tmux, animator: AnimatorOptions(noMotion: true))
    watcher.receive(snapshot(count: 3))
    watcher.receive(snapshot(count: 4, pulseMs: 3000))
    #expect(watcher.runUntilIdle().isEmpty)
  }
}
