// ncursesw for Swift 6: wide characters on, and the globals and function-like macros that
// Swift cannot import (they are "not concurrency-safe" or macros) behind static inline
// functions. See PLATFORM.md, "ncursesw from Swift 6".
#ifndef BADGE_CNCURSES_SHIM_H
#define BADGE_CNCURSES_SHIM_H

#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <langinfo.h>
#include <locale.h>
#include <string.h>
#include <ncursesw/curses.h>
#include <sys/ioctl.h>

static inline WINDOW *badge_stdscr(void) { return stdscr; }
static inline int badge_colors(void) { return COLORS; }
static inline int badge_color_pairs(void) { return COLOR_PAIRS; }
static inline int badge_lines(void) { return LINES; }
static inline int badge_cols(void) { return COLS; }
static inline attr_t badge_a_bold(void) { return A_BOLD; }
static inline attr_t badge_a_reverse(void) { return A_REVERSE; }
static inline attr_t badge_a_dim(void) { return A_DIM; }
static inline mmask_t badge_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t badge_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t badge_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t badge_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t badge_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t badge_button5_pressed(void) { return BUTTON5_PRESSED; }

/// Takes the locale from the environment; when it is not UTF-8 (LANG unset: the C locale),
/// takes C.UTF-8 for characters, so that the wide glyphs (● ▁▂▃ █ ›) can be drawn at all.
static inline void badge_use_utf8_locale(void) {
  setlocale(LC_ALL, "");
  if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) setlocale(LC_CTYPE, "C.UTF-8");
}

/// The terminal's size from the tty (TIOCGWINSZ), as a resize needs it: 0 when unknown.
static inline void badge_window_size(int fd, int *rows, int *cols) {
  struct winsize size = {0};
  if (ioctl(fd, TIOCGWINSZ, &size) == 0) { *rows = size.ws_row; *cols = size.ws_col; }
  else { *rows = 0; *cols = 0; }
}

/// Puts one character cell (a grapheme of up to a few code points) with attributes and a colour
/// pair at (y, x) of the standard screen.
static inline int badge_put_cell(int y, int x, const wchar_t *text, attr_t attributes, int pair) {
  cchar_t cell;
  if (setcchar(&cell, text, attributes, 0, &pair) != OK) return ERR;
  return mvwadd_wch(stdscr, y, x, &cell);
}
#endif
