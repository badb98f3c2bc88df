import BadgeLog
import BadgeSourcesProgram
import BadgeSystem
import Foundation
import Glibc
import Testing

/// Exec sources' runs with real children on a real event loop: the count a command prints, a
/// command that hangs or prints without end, a follow command's lines, and nothing left behind.
@Suite struct ExecRunnerTests {
  /// What one run gave: its end, the lines of a follow command, standard error's lines.
  struct Run {
    var finished: ExecRunner.Finished
    var lines: [String]
    var errors: [String]
    var pid: pid_t
    var elapsedMs: UInt64
  }

  /// Runs `command` to its end on a loop of its own (at most `guardMs`).
  static func run(
    _ command: [String], mode: ExecRunner.Mode = .once(), timeoutMs: UInt64? = 5000, guardMs: UInt64 = 10_000,
    environment: [String] = ExecRunner.environment(source: "updates", channel: "apt")
  ) throws -> Run {
    Signals.block([SIGCHLD])
    let loop = try EventLoop()
    var finished: ExecRunner.Finished?
    var lines: [String] = []
    var errors: [String] = []
    let start = Environment.monotonicMicroseconds
    let runner = try ExecRunner(
      loop: loop, command: command, environment: environment, mode: mode, timeoutMs: timeoutMs,
      onLine: { lines.append(String(decoding: $0, as: UTF8.self)) }, onError: { errors.append("\($0.name) \($1)") },
      onFinish: {
        finished = $0
        loop.exit(code: 0)
      })
    let guardTimer = try loop.addTimer(at: loop.now + guardMs * 1000) { loop.exit(code: 1) }
    #expect(try loop.run() == 0, "the run ended within \(guardMs) ms")
    guardTimer.cancel()
    let result = try #require(finished)
    return Run(
      finished: result, lines: lines, errors: errors, pid: runner.pid,
      elapsedMs: (Environment.monotonicMicroseconds - start) / 1000)
  }

  /// Whether process group `group` is empty (no member, not even a zombie) within two
  /// seconds: the stragglers the runner killed are orphans, whose end the kernel and init
  /// finish after the runner's part, so this watches /proc rather than expecting them gone.
  static func gone(_ group: pid_t) -> Bool {
    let deadline = Environment.monotonicMicroseconds + 2_000_000
    while !members(of: group).isEmpty {
      guard Environment.monotonicMicroseconds < deadline else { return false }
      usleep(1000)
    }
    return true
  }

  /// The processes of process group `group` (zombies included), from /proc.
  static func members(of group: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> pid_t? in
      guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // After "(comm)": state, ppid, pgrp.
      let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
      return fields.count > 2 && pid_t(fields[2]) == group ? pid : nil
    }
  }

  @Test func aCountAndItsErrorsArriveApart() throws {
    let run = try Self.run(["/bin/sh", "-c", "echo 'warning: slow mirror' >&2; echo 12"])
    #expect(run.finished == ExecRunner.Finished(output: Array("12\n".utf8), ending: .exited(0)))
    #expect(run.errors == ["info warning: slow mirror"])
    #expect(Self.gone(run.pid), "\(Self.members(of: run.pid))")
    let failed = try Self.run(["/bin/sh", "-c", "printf 3; exit 2"])
    #expect(failed.finished == ExecRunner.Finished(output: Array("3".utf8), ending: .exited(2)))
  }

  @Test func theEnvironmentIsCleanAndNamesTheSource() throws {
    let environment = ExecRunner.environment(
      source: "updates", channel: "apt",
      inherited: ["HOME=/home/ana", "SECRET=x", "PATH=/home/ana/bin", "USER=ana", "XDG_RUNTIME_DIR=/run/user/1000"])
    #expect(
      environment == [
        "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/ana", "USER=ana", "XDG_RUNTIME_DIR=/run/user/1000",
        "LANG=C.UTF-8", "BADGED_SOURCE=updates", "BADGED_CHANNEL=apt",
      ])
    let run = try Self.run(["/usr/bin/env"], environment: environment)
    #expect(
      String(decoding: run.finished.output, as: UTF8.self).split(separator: "\n").sorted()
        == environment.sorted()
        .map { Substring($0) })
  }

  @Test func aCommandThatHangsIsEndedWithItsGroupAtItsTimeout() throws {
    // The command starts a grandchild that would outlive it, then hangs.
    let run = try Self.run(["/bin/sh", "-c", "sleep 300 & echo 1; sleep 300"], timeoutMs: 300)
    #expect(run.finished == ExecRunner.Finished(output: Array("1\n".utf8), ending: .timedOut))
    #expect(run.elapsedMs >= 300 && run.elapsedMs < 2000, "\(run.elapsedMs) ms")
    #expect(Self.gone(run.pid), "\(Self.members(of: run.pid))")
  }

  @Test func aGroupThatIgnoresSIGTERMIsKilledTwoSecondsLater() throws {
    let run = try Self.run(["/bin/sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], timeoutMs: 100)
    #expect(run.finished.ending == .timedOut)
    #expect(run.elapsedMs >= 2100 && run.elapsedMs < 4000, "\(run.elapsedMs) ms")
    #expect(Self.gone(run.pid), "\(Self.members(of: run.pid))")
  }

  @Test func aCommandPrinting1GBIsEndedAfter4KiB() throws {
    let run = try Self.run(["/bin/sh", "-c", "head -c 1000000000 /dev/zero; echo done"])
    #expect(run.finished.ending == .printedTooMuch)
    #expect(run.finished.output == [UInt8](repeating: 0, count: 4096))
    #expect(run.elapsedMs < 2000, "\(run.elapsedMs) ms")
    #expect(Self.gone(run.pid), "\(Self.members(of: run.pid))")
  }

  @Test func aFollowCommandHandsOnEachLine() throws {
    let run = try Self.run(
      ["/bin/sh", "-c", "for n in 3 2 not-a-count 0; do echo $n; done; printf 7"], mode: .follow(), timeoutMs: nil)
    #expect(run.lines == ["3", "2", "not-a-count", "0"])
    #expect(run.finished == ExecRunner.Finished(output: Array("7".utf8), ending: .exited(0)))
    let long = try Self.run(
      ["/bin/sh", "-c", "echo 1; head -c 300 /dev/zero | tr '\\0' 9; echo; sleep 300"], mode: .follow(),
      timeoutMs: nil)
    #expect(long.lines == ["1"])
    #expect(long.finished.ending == .printedTooMuch)
    #expect(Self.gone(long.pid), "\(Self.members(of: long.pid))")
  }

  @Test func aMissingProgramCannotStart() throws {
    Signals.block([SIGCHLD])
    let loop = try EventLoop()
    #expect(throws: SystemError.self) {
      _ = try ExecRunner(
        loop: loop, command: ["/nonexistent/count"], environment: [], mode: .once(), timeoutMs: 100,
        onFinish: { _ in })
    }
  }

  @Test func aStoppedRunEndsAsStopped() throws {
    Signals.block([SIGCHLD])
    let loop = try EventLoop()
    var finished: ExecRunner.Finished?
    let runner = try ExecRunner(
      loop: loop, command: ["/bin/sh", "-c", "echo 5; exec sleep 300"], environment: [], mode: .follow(),
      timeoutMs: nil
    ) {
      finished = $0
      loop.exit(code: 0)
    }
    let stopTimer = try loop.addTimer(at: loop.now + 100_000) { runner.stop() }
    #expect(try loop.run() == 0)
    stopTimer.cancel()
    #expect(finished?.ending == .stopped)
    #expect(Self.gone(runner.pid), "\(Self.members(of: runner.pid))")
  }
}
