// SPDX-License-Identifier: MIT
using System;
using System.Globalization;
using Shoal;

/// <summary>
/// The arguments of a shoal-lan-match peer (samples/lan_match/PEERS.md), as the launcher passes
/// them; what this peer does not implement is refused by name rather than played differently.
/// </summary>
internal sealed class PeerOptions
{
    public enum Role { HostOrJoin, Host, Join }

    public Role As = Role.HostOrJoin;
    public int Index;
    public string Session = "shoal-lan-match";
    public ushort DiscoveryPort = 47474;
    public bool LoopbackDiscovery;
    public int Peers = 4, Objects = 200;
    public double Seconds = 14, SettleSeconds = 6;
    public ulong Seed = 1;
    public LinkConditions Outbound = LinkConditions.Default;
    public bool Insecure;
    public Address? Relay;
    public string? RecordDir;
    public int PeerTimeoutMs = -1, RejoinGraceMs = -1, MisreportPeer = -1;

    public PeerOptions(string[] args)
    {
        for (int i = 0; i < args.Length; ++i)
        {
            string flag = args[i];
            string Next() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{flag} needs a value");
            double Number() => double.TryParse(Next(), NumberStyles.Float, CultureInfo.InvariantCulture, out double v)
                ? v : throw new ArgumentException($"{flag} {args[i]}: expected a number");
            int Whole() => int.TryParse(Next(), NumberStyles.Integer, CultureInfo.InvariantCulture, out int v)
                ? v : throw new ArgumentException($"{flag} {args[i]}: expected a whole number");
            switch (flag)
            {
                case "--peer": break;  // always: this program is one peer
                case "--host": As = Role.Host; break;
                case "--join": As = Role.Join; break;
                case "--index": Index = Whole(); break;
                case "--session": Session = Next(); break;
                case "--discovery-port": DiscoveryPort = checked((ushort)Whole()); break;
                case "--loopback-discovery": LoopbackDiscovery = true; break;
                case "--peers": Peers = Whole(); break;
                case "--objects": Objects = Whole(); break;
                case "--seconds": Seconds = Number(); break;
                case "--settle-seconds": SettleSeconds = Number(); break;
                case "--seed":
                    Seed = ulong.TryParse(Next(), NumberStyles.None, CultureInfo.InvariantCulture, out ulong seed)
                        ? seed : throw new ArgumentException($"--seed {args[i]}: expected a whole number >= 0");
                    break;
                case "--loss": Outbound.Loss = (float)Number(); break;
                case "--latency-ms": Outbound.LatencyMs = (float)Number(); break;
                case "--jitter-ms": Outbound.JitterMs = (float)Number(); break;
                case "--duplicate": Outbound.Duplicate = (float)Number(); break;
                case "--reorder": Outbound.Reorder = (float)Number(); break;
                case "--insecure": Insecure = true; break;
                case "--relay": Relay = HostPort(flag, Next()); break;
                case "--record": RecordDir = Next(); break;
                case "--peer-timeout-ms": PeerTimeoutMs = Whole(); break;
                case "--rejoin-grace-ms": RejoinGraceMs = Whole(); break;
                case "--misreport-peer": MisreportPeer = Whole(); break;
                case "--physics":
                    string engine = Next();
                    if (engine != "reference") throw new ArgumentException($"--physics {engine}: the C# peer plays on the reference physics only");
                    break;
                case "--projectiles":
                    if (Number() != 0) throw new ArgumentException("--projectiles: the C# peer does not fire projectiles");
                    break;
                default: throw new ArgumentException($"unknown argument {flag}: expected those of a shoal-lan-match --peer (samples/lan_match/PEERS.md)");
            }
        }
        if (Peers < 1 || Peers > 16) throw new ArgumentException($"--peers {Peers}: expected 1 to 16");
        if (Objects < 1) throw new ArgumentException($"--objects {Objects}: expected 1 or more");
        if (Relay != null && As == Role.HostOrJoin) throw new ArgumentException("--relay cannot look for a host on the LAN: expected --host or --join");
    }

    private static Address HostPort(string flag, string text)
    {
        int colon = text.LastIndexOf(':');
        if (colon <= 0 || !ushort.TryParse(text.Substring(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out ushort port))
        {
            throw new ArgumentException($"{flag} {text}: expected HOST:PORT");
        }
        return new Address(text.Substring(0, colon), port);
    }
}
