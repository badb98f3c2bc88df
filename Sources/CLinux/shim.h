/* Linux calls that Swift's Glibc module does not show: it is built without _GNU_SOURCE, so
 * glibc's headers leave out their declarations (or it does not include their header). Declared
 * here with glibc's own types (socklen_t is an unsigned int on every Linux ABI) and wrapped in
 * functions with Swift-friendly names. epoll's calls are wrapped too: `struct epoll_event` is
 * packed on x86-64, which Swift does not import faithfully, so Swift sees plain descriptors and
 * event masks instead. */
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

/* A new close-on-exec epoll set. */
static inline int badged_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/* Adds (EPOLL_CTL_ADD), changes (EPOLL_CTL_MOD) or removes (EPOLL_CTL_DEL) `fd`, level
 * triggered, with the descriptor itself as the event's data. */
static inline int badged_epoll_ctl(int epfd, int op, int fd, unsigned int events) {
  struct epoll_event event;
  event.events = events;
  event.data.u64 = 0;
  event.data.fd = fd;
  return epoll_ctl(epfd, op, fd, &event);
}

/* The largest number of events one badged_epoll_ready call reports. */
#define BADGED_EPOLL_BATCH 256

/* epoll_wait without waiting: writes up to `max` (at most BADGED_EPOLL_BATCH) ready
 * descriptors and their events to `fds` and `events`; returns how many, or -1 (errno). */
static inline int badged_epoll_ready(int epfd, int *fds, unsigned int *events, int max) {
  struct epoll_event ready[BADGED_EPOLL_BATCH];
  if (max > BADGED_EPOLL_BATCH) max = BADGED_EPOLL_BATCH;
  int n = epoll_wait(epfd, ready, max, 0);
  for (int i = 0; i < n; i++) {
    fds[i] = ready[i].data.fd;
    events[i] = ready[i].events;
  }
  return n;
}

/* malloc_trim(3) (<malloc.h>, which Swift's Glibc module does not include): hands the heap's
 * free pages back to the kernel (`HeapTrimmer`). */
#include <stddef.h>
extern int malloc_trim(size_t pad);

static inline int badged_malloc_trim(void) {
  return malloc_trim(0);
}

#endif
