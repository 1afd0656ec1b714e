/* SPDX-License-Identifier: MIT */
/* Minimal checks for the C tests of the bindings: each test is its own program, whose exit
 * status is the number of failed checks (capped), so CTest sees any failure. */
#ifndef SHOAL_TESTS_BINDINGS_CHECK_H
#define SHOAL_TESTS_BINDINGS_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "shoal/shoal.h"

static int check_failures = 0;

static inline void check_failed(const char* file, int line, const char* what) {
  fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
  ++check_failures;
}

/* A condition that must hold; the test goes on either way. */
#define CHECK(condition) \
  ((condition) ? (void)0 : check_failed(__FILE__, __LINE__, #condition))

/* A condition the rest of the test depends on: returns from main (or any int function). */
#define REQUIRE(condition)                               \
  do {                                                   \
    if (!(condition)) {                                  \
      check_failed(__FILE__, __LINE__, #condition);      \
      return check_exit_status();                        \
    }                                                    \
  } while (0)

/* A call that must return SHOAL_OK; on failure prints its status and shoal_last_error(). */
#define REQUIRE_OK(call)                                                               \
  do {                                                                                 \
    const int status_ = (call);                                                        \
    if (status_ != SHOAL_OK) {                                                         \
      fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call,        \
              shoal_error_name(status_), shoal_last_error());                          \
      ++check_failures;                                                                \
      return check_exit_status();                                                      \
    }                                                                                  \
  } while (0)

/* A call that must fail with `expected` and leave a message containing `word`. */
#define CHECK_FAILS(call, expected, word) \
  check_fails((call), (expected), (word), __FILE__, __LINE__, #call)

static inline int check_exit_status(void) {
  if (check_failures == 0) return 0;
  fprintf(stderr, "%d check(s) failed\n", check_failures);
  return check_failures > 100 ? 100 : check_failures;
}

static inline void check_fails(int status, int expected, const char* word, const char* file,
                               int line, const char* call) {
  const char* message = shoal_last_error();
  if (status != expected) {
    fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", file, line, call,
            shoal_error_name(status), shoal_error_name(expected), message);
    ++check_failures;
  } else if (strstr(message, word) == NULL) {
    fprintf(stderr, "%s:%d: %s: the message \"%s\" does not mention \"%s\"\n", file, line, call,
            message, word);
    ++check_failures;
  }
}

/* Whether two floats hold the same bits (0.0 and -0.0 differ, a NaN equals only itself). */
static inline int same_bits(float a, float b) {
  uint32_t x, y;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  return x == y;
}

static inline int same_vec3(shoal_vec3 a, shoal_vec3 b) {
  return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}

/* Whether two states are identical field by field, bit for bit. */
static inline int same_state(const shoal_object_state* a, const shoal_object_state* b) {
  return same_vec3(a->position, b->position) && same_bits(a->orientation.w, b->orientation.w) &&
         same_bits(a->orientation.x, b->orientation.x) &&
         same_bits(a->orientation.y, b->orientation.y) &&
         same_bits(a->orientation.z, b->orientation.z) &&
         same_vec3(a->linear_velocity, b->linear_velocity) &&
         same_vec3(a->angular_velocity, b->angular_velocity) && a->at_rest == b->at_rest;
}

#endif
