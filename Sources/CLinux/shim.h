/* Linux calls that Swift's Glibc module does not show: it is built without _GNU_SOURCE, so
 * glibc's headers leave out their declarations (or it does not include their header). Declared
 * here with glibc's own types (socklen_t is an unsigned int on every Linux ABI) and wrapped in
 * functions with Swift-friendly names where a declaration is missing. <sys/epoll.h> is only
 * included: Swift imports its calls and `struct epoll_event` as they are (the struct is packed
 * on x86-64, and Swift keeps that layout; PollSetTests checks it). */
#ifndef BADGED_CLINUX_SHIM_H
#define BADGED_CLINUX_SHIM_H

#include <sys/epoll.h>

struct sockaddr;
extern int accept4(int fd, struct sockaddr *address, unsigned int *length, int flags);

/* accept(2) that sets the new descriptor's flags (SOCK_NONBLOCK, SOCK_CLOEXEC) in the same
 * call, so there is no moment in which it lacks them. */
static inline int badged_accept4(int fd, int flags) {
  return accept4(fd, (struct sockaddr *)0, (unsigned int *)0, flags);
}

/* malloc_trim(3) (<malloc.h>, which Swift's Glibc module does not include): hands the heap's
 * free pages back to the kernel (`HeapTrimmer`). */
#include <stddef.h>
extern int malloc_trim(size_t pad);

static inline int badged_malloc_trim(void) {
  return malloc_trim(0);
}

/* strerrorname_np(3) (glibc 2.32, a GNU extension): an error number's symbolic name ("EMFILE"),
 * or a null pointer for a number glibc does not know (`Errno.name`). */
extern const char *strerrorname_np(int errnum);

static inline const char *badged_errno_name(int errnum) {
  return strerrorname_np(errnum);
}

/* getdents64(2) (glibc 2.30, a GNU extension): a directory's entries in the kernel's own records,
 * with no stat per entry (`Directory.list`). */
#include <sys/types.h>
extern ssize_t getdents64(int fd, void *buffer, size_t length);

static inline ssize_t badged_getdents64(int fd, void *buffer, size_t length) {
  return getdents64(fd, buffer, length);
}

/* renameat2(2) (glibc 2.28, a GNU extension) with RENAME_NOREPLACE (<linux/fs.h>): a rename that
 * fails with EEXIST instead of replacing the target, in one step (`Directory.renameNoReplace`). */
#include <fcntl.h>
extern int renameat2(int old_dir, const char *old_path, int new_dir, const char *new_path, unsigned int flags);

static inline int badged_rename_noreplace(const char *old_path, const char *new_path) {
  return renameat2(AT_FDCWD, old_path, AT_FDCWD, new_path, 1U /* RENAME_NOREPLACE */);
}

/* getrandom(2) (<sys/random.h>, which Swift's Glibc module does not include): the kernel's
 * random bytes, for badged-web's tokens and one-time codes (`WebSecret`). */
#include <sys/random.h>

#endif
