import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeProtocol

/// What the shell tells `SourcesCore`, each with the clocks read when it happened
/// (`SourcesCore.handle(_:at:)`). Names and paths are bytes, as the file system gives them.
public enum SourceInput: Equatable, Sendable {
  /// The connection to the daemon is up: the core attaches, claims, and recounts everything.
  case daemonConnected
  /// The daemon answered a request or pushed a line to the sources connection.
  case daemon(SourcesDaemonAnswer)
  /// The connection to the daemon ended; writes without an answer are sent again on the next.
  case daemonClosed
  /// What one source's inotify descriptor read, in order.
  case fsEvents(source: String, [FSEvent])
  /// The listing a `.list` action asked for.
  case listed(source: String, tag: WatchTag, Result<[ListedName], ListingFailure>)
  /// A run or a line of an `exec` source's command.
  case exec(source: String, ExecResult)
  /// A notmuch source's worker answered a job.
  case notmuch(source: String, NotmuchResult)
  /// An imap source's connections found something.
  case imap(source: String, ImapEvent)
  /// The config file read again (SIGHUP, or the daemon's `RELOADED`): the config parsed whole,
  /// or why it was refused, in which case every source runs on as it was.
  case reload(Result<SourcesConfig, ConfigError>)
  /// The machine resumed, or the program may have missed changes: recount everything.
  case resumed(ResumeCause)
  /// A timer the core armed (`.armTimer`) is due.
  case tick
}

/// What the core asks the shell to do, in the order asked.
public enum SourceAction: Equatable, Sendable {
  /// Watch `path` for what `purpose` needs, its events reported with `tag`. Watching a tag
  /// already watched replaces the watch (the directory may have been replaced).
  case watch(source: String, tag: WatchTag, path: [UInt8], purpose: WatchPurpose)
  /// Stop watching `tag`.
  case unwatch(source: String, tag: WatchTag)
  /// List the directory `path` (names and `d_type`, no `stat`), answered by `.listed`.
  case list(source: String, tag: WatchTag, path: [UInt8])
  /// `renameat2(from, to, RENAME_NOREPLACE)`; `ENOENT` (moved meanwhile) is no fault.
  case rename(source: String, from: [UInt8], to: [UInt8])
  /// Hand a job to the notmuch source's worker.
  case notmuch(source: String, NotmuchJob)
  /// Hand a job to the imap source's connections.
  case imap(source: String, ImapJob)
  /// Start the source's command (an interval run, or the followed command).
  case spawn(source: String)
  /// Stop the source's command and its process group.
  case kill(source: String)
  /// A request to the daemon on the sources connection.
  case request(SourcesDaemonRequest)
  /// A one-line summary for the service manager (`STATUS=`).
  case status(String)
  /// A line for the journal.
  case log(Logger.Level, String)
  /// Read the config file again and reload as SIGHUP does (the daemon said `RELOADED`, so
  /// `badgectl reload` reaches the sources too).
  case reloadConfig
  /// Deliver `.tick` at this `CLOCK_BOOTTIME` time (microseconds), so that a time that passed
  /// during a suspend is due at once and wakes the loop; an arm replaces the one before.
  case armTimer(at: UInt64)
}

/// What a watch is for; the shell turns it into an inotify mask.
public enum WatchPurpose: Equatable, Sendable {
  /// A folder holding items (a Maildir's `new/` or `cur/`, a files source's folder): names
  /// created, moved in, moved out, deleted, and the directory itself going
  /// (`IN_CREATE|IN_MOVED_TO|IN_MOVED_FROM|IN_DELETE|IN_DELETE_SELF|IN_MOVE_SELF|IN_ONLYDIR`).
  case items
  /// A directory in which folders appear or are replaced (a Maildir's own directory, a root,
  /// the parent of a missing root): the same mask, of which only directories matter.
  case folders
  /// A notmuch database's Xapian folder: `IN_MOVED_TO` (a commit renames onto `iamglass`),
  /// `IN_CLOSE_WRITE` (a writer lets go of `flintlock`) and the `_SELF` events; never opens
  /// or reads, which the source's own reads make.
  case database
}

/// Which of a source's watches an event came from: the watched directory relative to the
/// source's root (empty for the root itself; `..` for the root's parent while it is missing).
public typealias WatchTag = [UInt8]

/// One inotify event, decoded by the shell.
public struct FSEvent: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    /// `IN_CREATE` or `IN_MOVED_TO`: `name` is there now.
    case appeared
    /// `IN_DELETE` or `IN_MOVED_FROM`: `name` is gone.
    case departed
    /// `IN_CLOSE_WRITE`: a writer closed `name`.
    case written
    /// `IN_DELETE_SELF`, `IN_MOVE_SELF` or `IN_IGNORED`: the watched directory itself went.
    case watchedGone
    /// `IN_Q_OVERFLOW`: events were lost; `tag` and `name` are empty.
    case overflow
  }

  public var kind: Kind
  public var tag: WatchTag
  public var name: [UInt8]
  /// `IN_ISDIR`.
  public var isDirectory: Bool

  public init(_ kind: Kind, tag: WatchTag, name: [UInt8] = [], isDirectory: Bool = false) {
    self.kind = kind
    self.tag = tag
    self.name = name
    self.isDirectory = isDirectory
  }

  /// The event that says events were lost.
  public static let overflow = FSEvent(.overflow, tag: [])
}

/// Why a directory could not be listed.
public enum ListingFailure: Error, Equatable, Sendable {
  /// `ENOENT`: not there (yet).
  case missing
  /// `ENOTDIR`: a file where a directory should be.
  case notADirectory
  /// Anything else, as `strerror` words it.
  case failed(String)
}

/// What an `exec` source's command gave.
public enum ExecResult: Equatable, Sendable {
  /// An interval run ended; its stdout (at most `CountLine.maxRunOutput` bytes and one more,
  /// to tell it printed too much) and whether it ended in time.
  case ran(output: [UInt8], timedOut: Bool)
  /// A followed command printed these bytes.
  case printed([UInt8])
  /// The followed command exited.
  case exited
  /// The command could not be started at all (a program missing or not executable): why, as
  /// the source's state says it.
  case failedToStart(String)
}
