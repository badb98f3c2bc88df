import Glibc

/// Latencies in nanoseconds, summarised as the JSON fields `p50_us`, `p99_us`, `p999_us` and
/// `max_us` (microseconds, one decimal).
struct Latencies {
  private(set) var samples: [UInt64] = []

  mutating func reserve(_ count: Int) { samples.reserveCapacity(count) }
  mutating func append(_ nanoseconds: UInt64) { samples.append(nanoseconds) }
  mutating func append(contentsOf other: Latencies) { samples += other.samples }

  var count: Int { samples.count }

  /// `"prefixp50_us":…,"prefixp99_us":…,"prefixp999_us":…,"prefixmax_us":…`
  func json(prefix: String = "") -> String {
    let sorted = samples.sorted()
    func at(_ p: Double) -> String {
      guard !sorted.isEmpty else { return "0" }
      return microseconds(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
    }
    return "\"\(prefix)p50_us\":\(at(0.5)),\"\(prefix)p99_us\":\(at(0.99)),\"\(prefix)p999_us\":\(at(0.999)),"
      + "\"\(prefix)max_us\":\(sorted.last.map(microseconds) ?? "0")"
  }
}

func microseconds(_ nanoseconds: UInt64) -> String {
  let tenths = (nanoseconds + 50) / 100
  return "\(tenths / 10).\(tenths % 10)"
}

func seconds(_ nanoseconds: UInt64) -> String {
  let millis = (nanoseconds + 500_000) / 1_000_000
  let fraction = String(millis % 1000)
  return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

func perSecond(_ count: Int, _ nanoseconds: UInt64) -> Int {
  nanoseconds == 0 ? 0 : Int(Double(count) * 1e9 / Double(nanoseconds))
}
