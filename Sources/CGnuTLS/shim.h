/* GnuTLS, the TLS of the IMAP source's connections (libgnutls28-dev). Its flag macros are
 * expressions Swift does not import, and gnutls_transport_set_int is a macro: the wrappers
 * below give them names Swift sees. */
#ifndef BADGED_CGNUTLS_SHIM_H
#define BADGED_CGNUTLS_SHIM_H

#include <gnutls/gnutls.h>
/* gnutls_hash_fast: SHA-256 of badged-web's tokens, as its tokens file keeps them. */
#include <gnutls/crypto.h>

/* A client session that never blocks in GnuTLS itself: the caller polls the socket. */
static inline int badged_gnutls_client_init(gnutls_session_t *session) {
  return gnutls_init(session, GNUTLS_CLIENT | GNUTLS_NONBLOCK);
}

/* The session reads and writes this socket (gnutls_transport_set_int). */
static inline void badged_gnutls_transport_set_fd(gnutls_session_t session, int fd) {
  gnutls_transport_set_int2(session, fd, fd);
}

/* Frees what GnuTLS allocated (gnutls_free is a variable holding a function). */
static inline void badged_gnutls_free(void *pointer) { gnutls_free(pointer); }

#endif
