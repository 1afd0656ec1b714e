// SPDX-License-Identifier: MIT
using System;
using System.Globalization;
using System.IO;
using System.Text;
using Shoal;

/// <summary>A peer's figures at one sample (samples/lan_match/peer_report.hpp's PeerFigures).</summary>
internal struct Figures
{
    public ushort Peer;
    public int PeersSeen;
    public float RttMs, Loss, KbpsOut, KbpsIn;  // means, sums over the other peers
    public ulong Overrides, CatchupFrames, OwnershipChanges, OwnedObjects, FrozenObjects, Desyncs;
    public long JoinMs;
    public float Pace;
    public long CpuMs;
    public ulong Spawned, Removed, Live, BadSpawn, OverLimit;
}

/// <summary>
/// Writes the report lines the launcher reads (samples/lan_match/peer_report.hpp), each message
/// flushed at once. Numbers are in their shortest form that reads back to the same bits.
/// </summary>
internal sealed class ReportWriter
{
    private readonly TextWriter output;
    private readonly StringBuilder text = new StringBuilder();

    public ReportWriter(TextWriter output) { this.output = output; }

    public void Phase(JoinProgress progress) =>
        Write($"phase step={Words.Of(progress.Step)} done={progress.Done} needed={progress.Needed} elapsed_ms={progress.ElapsedMs}\n");

    public void Joined(ushort peer, Address address) => Write($"joined peer={peer} address={address}\n");

    public void Reowned(ushort dead, long atUs) => Write($"reowned peer={dead} at_us={atUs}\n");

    public void Error(string message) => Write($"error {message}\n");

    /// <summary>A sample: figures, the states in AllBodies order (null: unknown), and for the
    /// final sample one diagnosis per body (else none).</summary>
    public void Sample(bool final, int frame, in Figures f, ObjectState?[] states, ObjectDiagnosis[] diagnoses)
    {
        text.Clear();
        text.Append($"sample final={(final ? 1 : 0)} frame={frame} peer={f.Peer} peers={f.PeersSeen} rtt_ms={N(f.RttMs)} ")
            .Append($"loss={N(f.Loss)} kbps_out={N(f.KbpsOut)} kbps_in={N(f.KbpsIn)} overrides={f.Overrides} ")
            .Append($"catchup_frames={f.CatchupFrames} ownership_changes={f.OwnershipChanges} owned_objects={f.OwnedObjects} ")
            .Append($"frozen_objects={f.FrozenObjects} desyncs={f.Desyncs} join_ms={f.JoinMs} pace={N(f.Pace)} cpu_ms={f.CpuMs} ")
            .Append($"spawned={f.Spawned} removed={f.Removed} live={f.Live} bad_spawn={f.BadSpawn} over_limit={f.OverLimit} ")
            .Append($"bodies={states.Length} spawned_states=0 diagnoses={diagnoses.Length}\n");
        foreach (ObjectState? state in states) Pose(state);
        foreach (ObjectDiagnosis d in diagnoses) Diagnosis(d);
        output.Write(text);
        output.Flush();
    }

    private void Pose(ObjectState? state)
    {
        if (state is not ObjectState s)
        {
            text.Append("pose -\n");
            return;
        }
        text.Append($"pose {N(s.Position.X)} {N(s.Position.Y)} {N(s.Position.Z)} ")
            .Append($"{N(s.Orientation.W)} {N(s.Orientation.X)} {N(s.Orientation.Y)} {N(s.Orientation.Z)} ")
            .Append($"{N(s.LinearVelocity.X)} {N(s.LinearVelocity.Y)} {N(s.LinearVelocity.Z)} ")
            .Append($"{N(s.AngularVelocity.X)} {N(s.AngularVelocity.Y)} {N(s.AngularVelocity.Z)} {(s.AtRest ? 1 : 0)}\n");
    }

    private void Diagnosis(ObjectDiagnosis d)
    {
        text.Append($"diag owner={d.Owner} frozen={(d.Frozen ? 1 : 0)} confirmed={(d.Confirmed ? 1 : 0)} ")
            .Append($"owner_frame={d.LastOwnerFrame}@{d.LastOwnerFrameAt} overrides={d.Overrides} said=");
        if (d.OwnerSaid)
        {
            Vec3 p = d.OwnerSaidState.Position;
            text.Append($"{d.OwnerSaidFrame}:{N(p.X)},{N(p.Y)},{N(p.Z)},{(d.OwnerSaidState.AtRest ? 1 : 0)}");
        }
        else
        {
            text.Append('-');
        }
        text.Append(" history=");
        if (d.Ownership.Length == 0) text.Append('-');
        for (int i = 0; i < d.Ownership.Length; ++i)
        {
            OwnershipChange e = d.Ownership[i];
            text.Append(i == 0 ? "" : ",").Append($"{e.Frame}:{e.Owner}:{e.Sequence}:{e.Author}:{e.AppliedAt}");
        }
        text.Append('\n');
    }

    private void Write(string line)
    {
        output.Write(line);
        output.Flush();
    }

    // "R": the shortest text that reads back (strtof) to the same float.
    private static string N(float value) => value.ToString("R", CultureInfo.InvariantCulture);
}

/// <summary>The C++ names of the binding's enums, as the launcher reads them (JoinStep.Baselines: "baselines").</summary>
internal static class Words
{
    public static string Of(Enum value)
    {
        var words = new StringBuilder();
        foreach (char c in value.ToString())
        {
            if (char.IsUpper(c) && words.Length > 0) words.Append('_');
            words.Append(char.ToLowerInvariant(c));
        }
        return words.ToString();
    }
}
