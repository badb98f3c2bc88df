import BadgeCore
import BadgeDaemon
import BadgeLog
import BadgePersistence
import BadgeSystem
import FuzzSupport

/// libFuzzer target: arbitrary bytes as the state folder's `snapshot` and `journal`, loaded
/// the way the daemon loads them at start (`Recovery.load`). Every input must load (wholly or
/// the readable part, with the damage logged) or be refused with an error; never crash, never
/// hang (the fuzzer's `-timeout` catches a hang).
///
/// Input layout: byte 0 says which files exist (bit 0: snapshot, bit 1: journal), bytes 1–2
/// are the snapshot's length (little-endian, cut to what is there), then the snapshot's bytes,
/// then the journal's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecovery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = UnsafeBufferPointer(start: data, count: size)
  guard size >= 3 else { return 0 }
  let flags = input[0]
  let length = min(Int(input[1]) | Int(input[2]) << 8, size - 3)
  let snapshotBytes = UnsafeBufferPointer(rebasing: input[3..<(3 + length)])
  let journalBytes = UnsafeBufferPointer(rebasing: input[(3 + length)...])

  FuzzFiles.clear()
  let snapshot = FuzzFiles.folder + "/snapshot"
  let journal = FuzzFiles.folder + "/journal"
  if flags & 1 != 0 { FuzzFiles.write(snapshot, snapshotBytes) }
  if flags & 2 != 0 { FuzzFiles.write(journal, journalBytes) }

  let store = Store()
  let quiet = Logger(level: .emergency, destination: .standardError(priorityPrefix: false))
  do throws(SystemError) {
    try Recovery.load(snapshot: snapshot, journal: journal, into: store, logger: quiet)
  } catch {
    return 0
  }
  // What was loaded is a state the daemon can hold, and it saves and reloads as itself.
  for channel in store.channels {
    precondition((0...Limits.maxCount).contains(channel.count), "count \(channel.count) out of range")
    precondition(channel.seq <= store.seq, "a channel is newer than the store")
    precondition(channel.total >= channel.count, "a total \(channel.total) below the count \(channel.count)")
  }
  precondition(store.requestIDs.count <= store.requestIDs.capacity, "more ids than the table keeps")
  let saved = Snapshot(of: store)
  let reloaded = Snapshot.decode(saved.encoded())
  precondition(reloaded.problem == nil && reloaded.snapshot == saved, "the loaded state does not save as itself")
  return 0
}
