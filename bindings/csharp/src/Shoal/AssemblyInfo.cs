// SPDX-License-Identifier: MIT
using System.Runtime.CompilerServices;

// The tests compare the binding's internal struct list and imports with the C headers.
[assembly: InternalsVisibleTo("Shoal.Tests")]
// The benchmark hands the peers' native handles to C++ calling the same library.
[assembly: InternalsVisibleTo("Shoal.Bench")]
