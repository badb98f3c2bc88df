import BadgeSystem
import Glibc
import Testing

/// `Errno.name`: every error number glibc knows has its symbolic name, not only the two the
/// acceptor's warning once named.
struct ErrnoTests {
  @Test(arguments: [
    (EMFILE, "EMFILE"), (ENFILE, "ENFILE"), (EBADF, "EBADF"), (ENOENT, "ENOENT"), (EAGAIN, "EAGAIN"),
    (EPIPE, "EPIPE"), (ECONNREFUSED, "ECONNREFUSED"), (EFBIG, "EFBIG"), (ENOSPC, "ENOSPC"),
  ])
  func namesEveryKnownError(number: CInt, name: String) {
    #expect(Errno(rawValue: number).name == name)
  }

  @Test func anUnknownNumberHasNoName() {
    #expect(Errno(rawValue: 9999).name == nil)
  }
}
