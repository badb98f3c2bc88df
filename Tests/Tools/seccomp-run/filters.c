// The unit's other seccomp-based options, written with libseccomp as systemd writes them
// (src/shared/seccomp-util.c), each as a filter of its own as systemd installs them.
#define _GNU_SOURCE
#include "seccomp_run.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

// Whether `name` is a line of the file at `path`.
static int listed(const char *path, const char *name) {
  FILE *file = fopen(path, "r");
  if (!file) return 0;
  char line[128];
  int found = 0;
  while (!found && fgets(line, sizeof line, file)) {
    line[strcspn(line, "\n")] = 0;
    found = strcmp(line, name) == 0;
  }
  fclose(file);
  return found;
}

int install_syscall_filter(const char *path, int kill) {
  FILE *file = fopen(path, "r");
  if (!file) return -errno;
  // Non-native architectures are refused by libseccomp's default (SystemCallArchitectures=native).
  scmp_filter_ctx ctx = seccomp_init(kill ? SCMP_ACT_KILL_PROCESS : SCMP_ACT_ERRNO(EPERM));
  if (!ctx) { fclose(file); return -ENOMEM; }
  char line[128];
  int allowed = 0;
  while (fgets(line, sizeof line, file)) {
    line[strcspn(line, "\n")] = 0;
    int nr = seccomp_syscall_resolve_name(line);
    // Names this architecture lacks are skipped, as systemd skips them.
    if (nr == __NR_SCMP_ERROR || nr < 0) continue;
    if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0) == 0) allowed++;
  }
  fclose(file);
  int r = allowed > 0 ? seccomp_load(ctx) : -EINVAL;
  seccomp_release(ctx);
  return r;
}

int check_syscall_filter(const char *path) {
  // setpriority (in @resources) succeeds unfiltered when it keeps the current value.
  if (listed(path, "setpriority")) {
    fprintf(stderr, "seccomp-run: setpriority is allowed by the list; nothing to check\n");
    return 1;
  }
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, 0);
  if (errno != 0 || setpriority(PRIO_PROCESS, 0, nice) == 0 || errno != EPERM) {
    fprintf(stderr, "seccomp-run: setpriority, outside the list, was not refused with EPERM\n");
    return 1;
  }
  if (getpid() <= 0) return 1;
  puts("SystemCallFilter: a call outside the list fails with EPERM");
  return 0;
}

static const int namespaceFlags[] = {
  CLONE_NEWCGROUP, CLONE_NEWIPC, CLONE_NEWNET, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWUSER, CLONE_NEWUTS,
};

int install_restrictions(void) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return -ENOMEM;
  int r = 0;
  // RestrictAddressFamilies=AF_UNIX
  r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
  // RestrictNamespaces=yes: no new namespace of any kind, no joining one; clone3 cannot be
  // inspected, so it fails with ENOSYS and glibc falls back to clone.
  for (size_t i = 0; i < sizeof namespaceFlags / sizeof namespaceFlags[0]; i++) {
    scmp_datum_t flag = (scmp_datum_t)namespaceFlags[i];
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
  }
  r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setns), 0);
  r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  // RestrictRealtime=yes
  r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setscheduler), 1, SCMP_A1(SCMP_CMP_EQ, SCHED_FIFO));
  r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setscheduler), 1, SCMP_A1(SCMP_CMP_EQ, SCHED_RR));
  // LockPersonality=yes
  r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1, SCMP_A0(SCMP_CMP_NE, PER_LINUX));
  // RestrictSUIDSGID=yes: no set-user-ID or set-group-ID bit, by chmod or by creating a file.
  const scmp_datum_t bits[] = {S_ISUID, S_ISGID};
  for (size_t i = 0; i < 2; i++) {
    scmp_datum_t b = bits[i];
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(chmod), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, b, b));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fchmod), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, b, b));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fchmodat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, b, b));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(creat), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, b, b));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(open), 2,
      SCMP_A1(SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT), SCMP_A2(SCMP_CMP_MASKED_EQ, b, b));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(openat), 2,
      SCMP_A2(SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT), SCMP_A3(SCMP_CMP_MASKED_EQ, b, b));
  }
  if (r == 0) r = seccomp_load(ctx);
  seccomp_release(ctx);
  return r;
}

// Each restriction, tried as root would succeed without it (the tests run as root).
int check_restrictions(void) {
  int failed = 0;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd >= 0 || errno != EAFNOSUPPORT) { fprintf(stderr, "seccomp-run: socket(AF_INET) was not refused\n"); failed = 1; }
  fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) { fprintf(stderr, "seccomp-run: socket(AF_UNIX) was refused\n"); failed = 1; } else close(fd);
  if (unshare(CLONE_NEWUSER) == 0 || errno != EPERM) { fprintf(stderr, "seccomp-run: unshare(CLONE_NEWUSER) was not refused\n"); failed = 1; }
  struct sched_param param = {.sched_priority = 1};
  if (sched_setscheduler(0, SCHED_FIFO, &param) == 0 || errno != EPERM) { fprintf(stderr, "seccomp-run: SCHED_FIFO was not refused\n"); failed = 1; }
  if (personality(PER_BSD) != -1 || errno != EPERM) { fprintf(stderr, "seccomp-run: personality(PER_BSD) was not refused\n"); failed = 1; }
  char path[] = "/tmp/seccomp-run-XXXXXX";
  int file = mkstemp(path);
  if (file < 0) return 1;
  if (fchmod(file, 04600) == 0 || errno != EPERM) { fprintf(stderr, "seccomp-run: fchmod(04600) was not refused\n"); failed = 1; }
  if (chmod(path, 02600) == 0 || errno != EPERM) { fprintf(stderr, "seccomp-run: chmod(02600) was not refused\n"); failed = 1; }
  if (fchmod(file, 0600) != 0) { fprintf(stderr, "seccomp-run: fchmod(0600) was refused\n"); failed = 1; }
  close(file);
  unlink(path);
  if (!failed) puts("RestrictAddressFamilies, RestrictNamespaces, RestrictRealtime, LockPersonality, RestrictSUIDSGID: each refuses what it should");
  return failed;
}
