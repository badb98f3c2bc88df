import BadgeCore
import BadgeTop
import Testing

@Suite struct HoldRepeatTests {
  @Test func aHeldKeyStepsTenTimesFurtherAfterASecond() {
    var hold = HoldRepeat()
    // A terminal's repeats: the press, a 0.5 s delay, then every 40 ms.
    var times = [0.0]
    var t = 0.5
    while t < 1.6 {
      times.append(t)
      t += 0.04
    }
    let factors = times.map { hold.press("+", at: $0) }
    for (time, factor) in zip(times, factors) {
      #expect(factor == (time >= 1.0 ? 10 : 1), "at \(time)")
    }
  }

  @Test func aPauseOrAnotherKeyStartsANewHold() {
    var hold = HoldRepeat()
    _ = hold.press("+", at: 0)
    _ = hold.press("+", at: 0.5)
    #expect(hold.press("+", at: 1.1) == 10)
    // A pause longer than the gap: a new press.
    #expect(hold.press("+", at: 2.0) == 1)
    _ = hold.press("+", at: 2.5)
    #expect(hold.press("-", at: 3.1) == 1)
    _ = hold.press("-", at: 3.6)
    hold.release()
    #expect(hold.press("-", at: 4.2) == 1)
  }

  @Test func aHeldButtonRepeatsAfterADelayThenSteadily() {
    var hold = HoldRepeat()
    #expect(hold.nextRepeat(after: 0) == nil)
    _ = hold.press("mouse+", at: 10)
    #expect(hold.nextRepeat(after: 10) == 10.4)
    #expect(abs(hold.nextRepeat(after: 10.4)! - 10.5) < 1e-9)
    #expect(abs(hold.nextRepeat(after: 10.55)! - 10.6) < 1e-9)
    hold.release()
    #expect(hold.nextRepeat(after: 10.6) == nil)
  }

  @Test func theStepperStopsAtItsBounds() {
    #expect(Stepper.request(channel: "mail", count: 0, step: 1, up: false) == nil)
    #expect(Stepper.request(channel: "mail", count: 0, step: 5, up: true) == request("INCR mail 5"))
    #expect(Stepper.request(channel: "mail", count: 3, step: 5, up: false) == request("DECR mail 5"))
    #expect(Stepper.request(channel: "mail", count: Limits.maxCount, step: 1, up: true) == nil)
    #expect(Stepper.request(channel: "mail", count: Limits.maxCount - 2, step: 10, up: true) == request("INCR mail 2"))
  }
}
