/* SPDX-License-Identifier: MIT */
/* Compiled as C99 with pedantic warnings as errors, never run: proves that shoal.h and the
 * engine worlds' headers are the C99 they promise (the tests themselves are C11). */
#include "shoal/shoal.h"
#include "shoal/shoal_box2d.h"
#include "shoal/shoal_bullet.h"

int shoal_header_is_c99(void);
int shoal_header_is_c99(void) { return SHOAL_C_API_VERSION + SHOAL_BOX2D_C_API_VERSION + SHOAL_BULLET_C_API_VERSION; }
