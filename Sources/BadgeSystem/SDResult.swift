import BadgePOSIX

/// Maps a negative `sd_*` return value (`-errno`) to an error.
@inline(__always)
func checkSD(_ result: CInt, _ operation: @autoclosure () -> String) throws(SystemError) {
  if result < 0 { throw SystemError(operation(), Errno(rawValue: -result)) }
}
