// SPDX-License-Identifier: MIT
// The binding refuses, when it loads, a libshoal_c of another version, naming both: a probe
// process is pointed at a library that says C API 13, ABI 2 (wrong_version_library.c).
using System;
using System.Diagnostics;
using System.IO;
using Xunit;

namespace Shoal.Tests
{
    public class LibraryVersionTests
    {
        internal static string Required(string variable) =>
            Environment.GetEnvironmentVariable(variable) is string value && value.Length > 0
                ? value
                : throw new InvalidOperationException($"{variable} is not set: run this test through CTest");

        private static (int exit, string output) Probe(string libraryDir)
        {
            string probe = Path.Combine(Required("SHOAL_CSHARP_BIN"), "LibraryProbe", "release", "LibraryProbe.dll");
            var start = new ProcessStartInfo("dotnet", $"\"{probe}\"") { RedirectStandardOutput = true, UseShellExecute = false };
            start.Environment["LD_LIBRARY_PATH"] = libraryDir;
            using Process process = Process.Start(start)!;
            string output = process.StandardOutput.ReadToEnd();
            Assert.True(process.WaitForExit(60_000), "the probe did not finish");
            return (process.ExitCode, output);
        }

        [Fact]
        public void ALibraryOfTheWrongVersionIsRefusedAtLoadNamingBothVersions()
        {
            var (exit, output) = Probe(Required("SHOAL_WRONG_LIBRARY_DIR"));
            Assert.Equal(3, exit);
            Assert.Contains("C API 13, ABI 2", output);                                 // the library's
            Assert.Contains($"C ABI {Library.AbiVersion}, C API {Library.ApiVersion} or later", output);  // the binding's

            var (ok, accepted) = Probe(Required("SHOAL_LIB_DIR"));  // the right one is accepted
            Assert.Equal(0, ok);
            Assert.Contains($"C API {Library.ApiVersion}", accepted);
        }
    }
}
