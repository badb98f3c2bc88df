// seccomp-run: runs a program under the seccomp rules systemd installs for the options of
// systemd/badged.service, so the tests can show that badged works with them without a
// running systemd (Tests/EndToEndTests/HardeningTests.swift): no_new_privs
// (NoNewPrivileges=yes), MemoryDenyWriteExecute=, RestrictAddressFamilies=,
// RestrictNamespaces=, RestrictRealtime=, LockPersonality=, RestrictSUIDSGID=, and with
// --allow the SystemCallFilter= allow list (the test expands the unit's sets with
// `systemd-analyze syscall-filter`), SystemCallErrorNumber=EPERM, SystemCallArchitectures=native.
//
// Usage: seccomp-run [--allow FILE [--kill]] PROGRAM [ARG...]
//        seccomp-run [--allow FILE] --check
// --kill: a call outside the list kills the process (SIGSYS) instead of failing with EPERM,
//         so that a program which meets EPERM and carries on cannot hide one.
// --check: exit 0 when every rule refuses what it should, 1 when one does not.
#include "seccomp_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  const char *allow = NULL;
  int kill = 0;
  int i = 1;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "--allow") == 0 && i + 1 < argc) allow = argv[++i];
    else if (strcmp(argv[i], "--kill") == 0) kill = 1;
    else break;
  }
  if (i >= argc) {
    fprintf(stderr, "Usage: seccomp-run [--allow FILE [--kill]] PROGRAM [ARG...] | [--allow FILE] --check\n");
    return 64;
  }
  int check = strcmp(argv[i], "--check") == 0;
  if (check && kill) {
    fprintf(stderr, "seccomp-run: --check tries refused calls; it cannot run with --kill\n");
    return 64;
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || install_mdwe_filter() != 0 || install_restrictions() != 0) {
    fprintf(stderr, "seccomp-run: Failed to install the seccomp filters: %s\n", strerror(errno));
    return 1;
  }
  // The allow list goes last: once it is in force, loading another filter may be refused.
  int r = allow ? install_syscall_filter(allow, kill) : 0;
  if (r != 0) {
    fprintf(stderr, "seccomp-run: Failed to install the system call filter from '%s': %s\n", allow, strerror(-r));
    return 1;
  }
  if (check) {
    int failed = check_mdwe() | check_restrictions();
    if (allow) failed |= check_syscall_filter(allow);
    return failed;
  }
  execv(argv[i], argv + i);
  fprintf(stderr, "seccomp-run: Failed to run '%s': %s\n", argv[i], strerror(errno));
  return 127;
}
