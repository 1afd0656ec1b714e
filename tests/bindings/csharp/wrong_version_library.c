/* SPDX-License-Identifier: MIT */
/* A libshoal_c of another version, for the C# binding's load-time check: it says C API 13,
 * ABI 2 (the release before the binding's), and has nothing else the check would reach. */
#include <stdint.h>

#if defined(_WIN32)
#  define EXPORT __declspec(dllexport)
#else
#  define EXPORT __attribute__((visibility("default")))
#endif

EXPORT int32_t shoal_c_api_version(void) { return 13; }
EXPORT int32_t shoal_c_abi_version(void) { return 2; }
EXPORT const char* shoal_version(void) { return "0.1.0"; }
