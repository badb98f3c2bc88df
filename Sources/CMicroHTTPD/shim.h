/* libmicrohttpd, badged-web's HTTP server (libmicrohttpd-dev), driven from the program's
 * sd-event loop through its epoll descriptor. */
#ifndef BADGED_CMICROHTTPD_SHIM_H
#define BADGED_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

#endif
