/* cairo and pango (libcairo2-dev, libpango1.0-dev): badged-tray draws its icons with them.
 * The module map names the libraries `pkg-config --libs pangocairo` prints. */
#ifndef BADGED_CPANGOCAIRO_SHIM_H
#define BADGED_CPANGOCAIRO_SHIM_H

#include <cairo.h>
#include <pango/pangocairo.h>

/* Frees a GObject (a PangoLayout): g_object_unref takes a gpointer, which Swift sees as a raw
 * pointer while the layout comes in as an OpaquePointer. */
static inline void badged_g_object_unref(void *object) { g_object_unref(object); }

#endif
