/* libsecret, the Secret Service client (libsecret-1-dev). Its lookup takes the attributes as
 * C varargs or a GHashTable, neither of which Swift calls comfortably: badged_secret_lookup
 * builds the schema and the table from two arrays. */
#ifndef BADGED_CSECRET_SHIM_H
#define BADGED_CSECRET_SHIM_H

#include <libsecret/secret.h>

/* The password stored under these string attributes, under any schema
 * (org.freedesktop.Secret.Generic, SECRET_SCHEMA_DONT_MATCH_NAME), as
 * secret_password_lookup_sync finds it; NULL with *error unset when no item matches. Free the
 * result with secret_password_free, which clears it first. */
static inline gchar *badged_secret_lookup(const char *const *names, const char *const *values, size_t count,
                                          GError **error) {
  GHashTable *types = g_hash_table_new(g_str_hash, g_str_equal);
  GHashTable *attributes = g_hash_table_new(g_str_hash, g_str_equal);
  for (size_t i = 0; i < count; i++) {
    g_hash_table_insert(types, (gpointer)names[i], GINT_TO_POINTER(SECRET_SCHEMA_ATTRIBUTE_STRING));
    g_hash_table_insert(attributes, (gpointer)names[i], (gpointer)values[i]);
  }
  SecretSchema *schema = secret_schema_newv("org.freedesktop.Secret.Generic", SECRET_SCHEMA_DONT_MATCH_NAME, types);
  gchar *secret = secret_password_lookupv_sync(schema, attributes, NULL, error);
  secret_schema_unref(schema);
  g_hash_table_unref(attributes);
  g_hash_table_unref(types);
  return secret;
}

/* The message of a GError, then frees it. */
static inline void badged_error_free(GError *error) { g_error_free(error); }

#endif
