import Testing

/// Expects `actual` within `tolerance` of `expected`, reporting both when it is not.
public func expectClose(
  _ actual: Double, _ expected: Double, _ tolerance: Double = 1e-6,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    abs(actual - expected) <= tolerance, "\(actual) is not within \(tolerance) of \(expected)",
    sourceLocation: sourceLocation)
}

/// What `body` fails with, as its message reads (`file:line: reason` for a `ConfigError`);
/// `nil` when it succeeds.
public func failureDescription<Failure: Error & CustomStringConvertible, Value>(
  _ body: () throws(Failure) -> Value
) -> String? {
  do throws(Failure) {
    _ = try body()
    return nil
  } catch {
    return error.description
  }
}
