/* libnotmuch (Debian's libnotmuch-dev, 0.37, libnotmuch 5.6). Every call badged-sources makes
 * exists since libnotmuch 5.4 (notmuch 0.32). */
#include <notmuch.h>
