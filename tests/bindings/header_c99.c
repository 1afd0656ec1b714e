/* Compiled as C99 with pedantic warnings as errors, never run: proves that shoal.h is the C99
 * it promises (the tests themselves are C11). */
#include "shoal/shoal.h"

int shoal_header_is_c99(void);
int shoal_header_is_c99(void) { return SHOAL_C_API_VERSION; }
