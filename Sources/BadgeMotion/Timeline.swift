/// The animated properties of one thing, by name: what every property is at a time, and when
/// anything next changes.
public struct Timeline<Key: Hashable & Sendable>: Sendable {
  private var properties: [Key: AnimatedValue]

  /// A timeline whose properties rest at `initial`.
  public init(_ initial: [Key: Double]) {
    properties = initial.mapValues { AnimatedValue($0) }
  }

  /// The animated value of `key`; a key never given reads as resting at 0.
  public subscript(key: Key) -> AnimatedValue {
    get { properties[key] ?? AnimatedValue(0) }
    set { properties[key] = newValue }
  }

  /// The value of `key` at `time`.
  public func value(_ key: Key, at time: Double) -> Double {
    self[key].value(at: time)
  }

  /// Every property's value at `time`.
  public func values(at time: Double) -> [Key: Double] {
    properties.mapValues { $0.value(at: time) }
  }

  /// Whether any property is changing at `time`.
  public func isMoving(at time: Double) -> Bool {
    properties.values.contains { $0.isMoving(at: time) }
  }

  /// The earliest instant from `time` on at which any property changes (see
  /// `AnimatedValue.nextChange(after:)`); `nil` when nothing will move again.
  public func nextChange(after time: Double) -> Double? {
    properties.values.compactMap { $0.nextChange(after: time) }.min()
  }
}
