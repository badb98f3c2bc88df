// mdwe-run: runs a program under the seccomp rules systemd installs for
// MemoryDenyWriteExecute=yes, so the tests can show that badged works with them without a
// running systemd (see systemd/badged.service and Tests/EndToEndTests/HardeningTests.swift).
//
// The rules, as systemd's seccomp_memory_deny_write_execute() sets them:
//   mmap with PROT_WRITE and PROT_EXEC both set        -> EPERM
//   mprotect / pkey_mprotect with PROT_EXEC set         -> EPERM
//   shmat with SHM_EXEC set                             -> EPERM
// with no_new_privs, as NoNewPrivileges=yes gives.
//
// Usage: mdwe-run PROGRAM [ARG...]   run PROGRAM under the rules
//        mdwe-run --check            exit 0 when the rules refuse W+X memory, 1 when not
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "mdwe-run knows x86_64 and aarch64 only"
#endif

#ifndef SHM_EXEC
#define SHM_EXEC 0100000
#endif

// The low 32 bits of a system call's third argument (little-endian).
#define ARG2 (offsetof(struct seccomp_data, args) + 2 * sizeof(__u64))
#define DENY (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

static int install_filter(void) {
  struct sock_filter filter[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 4, 0),           // -> mmap check
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 8, 0),       // -> mprotect check
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_pkey_mprotect, 7, 0),  // -> mprotect check
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_shmat, 11, 0),         // -> shmat check
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    // mmap: PROT_WRITE and PROT_EXEC together
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG2),
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PROT_WRITE | PROT_EXEC),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROT_WRITE | PROT_EXEC, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, DENY),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    // mprotect, pkey_mprotect: PROT_EXEC at all
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG2),
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PROT_EXEC),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROT_EXEC, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, DENY),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    // shmat: SHM_EXEC
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG2),
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, SHM_EXEC),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SHM_EXEC, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, DENY),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = {.len = sizeof(filter) / sizeof(filter[0]), .filter = filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
}

// Whether the rules are in force: W+X and W-then-X memory are both refused.
static int check(void) {
  void *wx = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (wx != MAP_FAILED || errno != EPERM) {
    fprintf(stderr, "mdwe-run: mmap(PROT_WRITE|PROT_EXEC) was not refused\n");
    return 1;
  }
  void *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (w == MAP_FAILED || mprotect(w, 4096, PROT_READ | PROT_EXEC) == 0 || errno != EPERM) {
    fprintf(stderr, "mdwe-run: mprotect(PROT_EXEC) was not refused\n");
    return 1;
  }
  puts("mdwe-run: W+X memory is refused");
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "Usage: mdwe-run PROGRAM [ARG...] | --check\n");
    return 64;
  }
  if (install_filter() != 0) {
    fprintf(stderr, "mdwe-run: Failed to install the seccomp filter: %s\n", strerror(errno));
    return 1;
  }
  if (strcmp(argv[1], "--check") == 0) return check();
  execv(argv[1], argv + 1);
  fprintf(stderr, "mdwe-run: Failed to run '%s': %s\n", argv[1], strerror(errno));
  return 127;
}
