import BadgeCore
import BadgeTop
import Testing

@Suite struct NumberWheelTests {
  @Test func theWindowCentresTheSelection() {
    let wheel = NumberWheel(value: 50)
    #expect(
      wheel.window(rows: 5) == [
        .init(value: 48, distance: -2), .init(value: 49, distance: -1), .init(value: 50, distance: 0),
        .init(value: 51, distance: 1), .init(value: 52, distance: 2),
      ])
  }

  @Test func atZeroTheRowsAboveAreEmpty() {
    let wheel = NumberWheel(value: 0)
    #expect(wheel.window(rows: 5).map(\.value) == [nil, nil, 0, 1, 2])
    var scrolled = wheel
    scrolled.scroll(by: -3)
    #expect(scrolled.value == 0)
  }

  @Test func atTheLargestCountTheRowsBelowAreEmpty() {
    var wheel = NumberWheel(value: 2_147_483_646)
    wheel.scroll(by: 1)
    #expect(wheel.value == 2_147_483_647)
    #expect(wheel.window(rows: 5).map(\.value) == [2_147_483_645, 2_147_483_646, 2_147_483_647, nil, nil])
    wheel.scroll(by: 9)
    #expect(wheel.value == 2_147_483_647)
    // The far ends of Int itself clamp too (Home and End scroll by them).
    wheel.scroll(by: Int.min)
    #expect(wheel.value == 0)
    wheel.scroll(by: Int.max)
    #expect(wheel.value == Limits.maxCount)
  }

  @Test func typedDigitsJumpAndStopAtTheRangesEnd() {
    var wheel = NumberWheel(value: 7)
    for digit in "1234" { wheel.type(digit) }
    #expect(wheel.value == 1234 && wheel.typed == "1234")
    wheel.erase()
    #expect(wheel.value == 123)
    wheel.scroll(by: 1)
    #expect(wheel.value == 124 && wheel.typed == "")
    var big = NumberWheel(value: 0)
    for digit in "2147483647" { big.type(digit) }
    #expect(big.value == 2_147_483_647)
    big.type("0")  // 21474836470 is past the end: refused
    #expect(big.value == 2_147_483_647 && big.typed == "2147483647")
    var zero = NumberWheel(value: 3)
    zero.type("0")
    zero.type("5")
    #expect(zero.value == 5 && zero.typed == "5")
    zero.type("x")
    #expect(zero.value == 5)
  }

  @Test func anOutOfRangeStartIsClamped() {
    #expect(NumberWheel(value: -4).value == 0)
    #expect(NumberWheel(value: Int.max).value == Limits.maxCount)
  }
}
