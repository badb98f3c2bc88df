/* libqrencode (libqrencode-dev): the QR code `badgectl web link` prints in the terminal. */
#ifndef BADGED_CQRENCODE_SHIM_H
#define BADGED_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
