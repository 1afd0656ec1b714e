// SPDX-License-Identifier: MIT
using System;
using System.Collections.Concurrent;
using System.Globalization;
using System.IO;
using System.Threading;

/// <summary>
/// The launcher's lines on stdin: "quit" (or stdin closed), and "killed P" after it SIGKILLed
/// peer P. A background thread reads them, so that the match loop never blocks on stdin.
/// </summary>
internal sealed class LauncherCommands
{
    private readonly ConcurrentQueue<string?> lines = new ConcurrentQueue<string?>();  // null: stdin closed

    public LauncherCommands(TextReader input)
    {
        var reader = new Thread(() =>
        {
            try
            {
                for (string? line; (line = input.ReadLine()) != null;) lines.Enqueue(line);
            }
            catch (IOException) { }  // as closed
            lines.Enqueue(null);
        }) { IsBackground = true, Name = "launcher commands" };
        reader.Start();
    }

    /// <summary>True once the launcher said "quit" or closed stdin.</summary>
    public bool Quit { get; private set; }

    /// <summary>Takes what arrived; calls <paramref name="onKilled"/>(P) for each "killed P".</summary>
    public void Read(Action<ushort> onKilled)
    {
        while (!Quit && lines.TryDequeue(out string? line))
        {
            if (line == null || line == "quit")
            {
                Quit = true;
            }
            else if (line.StartsWith("killed ", StringComparison.Ordinal) &&
                     ushort.TryParse(line.Substring(7), NumberStyles.None, CultureInfo.InvariantCulture, out ushort dead))
            {
                onKilled(dead);
            }
        }
    }
}
