// SPDX-License-Identifier: MIT
using System;
using Shoal;

/// <summary>
/// The arena of samples/lan_match/arena.cpp, the same bits as every other peer builds it (a ball
/// one bit off is another world): one ball per player on a ring, the shared objects (spheres and
/// boxes alternating) on a grid in the middle, reference physics with walls and damping.
/// </summary>
internal sealed class Arena
{
    private const uint FirstBall = 1, FirstObject = 100;  // objects above the largest ball id (16 peers)
    private const float Spacing = 1.5f, ObjectSize = 0.4f, BallRadius = 0.5f, Margin = 5;

    public Arena(int balls, int objects)
    {
        Balls = balls;
        Objects = objects;
        side = (int)Math.Ceiling(MathF.Sqrt((float)objects));
        gridHalfWidth = (float)(side - 1) * Spacing * 0.5f;
    }

    public int Balls { get; }
    public int Objects { get; }
    /// <summary>Walls at x, z = +-HalfExtent (m).</summary>
    public float HalfExtent => gridHalfWidth + Margin;

    private readonly int side;
    private readonly float gridHalfWidth;

    /// <summary>The ball peer <paramref name="peer"/> drives.</summary>
    public uint BallOf(ushort peer) => FirstBall + (uint)(peer % Balls);

    /// <summary>Shared object number <paramref name="i"/>, 0..Objects-1.</summary>
    public uint SharedObject(int i) => FirstObject + (uint)i;

    /// <summary>Every body's id, balls first, in the order Build adds them.</summary>
    public uint[] AllBodies()
    {
        var ids = new uint[Balls + Objects];
        for (int p = 0; p < Balls; ++p) ids[p] = FirstBall + (uint)p;
        for (int i = 0; i < Objects; ++i) ids[Balls + i] = SharedObject(i);
        return ids;
    }

    /// <summary>The world's description in a recording, as shoal-lan-match writes it (shoal-replay builds it).</summary>
    public string Describe() => $"shoal-lan-match peers={Balls} objects={Objects} physics=reference";

    public World Build()
    {
        var world = new World(new WorldConfig
        {
            ArenaHalfX = HalfExtent, ArenaHalfZ = HalfExtent,
            LinearDamping = 0.6f, AngularDamping = 0.6f,  // at rest within seconds of the bots stopping
        });
        float ring = gridHalfWidth + Margin * 0.5f;
        for (int p = 0; p < Balls; ++p)
        {
            float angle = 6.2831853f * (float)p / (float)Balls;
            (float cosine, float sine) = RingCosSin(angle);
            world.AddSphere(FirstBall + (uint)p, BallRadius, 2.0f, ObjectState.At(cosine * ring, BallRadius, sine * ring));
        }
        for (int i = 0; i < Objects; ++i)
        {
            ObjectState state = ObjectState.At((float)(i % side) * Spacing - gridHalfWidth, ObjectSize,
                                               (float)(i / side) * Spacing - gridHalfWidth);
            state.AtRest = true;
            if (i % 2 == 0) world.AddSphere(SharedObject(i), ObjectSize, 1.0f, state);
            else world.AddBox(SharedObject(i), ObjectSize, ObjectSize, ObjectSize, 1.0f, state);
        }
        return world;
    }

    /// <summary>
    /// cos and sin of a ring angle (0..2 pi) as arena.cpp computes them, with IEEE arithmetic only
    /// (MathF.Cos calls the C library, whose last bit differs between systems): brought within
    /// pi/4 of a multiple of pi/2, the Taylor series in double, rounded to float once.
    /// </summary>
    private static (float, float) RingCosSin(float angle)
    {
        const double halfPiHigh = 1.57079632673412561417e+00;  // pi/2 to 33 bits
        const double halfPiLow = 6.07710050650619224932e-11;   // the rest of pi/2
        double quadrants = Math.Round((double)angle / 1.5707963267948966, MidpointRounding.ToEven);  // nearbyint
        double r = ((double)angle - quadrants * halfPiHigh) - quadrants * halfPiLow;
        double r2 = r * r;
        double sine = 0, cosine = 0, sineTerm = r, cosineTerm = 1;
        for (int n = 1; n <= 21; n += 2)  // r^n / n! and r^(n-1) / (n-1)!
        {
            sine += sineTerm;
            cosine += cosineTerm;
            sineTerm *= -r2 / ((n + 1) * (n + 2));
            cosineTerm *= -r2 / (n * (n + 1));
        }
        switch ((int)quadrants & 3)
        {
            case 0: return ((float)cosine, (float)sine);
            case 1: return ((float)-sine, (float)cosine);
            case 2: return ((float)-cosine, (float)-sine);
            default: return ((float)sine, (float)-cosine);
        }
    }
}
