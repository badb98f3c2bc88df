import CNotmuch

/// A libnotmuch call that failed: what was being done, libnotmuch's status and its message.
public struct NotmuchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was being done, e.g. "open the notmuch database".
  public let operation: String
  public let status: NotmuchStatus
  /// libnotmuch's own words, when it gave some (the open's `error_message`), trimmed.
  public let message: String?

  public init(_ operation: String, _ status: NotmuchStatus, message: String? = nil) {
    self.operation = operation
    self.status = status
    self.message = message
  }

  public var description: String {
    "Failed to \(operation): \(status)" + (message.map { ": \($0)" } ?? "")
  }
}

/// A `notmuch_status_t`, with libnotmuch's name for it.
public struct NotmuchStatus: Equatable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt32

  public init(rawValue: UInt32) { self.rawValue = rawValue }

  init(_ status: notmuch_status_t) { rawValue = status.rawValue }

  /// A Xapian exception: a database locked by a writer, or a revision a writer discarded
  /// under a reader.
  public static let xapianException = NotmuchStatus(NOTMUCH_STATUS_XAPIAN_EXCEPTION)
  /// A file could not be opened: no database at the path, or not readable.
  public static let fileError = NotmuchStatus(NOTMUCH_STATUS_FILE_ERROR)
  /// No config file, and no database path given.
  public static let noConfig = NotmuchStatus(NOTMUCH_STATUS_NO_CONFIG)
  /// No database path: none given and none in a config (a path with no database under it is
  /// `fileError`, "Cannot open database at …: No such file or directory.").
  public static let noDatabase = NotmuchStatus(NOTMUCH_STATUS_NO_DATABASE)
  /// A path that is not a database: a Xapian folder `notmuch new` is still making ("Couldn't
  /// detect type of database").
  public static let pathError = NotmuchStatus(NOTMUCH_STATUS_PATH_ERROR)
  /// A write to a database opened read-only.
  public static let readOnlyDatabase = NotmuchStatus(NOTMUCH_STATUS_READ_ONLY_DATABASE)
  /// A query notmuch could not parse.
  public static let badQuerySyntax = NotmuchStatus(NOTMUCH_STATUS_BAD_QUERY_SYNTAX)

  /// `notmuch_status_to_string`.
  public var description: String {
    notmuch_status_to_string(notmuch_status_t(rawValue: rawValue)).map { String(cString: $0) } ?? "status \(rawValue)"
  }
}
