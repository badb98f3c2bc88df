/* epoll for badged-bench: Swift's Glibc module does not show <sys/epoll.h>. */
#ifndef BADGED_CEPOLL_SHIM_H
#define BADGED_CEPOLL_SHIM_H
#include <sys/epoll.h>
#endif
