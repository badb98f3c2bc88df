// The seccomp rules systemd installs for MemoryDenyWriteExecute=yes, as its
// seccomp_memory_deny_write_execute() sets them:
//   mmap with PROT_WRITE and PROT_EXEC both set        -> EPERM
//   mprotect / pkey_mprotect with PROT_EXEC set         -> EPERM
//   shmat with SHM_EXEC set                             -> EPERM
// Written as raw BPF (not libseccomp) as systemd's rules compare bits of an argument.
#include "seccomp_run.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "seccomp-run knows x86_64 and aarch64 only"
#endif

#ifndef SHM_EXEC
#define SHM_EXEC 0100000
#endif

// The low 32 bits of a system call's third argument (little-endian).
#define ARG2 (offsetof(struct seccomp_data, args) + 2 * sizeof(__u64))
#define DENY (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int install_mdwe_filter(void) {
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
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
}

int check_mdwe(void) {
  void *wx = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (wx != MAP_FAILED || errno != EPERM) {
    fprintf(stderr, "seccomp-run: mmap(PROT_WRITE|PROT_EXEC) was not refused\n");
    return 1;
  }
  void *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (w == MAP_FAILED || mprotect(w, 4096, PROT_READ | PROT_EXEC) == 0 || errno != EPERM) {
    fprintf(stderr, "seccomp-run: mprotect(PROT_EXEC) was not refused\n");
    return 1;
  }
  puts("MemoryDenyWriteExecute: W+X memory is refused");
  return 0;
}
