/* libmicrohttpd, badged-web's HTTP server (libmicrohttpd-dev), driven from the program's
 * sd-event loop through its epoll descriptor. Swift does not import C's variadic functions, so
 * the calls that take options or answer by type go through the inline functions below. */
#ifndef BADGED_CMICROHTTPD_SHIM_H
#define BADGED_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

/* The limits and callbacks one daemon is started with. */
struct badged_mhd_settings {
  unsigned int flags;
  /* A listening socket bound by the program (TCP or Unix): MHD never binds one itself. */
  int listen_fd;
  unsigned int connection_limit;
  size_t memory_limit;
  unsigned int timeout_seconds;
  /* PEM text, NUL-terminated, kept by the caller while the daemon runs; NULL without TLS. */
  const char *key_pem;
  const char *cert_pem;
  MHD_AccessHandlerCallback handler;
  void *handler_cls;
  MHD_RequestCompletedCallback completed;
  void *completed_cls;
  MHD_LogCallback logger;
  void *logger_cls;
};

static inline struct MHD_Daemon *badged_mhd_start(const struct badged_mhd_settings *s) {
  struct MHD_OptionItem options[] = {
    {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)s->logger, s->logger_cls},
    {MHD_OPTION_LISTEN_SOCKET, s->listen_fd, NULL},
    {MHD_OPTION_CONNECTION_LIMIT, s->connection_limit, NULL},
    {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)s->memory_limit, NULL},
    {MHD_OPTION_CONNECTION_TIMEOUT, s->timeout_seconds, NULL},
    {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)s->completed, s->completed_cls},
    {s->key_pem ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, (void *)s->key_pem},
    {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)s->cert_pem},
    {MHD_OPTION_END, 0, NULL},
  };
  return MHD_start_daemon(s->flags, 0, NULL, NULL, s->handler, s->handler_cls, MHD_OPTION_ARRAY, options,
                          MHD_OPTION_END);
}

/* The epoll descriptor of a daemon started with MHD_USE_EPOLL, for the program's loop; -1 when none. */
static inline int badged_mhd_epoll_fd(struct MHD_Daemon *d) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
  return info ? info->epoll_fd : -1;
}

/* A log line of libmicrohttpd's, formatted. */
static inline int badged_mhd_format(char *buffer, size_t size, const char *format, va_list arguments) {
  return vsnprintf(buffer, size, format, arguments);
}

#endif
