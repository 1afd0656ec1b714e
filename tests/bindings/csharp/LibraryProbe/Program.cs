// SPDX-License-Identifier: MIT
// Loads whichever libshoal_c the library path offers and says whether the binding accepts it:
// exit 0 and its version, or exit 3 and the binding's refusal. The tests run it against a
// library of the wrong version (wrong_version_library.c) in a process of its own.
using System;
using Shoal;

try
{
    Library.EnsureCompatible();
    Console.WriteLine($"accepted: Shoal {Library.Version}, C API {Library.NativeApiVersion}");
    return 0;
}
catch (ShoalVersionException e)
{
    Console.WriteLine($"refused: {e.Message}");
    return 3;
}
