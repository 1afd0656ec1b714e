// SPDX-License-Identifier: MIT
// A match of separate processes: two C++ peers (`shoal-lan-match --peer`) and the C# bot
// (samples/LanMatchBot), secured with credentials this test's authority issues, at 5% loss
// on loopback. Each reports its world at the match's final frame; the three agree bit for bit.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading;
using Xunit;

namespace Shoal.Tests
{
    public class LanMatchTests
    {
        private sealed class Member : IDisposable
        {
            public readonly string Name;
            public readonly Process Process;
            public readonly List<string> Lines = new List<string>();
            private readonly object gate = new object();

            public Member(string name, string program, string arguments, string credentials)
            {
                Name = name;
                var start = new ProcessStartInfo(program, arguments)
                {
                    RedirectStandardOutput = true, RedirectStandardInput = true, RedirectStandardError = true, UseShellExecute = false,
                };
                start.Environment["SHOAL_CREDENTIALS"] = credentials;
                Process = Process.Start(start)!;
                Process.OutputDataReceived += (_, e) => { if (e.Data != null) lock (gate) Lines.Add(e.Data); };
                Process.ErrorDataReceived += (_, e) => { if (e.Data != null) lock (gate) Lines.Add("stderr: " + e.Data); };
                Process.BeginOutputReadLine();
                Process.BeginErrorReadLine();
            }

            public List<string> Snapshot() { lock (gate) return Lines.ToList(); }

            /// <summary>The poses of its final sample, once all of them have arrived.</summary>
            public List<string>? FinalPoses()
            {
                List<string> lines = Snapshot();
                int at = lines.FindIndex(l => l.StartsWith("sample final=1 "));
                if (at < 0) return null;
                int bodies = int.Parse(lines[at].Split(' ').First(w => w.StartsWith("bodies=")).Substring(7), CultureInfo.InvariantCulture);
                List<string> poses = lines.Skip(at + 1).Where(l => l.StartsWith("pose ")).Take(bodies).ToList();
                return poses.Count == bodies ? poses : null;
            }

            public string Frame(List<string> lines) =>
                lines.First(l => l.StartsWith("sample final=1 ")).Split(' ').First(w => w.StartsWith("frame="));

            public void Dispose()
            {
                try { Process.StandardInput.Close(); } catch (IOException) { }
                if (!Process.WaitForExit(15_000)) Process.Kill();
                Process.Dispose();
            }
        }

        // A pose line's numbers as float bits (printed in their shortest exact form on both sides).
        private static int[] Bits(string pose) =>
            pose.Split(' ').Skip(1).Select(w => BitConverter.SingleToInt32Bits(float.Parse(w, CultureInfo.InvariantCulture))).ToArray();

        [Fact]
        public void ACSharpBotAndTwoCppPeersEndConsistentBitForBit()
        {
            string lanMatch = Path.Combine(LibraryVersionTests.Required("SHOAL_BIN_DIR"), "shoal-lan-match");
            string bot = Path.Combine(LibraryVersionTests.Required("SHOAL_CSHARP_BIN"), "LanMatchBot", "release", "LanMatchBot.dll");
            const string session = "csharp-bot-match";
            string flags = $"--peers 3 --objects 24 --seconds 3 --settle-seconds 4 --loss 0.05 --seed 7 --session {session} " +
                           "--discovery-port 47483 --loopback-discovery";
            using var authority = new Authority(session);
            var members = new List<Member>();
            try
            {
                members.Add(new Member("C++ host", lanMatch, $"--peer --host --index 0 {flags}", authority.Invite(600)));
                var clock = Stopwatch.StartNew();
                while (!members[0].Snapshot().Any(l => l.StartsWith("joined ")) && clock.ElapsedMilliseconds < 20_000) Thread.Sleep(20);
                Assert.Contains(members[0].Snapshot(), l => l.StartsWith("joined peer=0"));
                members.Add(new Member("C++ joiner", lanMatch, $"--peer --join --index 1 {flags}", authority.Invite(600)));
                members.Add(new Member("C# bot", "dotnet", $"\"{bot}\" {flags}", authority.Invite(600)));

                while (members.Any(m => m.FinalPoses() == null) && clock.ElapsedMilliseconds < 90_000 && members.All(m => !m.Process.HasExited))
                {
                    Thread.Sleep(50);
                }
                foreach (Member m in members)
                {
                    Assert.True(m.FinalPoses() != null, $"{m.Name} gave no final sample:\n" + string.Join("\n", m.Snapshot().TakeLast(15)));
                }
                List<string> reference = members[0].FinalPoses()!;
                Assert.Equal(3 + 24, reference.Count);
                Assert.DoesNotContain("pose -", reference);
                foreach (Member m in members.Skip(1))
                {
                    Assert.Equal(members[0].Frame(members[0].Snapshot()), m.Frame(m.Snapshot()));
                    List<string> poses = m.FinalPoses()!;
                    for (int b = 0; b < reference.Count; ++b)
                    {
                        Assert.True(Bits(reference[b]).SequenceEqual(Bits(poses[b])),
                                    $"body {b}: {members[0].Name} has '{reference[b]}', {m.Name} '{poses[b]}'");
                    }
                }
                // The bot was in the match (not a bystander whose world never moved).
                Assert.Contains(members[2].Snapshot(), l => l.StartsWith("joined peer="));
            }
            finally
            {
                foreach (Member m in members) m.Dispose();
            }
        }
    }
}
