// SPDX-License-Identifier: MIT
// Loops written for the vectoriser are built twice on x86-64 Linux by GCC and Clang: for the
// baseline (SSE2, four floats a lane) and for AVX2 (eight), the one the CPU can run picked when
// the program loads. Every x86-64 CPU still runs the SDK; those of the last decade run these
// passes over the whole world in half the instructions. The results are the same either way:
// libshoal is built with -ffp-contract=off, so no clone fuses a multiply into an add.
#pragma once

// (Picking at load time is an ELF "ifunc", which other platforms' linkers lack.)
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#define SHOAL_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SHOAL_VECTOR_CLONES
#endif
