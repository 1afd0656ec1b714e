// SPDX-License-Identifier: MIT
// Runs the [Fact] cases of the test classes named on the command line, in this process: what
// CTest calls, one class per CTest test. Started this way a test costs a fraction of a second
// before its cases run, where `dotnet test` spends seconds starting the test platform (far more
// under the sanitizer build's preloaded runtime). `dotnet test` still runs every case through
// xunit's own runner.
using System;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using Xunit;

namespace Shoal.Tests
{
    public static class Runner
    {
        public static int Main(string[] args)
        {
            if (args.Length == 0)
            {
                Console.Error.WriteLine("usage: dotnet Shoal.Tests.dll CLASS...   (e.g. MatchTests): runs its [Fact] cases");
                return 2;
            }
            int passed = 0, failed = 0;
            foreach (string name in args)
            {
                Type? type = typeof(Runner).Assembly.GetType("Shoal.Tests." + name);
                MethodInfo[] facts = type?.GetMethods().Where(m => m.GetCustomAttribute<FactAttribute>() != null).ToArray()
                                     ?? Array.Empty<MethodInfo>();
                if (facts.Length == 0)
                {
                    Console.Error.WriteLine($"no test class Shoal.Tests.{name} with [Fact] cases");
                    return 2;
                }
                foreach (MethodInfo fact in facts)
                {
                    var clock = Stopwatch.StartNew();
                    try
                    {
                        object? instance = Activator.CreateInstance(type!);
                        try { fact.Invoke(instance, null); }
                        finally { (instance as IDisposable)?.Dispose(); }
                        Console.WriteLine($"passed {name}.{fact.Name} ({clock.ElapsedMilliseconds} ms)");
                        ++passed;
                    }
                    catch (TargetInvocationException e)
                    {
                        Console.WriteLine($"FAILED {name}.{fact.Name} ({clock.ElapsedMilliseconds} ms): {e.InnerException}");
                        ++failed;
                    }
                }
            }
            Console.WriteLine($"{passed} passed, {failed} failed");
            return failed == 0 ? 0 : 1;
        }
    }
}
