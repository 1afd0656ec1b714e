// SPDX-License-Identifier: MIT
// The binding against the C headers it binds: every function, struct and enum of shoal.h,
// shoal_box2d.h and shoal_bullet.h has its counterpart here, so a header that gains one the
// binding lacks fails this test; and the library's struct sizes are the binding's.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using Xunit;

namespace Shoal.Tests
{
    public class HeaderCoverageTests
    {
        private static string HeaderDir([CallerFilePath] string here = "") =>
            Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "../../../../bindings/c/include/shoal"));

        // The headers without their comments.
        private static string Headers()
        {
            string text = string.Concat(new[] { "shoal.h", "shoal_box2d.h", "shoal_bullet.h" }
                .Select(name => File.ReadAllText(Path.Combine(HeaderDir(), name))));
            return Regex.Replace(text, @"/\*.*?\*/", " ", RegexOptions.Singleline);
        }

        private static Type Native => typeof(Library).Assembly.GetType("Shoal.Interop.Native", throwOnError: true)!;

        [Fact]
        public void EveryFunctionOfTheHeadersIsBound()
        {
            var declared = Regex.Matches(Headers(), @"SHOAL_C_API\s+[^;(]*?\b(shoal_\w+)\s*\(")
                .Select(m => m.Groups[1].Value).ToHashSet();
            var bound = Native.GetMethods(BindingFlags.Static | BindingFlags.Public)
                .Where(m => m.GetCustomAttribute<DllImportAttribute>() != null)
                .Select(m => m.GetCustomAttribute<DllImportAttribute>()!.EntryPoint ?? m.Name).ToHashSet();
            Assert.True(declared.Count >= 100, $"the headers' functions were not found: {declared.Count}");
            var missing = declared.Except(bound).OrderBy(n => n).ToList();
            Assert.True(missing.Count == 0, "shoal.h declares functions the C# binding lacks: " + string.Join(", ", missing));
            var extra = bound.Except(declared).OrderBy(n => n).ToList();
            Assert.True(extra.Count == 0, "the C# binding imports functions shoal.h no longer declares: " + string.Join(", ", extra));
        }

        [Fact]
        public void EveryStructOfTheHeadersIsLaidOutAndSizedAsTheLibrarys()
        {
            var declared = Regex.Matches(Headers(), @"typedef\s+struct\s+(shoal_\w+)\s*\{").Select(m => m.Groups[1].Value).ToHashSet();
            var laidOut = Library.Layouts().Select(l => l.Item1).ToHashSet();
            var missing = declared.Except(laidOut).OrderBy(n => n).ToList();
            Assert.True(missing.Count == 0, "structs of shoal.h the C# binding does not lay out: " + string.Join(", ", missing));
            Library.EnsureCompatible();  // compares every size with shoal_struct_size
            Assert.Equal(Library.ApiVersion, Library.NativeApiVersion);
        }

        [Fact]
        public void EveryEnumOfTheHeadersHasItsValuesHere()
        {
            var names = new Dictionary<string, Type>
            {
                ["shoal_error"] = typeof(ErrorCode), ["shoal_catchup_scope"] = typeof(CatchupScope),
                ["shoal_control_mode"] = typeof(ControlMode), ["shoal_log_level"] = typeof(LogLevel),
                ["shoal_event_kind"] = typeof(EventKind), ["shoal_delivery"] = typeof(Delivery),
                ["shoal_join_step"] = typeof(JoinStep), ["shoal_join_failure"] = typeof(JoinFailure),
                ["shoal_channel"] = typeof(Channel), ["shoal_transport_event_kind"] = typeof(TransportEventKind),
                ["shoal_drop_reason"] = typeof(DropReason),
            };
            foreach (Match e in Regex.Matches(Headers(), @"typedef\s+enum\s+(shoal_\w+)\s*\{(.*?)\}", RegexOptions.Singleline))
            {
                string name = e.Groups[1].Value;
                Assert.True(names.ContainsKey(name), $"shoal.h's enum {name} has no C# enum");
                var values = Regex.Matches(e.Groups[2].Value, @"=\s*(-?\d+)").Select(m => int.Parse(m.Groups[1].Value)).OrderBy(v => v);
                var mine = Enum.GetValues(names[name]).Cast<int>().OrderBy(v => v);
                Assert.Equal(values, mine);
            }
        }
    }
}
