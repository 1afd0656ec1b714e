// SPDX-License-Identifier: MIT
using System;
using Shoal;

/// <summary>
/// Steers its ball into a randomly chosen shared object, picking another every two to four
/// seconds, so that balls cross the arena, meet and hand objects over (as lan_match's bot.cpp).
/// </summary>
internal sealed class Bot
{
    private readonly Random random;
    private readonly Arena arena;
    private readonly float tickHz;
    private uint target;
    private int nextPick;

    public Bot(ulong seed, Arena arena, float tickHz)
    {
        random = new Random(unchecked((int)seed ^ (int)(seed >> 32)));
        this.arena = arena;
        this.tickHz = tickHz;
        target = arena.SharedObject(0);
    }

    public Input Next(Peer peer, uint ball)
    {
        int frame = peer.Frame;
        if (frame >= nextPick)
        {
            target = arena.SharedObject(random.Next(arena.Objects));
            nextPick = frame + random.Next((int)(2 * tickHz), (int)(4 * tickHz) + 1);
        }
        Vec3 to = peer.State(target).Position, at = peer.State(ball).Position;
        float dx = to.X - at.X, dz = to.Z - at.Z;  // along the ground
        float length = MathF.Sqrt(dx * dx + dz * dz);
        return length > 0 ? new Input(dx / length, 0, dz / length) : default;
    }
}
