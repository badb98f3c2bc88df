// seccomp-run: the rules, one function pair per unit option (install, then check in force).
#pragma once

// MemoryDenyWriteExecute=yes (mdwe.c).
int install_mdwe_filter(void);
int check_mdwe(void);

// SystemCallFilter= as an allow list of system call names, one a line in `path`, with
// SystemCallArchitectures=native; a call outside the list fails with EPERM
// (SystemCallErrorNumber=EPERM) or, with `kill` set, kills the process, so that a test cannot
// miss one (filters.c).
int install_syscall_filter(const char *path, int kill);
int check_syscall_filter(const char *path);

// RestrictAddressFamilies=AF_UNIX, RestrictNamespaces=yes, RestrictRealtime=yes,
// LockPersonality=yes, RestrictSUIDSGID=yes (filters.c).
int install_restrictions(void);
int check_restrictions(void);
